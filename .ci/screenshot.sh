#!/usr/bin/env bash
# Runs a desktop program under Xvfb and saves a screenshot of the screen:
#   .ci/screenshot.sh OUT.png SECONDS -- PROGRAM [ARGS...]
# Fails when the program died before the shot or the shot is (almost) uniformly black.
set -euo pipefail
out=${1:?usage: screenshot.sh OUT.png SECONDS -- PROGRAM [ARGS...]}
wait_s=${2:-8}
shift 2
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "no program given" >&2; exit 2; }

disp=:$((90 + RANDOM % 9))
Xvfb "$disp" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xpid=$!
trap 'kill "$xpid" 2>/dev/null || true' EXIT
export DISPLAY=$disp
for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
chmod 700 "$XDG_RUNTIME_DIR"

"$@" >"$out.log" 2>&1 &
apid=$!
sleep "$wait_s"
if ! kill -0 "$apid" 2>/dev/null; then
    echo "the program exited before the screenshot; its output:" >&2
    tail -20 "$out.log" >&2
    exit 1
fi
import -window root "$out"
kill "$apid" 2>/dev/null || true
wait "$apid" 2>/dev/null || true
mean=$(convert "$out" -format '%[fx:mean]' info:)
echo "screenshot: $out (mean brightness $mean)"
awk -v m="$mean" 'BEGIN { exit !(m > 0.02) }' || { echo "the screenshot is black" >&2; exit 1; }
