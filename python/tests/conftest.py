"""Shared helpers of the Python tests: the project's folders, the Moving AI sets, the CLI."""

import heapq
import math
import os
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
"""The workspace: where Cargo.toml, maps/ and tests/corpus/ are."""
CORPUS = ROOT / "tests" / "corpus"
MOVINGAI = ROOT.parent / "shared" / "movingai"
"""The Moving AI sample shared beside the project, as the Rust tests find it."""


def cli_binary():
    """The debug build of the `gridpath` command line (in CARGO_TARGET_DIR when it is set, as
    cargo builds there), or None when it has not been built."""
    target = ROOT / os.environ.get("CARGO_TARGET_DIR", "target")
    exe = target / "debug" / ("gridpath.exe" if os.name == "nt" else "gridpath")
    return exe if exe.is_file() else None


@pytest.fixture
def cli():
    exe = cli_binary()
    if exe is None:
        pytest.skip(
            "SKIPPED: target/debug/gridpath is not built (cargo build), so the answers "
            "were not compared with the command line's"
        )
    return exe


def scenario_sets():
    """Every Moving AI map with its single-agent scenario, outside the stale sets."""
    if not MOVINGAI.is_dir():
        return []
    sets = []
    for scen in sorted(MOVINGAI.glob("*/*.map.scen")):
        sets.append((scen.with_suffix(""), scen))
    return sets


@pytest.fixture
def movingai_sets():
    sets = scenario_sets()
    if not sets:
        pytest.skip(
            f"SKIPPED: {MOVINGAI} is absent, so the Moving AI optima were not checked"
        )
    return sets


def read_scen(path):
    """The queries of a .scen file as (start, goal, optimal, decimals), read afresh."""
    queries = []
    for i, line in enumerate(Path(path).read_text().splitlines()):
        fields = line.split()
        if not fields or (i == 0 and fields[0] == "version"):
            continue
        sx, sy, gx, gy = (int(v) for v in fields[4:8])
        optimal = fields[8]
        decimals = len(optimal.split(".")[1]) if "." in optimal else 0
        queries.append(((sx, sy), (gx, gy), float(optimal), decimals))
    return queries


def tolerance(optimal, decimals):
    """The Moving AI tolerance: half a unit of the last printed decimal plus 1e-7 × optimal."""
    return 0.5 * 10.0 ** (-decimals) + 1e-7 * optimal


NEIGHBOURS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def oracle_cost(costs, start, goal, diagonal="no-cut"):
    """The cheapest cost from start to goal by a plain Dijkstra written here, independent of
    the engine: a step costs its length (1 or √2) times the mean of its two cells' costs;
    diagonal steps follow the rule (no-cut: both corners passable; one-free: at least one;
    always; never). `costs` is indexed [y, x], inf or nan impassable. None when unreachable."""
    h, w = costs.shape
    passable = np.isfinite(costs)

    def free(x, y):
        return 0 <= x < w and 0 <= y < h and bool(passable[y, x])

    best = {start: 0.0}
    queue = [(0.0, start)]
    while queue:
        g, (x, y) = heapq.heappop(queue)
        if (x, y) == goal:
            return g
        if g > best[(x, y)]:
            continue
        for dx, dy in NEIGHBOURS:
            nx, ny = x + dx, y + dy
            if not free(nx, ny):
                continue
            if dx and dy:
                corners = int(free(x + dx, y)) + int(free(x, y + dy))
                allowed = {"never": False, "always": True, "one-free": corners >= 1, "no-cut": corners == 2}
                if not allowed[diagonal]:
                    continue
            step = math.sqrt(2.0) if dx and dy else 1.0
            ng = g + step * (costs[y, x] + costs[ny, nx]) / 2.0
            if ng < best.get((nx, ny), math.inf):
                best[(nx, ny)] = ng
                heapq.heappush(queue, (ng, (nx, ny)))
    return None
