"""gridpath against the pathfinders Python users reach for today, in one process, on the same
Moving AI queries: per-query time from Python and whether each answer is the exact octile
optimum (8-connected, no corner cutting, diagonal √2).

    pip install ./python pyastar2d tcod scikit-image      # a release build of gridpath
    python python/bench.py [--map den520d.map] [--queries 200] [--write-docs]

The other libraries are optional: one that is not installed is left out of the table with a
note. With --write-docs the table replaces the one between the bench markers in
docs/python.md.
"""

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

import gridpath

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_MAP = ROOT.parent / "shared" / "movingai" / "dao" / "den520d.map"
DOCS = ROOT / "docs" / "python.md"
START_MARK = "<!-- bench:start -->"
END_MARK = "<!-- bench:end -->"
SQRT2 = math.sqrt(2.0)


def read_scen(path):
    """(start, goal, optimal, decimals) of each query, cells as (x, y)."""
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


def spread(queries, n):
    """`n` queries spread evenly over the file, short to long."""
    if len(queries) <= n:
        return queries
    return [queries[int(i * len(queries) / n)] for i in range(n)]


def octile_cost(cells, passable):
    """The cost of a path of (x, y) cells under the Moving AI rules, or None when it is not a
    legal path there (a step of more than one cell, onto a wall, or cutting a corner)."""
    cost = 0.0
    for (x0, y0), (x1, y1) in zip(cells[:-1], cells[1:]):
        dx, dy = x1 - x0, y1 - y0
        if max(abs(dx), abs(dy)) != 1 or not passable[y1, x1]:
            return None
        if dx and dy:
            if not (passable[y0, x1] and passable[y1, x0]):
                return None
            cost += SQRT2
        else:
            cost += 1.0
    return cost


def exact(cost, optimal, decimals):
    return cost is not None and abs(cost - optimal) <= 0.5 * 10.0**-decimals + 1e-7 * optimal


class Runner:
    """One library: a name, a note on its rules, and a function from a query to its path."""

    def __init__(self, name, rules, solve):
        self.name, self.rules, self.solve = name, rules, solve


def runners(m, passable):
    """The libraries to compare, each set up on the map (setup not timed)."""
    out = [
        Runner(
            f"gridpath {gridpath.__version__} A* (Rust)",
            "exact octile, no corner cutting",
            lambda s, g: m.find_path(s, g).cells,
        ),
        Runner(
            f"gridpath {gridpath.__version__} JPS (Rust)",
            "exact octile, no corner cutting",
            lambda s, g: m.find_path(s, g, algorithm="jps").cells,
        ),
        Runner(
            f"gridpath {gridpath.__version__} JPS+ (Rust)",
            "exact; jump tables built once per map, not timed",
            lambda s, g: m.find_path(s, g, algorithm="jps-plus").cells,
        ),
        Runner(
            f"gridpath {gridpath.__version__} subgoal graph (Rust)",
            "exact; graph built once per map, not timed",
            lambda s, g: m.find_path(s, g, algorithm="subgoal").cells,
        ),
    ]
    skipped = []
    try:
        import pyastar2d

        weights = np.where(passable, 1.0, np.inf).astype(np.float32)

        def astar2d(s, g):
            path = pyastar2d.astar_path(weights, (s[1], s[0]), (g[1], g[0]), allow_diagonal=True)
            return [] if path is None else [(int(c), int(r)) for r, c in path]

        out.append(Runner(f"pyastar2d {version('pyastar2d')} (C++ A*)", "diagonal costs 1, cuts corners", astar2d))
    except ImportError:
        skipped.append("pyastar2d")
    try:
        import tcod.path

        cost = passable.astype(np.int8)
        astar = tcod.path.AStar(cost, diagonal=SQRT2)

        def tcod_astar(s, g):
            # tcod indexes the cost array [i, j] = [y, x].
            return [(int(j), int(i)) for i, j in [(s[1], s[0])] + astar.get_path(s[1], s[0], g[1], g[0])]

        out.append(Runner(f"tcod {version('tcod')} path.AStar (C)", "cuts corners", tcod_astar))
        graph = tcod.path.SimpleGraph(cost=cost, cardinal=2, diagonal=3)

        def tcod_pathfinder(s, g):
            finder = tcod.path.Pathfinder(graph)
            finder.add_root((s[1], s[0]))
            return [(int(j), int(i)) for i, j in finder.path_to((g[1], g[0])).tolist()]

        out.append(
            Runner(f"tcod {version('tcod')} Pathfinder (C)", "integer costs (diagonal 3/2)", tcod_pathfinder)
        )
    except ImportError:
        skipped.append("tcod")
    try:
        from skimage.graph import route_through_array

        costs = np.where(passable, 1.0, np.inf)

        def skimage_route(s, g):
            path, _ = route_through_array(costs, (s[1], s[0]), (g[1], g[0]), fully_connected=True, geometric=True)
            return [(int(c), int(r)) for r, c in path]

        out.append(
            Runner(f"scikit-image {version('scikit-image')} route_through_array (Cython)", "geometric costs", skimage_route)
        )
    except ImportError:
        skipped.append("scikit-image")
    return out, skipped


