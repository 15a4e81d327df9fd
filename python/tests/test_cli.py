"""The same answers from Python as from the `gridpath` command line, on the same queries."""

import json
import subprocess

import numpy as np
import pytest

import gridpath
from conftest import CORPUS, MOVINGAI, ROOT


def run(cli, *args):
    out = subprocess.run([str(cli), *map(str, args)], capture_output=True, text=True)
    assert out.returncode in (0, 2), out.stderr
    return json.loads(out.stdout)


def free_cells(m, n, seed):
    free = np.argwhere(np.isfinite(m.to_numpy()))
    rng = np.random.default_rng(seed)
    picks = free[rng.integers(len(free), size=n)]
    return [(int(c[1]), int(c[0])) for c in picks]


MAPS = [ROOT / "maps" / "default.json", CORPUS / "map" / "octile.map", ROOT / "tests" / "data" / "floorplan.json"]


@pytest.mark.parametrize("map_path", MAPS, ids=lambda p: p.name)
@pytest.mark.parametrize(
    "algorithm, diagonal",
    [("astar", "no-cut"), ("dijkstra", "always"), ("bfs", "never"), ("theta", "no-cut"), ("greedy", "one-free")],
)
def test_solve_gives_the_same_path(cli, map_path, algorithm, diagonal):
    m = gridpath.Map.load(map_path)
    cells = free_cells(m, 6, len(algorithm) + len(diagonal))
    for start, goal in zip(cells[::2], cells[1::2]):
        expected = run(
            cli, "solve", map_path,
            "--from", f"{start[0]},{start[1]}", "--to", f"{goal[0]},{goal[1]}",
            "--algo", algorithm, "--diagonal", diagonal, "--json",
        )
        # The command line visits the map's own waypoints too.
        path = m.find_path(start, goal, algorithm=algorithm, diagonal=diagonal)
        assert path.found == expected["found"]
        assert path.cost == expected["cost"] and path.length == expected["length"]
        assert path.cells.tolist() == expected["path"]
        assert path.optimality == expected["optimality"]
        assert path.heuristic == expected["heuristic"]
        assert path.stats["expanded"] == expected["stats"]["expanded"]


def test_solve_with_the_maps_own_endpoints_waypoints_and_smoothing(cli):
    map_path = ROOT / "maps" / "default.json"
    expected = run(cli, "solve", map_path, "--smooth", "--json")
    path = gridpath.Map.load(map_path).find_path(smooth=True)
    assert path.cells.tolist() == expected["path"] and path.cost == expected["cost"]
    smoothed = expected["smoothed"]
    for key in ["length", "cost", "curve_length", "curve_cost", "min_turn_radius"]:
        assert path.smoothed[key] == pytest.approx(smoothed[key], rel=1e-12), key
    np.testing.assert_allclose(path.smooth_waypoints, smoothed["waypoints"])


def test_flow_fields_are_the_same(cli):
    for map_path in MAPS:
        m = gridpath.Map.load(map_path)
        goal = free_cells(m, 1, 5)[0]
        expected = run(cli, "field", map_path, "--to", f"{goal[0]},{goal[1]}", "--json")
        field = m.flow_field(goal)
        costs = np.array([np.inf if c is None else c for c in expected["costs"]])
        np.testing.assert_array_equal(field.cost.ravel(), costs)
        steps = [[0, 0] if s is None else s for s in expected["next"]]
        np.testing.assert_array_equal(field.next.reshape(-1, 2), steps)


@pytest.mark.parametrize("algorithm", ["astar", "jps", "hpa", "theta"])
def test_scenarios_report_the_same_figures(cli, algorithm):
    scen = MOVINGAI / "dao" / "arena.map.scen"
    if not scen.is_file():
        pytest.skip(f"SKIPPED: {scen} is absent, so scen was not compared with run_scenario")
    map_path = scen.with_suffix("")
    expected = run(cli, "scen", map_path, scen, "--algo", algorithm, "--limit", "100", "--json")
    report = gridpath.run_scenario(map_path, scen, algorithm=algorithm, limit=100)
    for key in ["queries", "mismatches", "unchecked", "expanded", "mean_ratio", "max_ratio", "jobs"]:
        assert getattr(report, key) == expected[key], key
    assert (report.preprocess_ms is None) == ("preprocess_ms" not in expected)
