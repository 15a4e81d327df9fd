"""The Moving AI benchmark's optima from Python, on the sets shared beside the project."""

import numpy as np
import pytest

import gridpath
from conftest import read_scen, tolerance

# Queries per set: enough to reach every bucket of difficulty, few enough for CI.
PER_SET = 120


def spread(queries, n):
    """`n` queries spread evenly over the file, from the short ones to the long ones."""
    if len(queries) <= n:
        return queries
    step = len(queries) / n
    return [queries[int(i * step)] for i in range(n)]


def test_run_scenario_finds_every_optimum(movingai_sets):
    for map_path, scen in movingai_sets:
        report = gridpath.run_scenario(map_path, scen, limit=PER_SET, jobs=2)
        assert report.queries == min(PER_SET, len(read_scen(scen)))
        assert report.mismatches == 0, (scen, report.mismatched[:3])
        assert report and report.mean_ratio == pytest.approx(1.0, abs=1e-4)
        assert len(report.costs) == report.queries


@pytest.mark.parametrize("algorithm", ["astar", "jps", "subgoal"])
def test_batches_match_the_optima_read_here(movingai_sets, algorithm):
    """The costs of `find_paths` against the optimal lengths parsed afresh from the files."""
    for map_path, scen in movingai_sets:
        m = gridpath.Map.load(map_path)
        queries = spread(read_scen(scen), PER_SET // 2)
        pairs = [(start, goal) for start, goal, _, _ in queries]
        paths = m.find_paths(pairs, algorithm=algorithm, jobs=2)
        for (start, goal, optimal, decimals), path in zip(queries, paths):
            assert path.found, (scen, start, goal)
            assert abs(path.cost - optimal) <= tolerance(optimal, decimals), (
                scen,
                algorithm,
                start,
                goal,
                path.cost,
                optimal,
            )


def test_a_scenario_for_another_map_is_refused(movingai_sets, tmp_path):
    map_path, scen = movingai_sets[0]
    small = gridpath.Map.from_numpy(np.ones((3, 3)), name="small")
    with pytest.raises(gridpath.ScenarioError) as caught:
        gridpath.run_scenario(small, scen)
    assert caught.value.file == str(scen) and caught.value.place.startswith("line ")
    empty = tmp_path / "empty.scen"
    empty.write_text("version 1\n")
    with pytest.raises(gridpath.ScenarioError, match="no queries"):
        gridpath.run_scenario(map_path, empty)


def test_a_malformed_scenario_names_its_line(tmp_path):
    m = gridpath.Map.from_numpy(np.ones((4, 4)))
    bad = tmp_path / "bad.scen"
    bad.write_text("version 1\n0\tm.map\t4\t4\t0\t0\t3\tthree\t4.24\n")
    with pytest.raises(gridpath.FileError) as caught:
        gridpath.run_scenario(m, bad)
    assert caught.value.file == str(bad) and caught.value.place == "line 2"