def version(package):
    from importlib.metadata import PackageNotFoundError, version as v

    try:
        return v(package)
    except PackageNotFoundError:
        return "?"


def check(runner, queries, passable):
    """How many of the runner's answers are the exact optimum (this also warms it up)."""
    paths = [runner.solve(s, g) for s, g, _, _ in queries]
    return sum(
        exact(octile_cost([tuple(c) for c in p], passable) if len(p) else None, opt, dec)
        for p, (_, _, opt, dec) in zip(paths, queries)
    )


def measure(libraries, queries, rounds):
    """Seconds per query of each library, as (mean over the rounds, fastest round). The
    libraries take turns, a round of every query each, so that a change in the machine's load
    falls on all of them alike; the fastest round is the one least disturbed by other work."""
    spent = [[] for _ in libraries]
    for _ in range(rounds):
        for i, runner in enumerate(libraries):
            started = time.perf_counter()
            for s, g, _, _ in queries:
                runner.solve(s, g)
            spent[i].append(time.perf_counter() - started)
    return [(sum(t) / (rounds * len(queries)), min(t) / len(queries)) for t in spent]


def overhead(m, cell, calls=200_000):
    """Mean seconds of a find_path call whose answer is the 1-cell path."""
    for _ in range(1000):
        m.find_path(cell, cell)
    started = time.perf_counter()
    for _ in range(calls):
        m.find_path(cell, cell)
    return (time.perf_counter() - started) / calls


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--map", type=Path, default=DEFAULT_MAP, help="a Moving AI .map with its .map.scen beside it")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds of every query per library")
    parser.add_argument("--write-docs", action="store_true", help=f"write the table into {DOCS}")
    args = parser.parse_args()

    scen = args.map.with_name(args.map.name + ".scen")
    if not args.map.is_file() or not scen.is_file():
        sys.exit(f"bench: {args.map} or {scen} is missing: give --map with a Moving AI map and its scenario")
    m = gridpath.Map.load(args.map)
    passable = np.isfinite(m.to_numpy())
    queries = spread(read_scen(scen), args.queries)
    libraries, skipped = runners(m, passable)
    rights = [check(runner, queries, passable) for runner in libraries]
    times = measure(libraries, queries, args.rounds)
    rows = list(zip(libraries, times, rights))
    for runner, (per_query, fastest), right in rows:
        print(
            f"{runner.name}: {per_query * 1e3:.4f} ms per query (fastest round {fastest * 1e3:.4f} ms), "
            f"{right}/{len(queries)} exact",
            flush=True,
        )
    astar_time, astar_fastest = rows[0][1]
    jps_time, jps_fastest = rows[1][1]
    free = np.argwhere(passable)[0]
    one_cell = overhead(m, (int(free[1]), int(free[0])))
    print(f"find_path overhead (1-cell path, map loaded): {one_cell * 1e6:.2f} µs")

    lines = [
        f"{len(queries)} queries of {args.map.name} (Moving AI, spread over its scenario file), "
        f"from Python {platform.python_version()}, one thread, on {platform.machine()} "
        f"{platform.system()} with {os.cpu_count()} cores (load average {os.getloadavg()[0]:.1f} "
        f"when it ended), {args.rounds} rounds taking turns; measured by `python/bench.py`.",
        "",
        "| library | per query (mean) | per query (fastest round) | exact octile answers | its rules "
        "| gridpath A* faster by | gridpath JPS faster by |",
        "| --- | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    for runner, (per_query, fastest), right in rows:
        ratios = (
            ["—", "—"]
            if runner.name.startswith("gridpath")
            else [
                f"{per_query / astar_time:.1f}× ({fastest / astar_fastest:.1f}×)",
                f"{per_query / jps_time:.1f}× ({fastest / jps_fastest:.1f}×)",
            ]
        )
        lines.append(
            f"| {runner.name} | {format_time(per_query)} | {format_time(fastest)} | {right}/{len(queries)} "
            f"| {runner.rules} | {ratios[0]} | {ratios[1]} |"
        )
    lines.append("")
    lines.append(
        "The ratios compare the means, and in brackets the fastest rounds. "
        f"gridpath's JPS is {astar_time / jps_time:.1f}× its A* on these queries."
    )
    lines.append("")
    lines.append(
        f"A call's overhead (map loaded, a 1-cell path, `find_path` returning a `Path` with its "
        f"numpy array): {one_cell * 1e6:.2f} µs."
    )
    if skipped:
        lines.append(f"Not installed, so left out: {', '.join(skipped)}.")
    table = "\n".join(lines)
    print()
    print(table)
    if args.write_docs:
        text = DOCS.read_text()
        head, rest = text.split(START_MARK, 1)
        _, tail = rest.split(END_MARK, 1)
        DOCS.write_text(f"{head}{START_MARK}\n{table}\n{END_MARK}{tail}")
        print(f"\nwrote the table into {DOCS}")


def format_time(seconds):
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


if __name__ == "__main__":
    main()
