"""Many units at once: `Map.solve_team`, its plans checked here by a validator of the test's
own (cells, moves, collisions, costs), and CBS against the benchmark's published optima."""

import numpy as np
import pytest

import gridpath

from conftest import MOVINGAI

MAPF = MOVINGAI / "mapf"


def check_plan(costs, plan, starts, goals, moves=4):
    """Checks the plan against the rules on the cost array `costs` ([y, x], inf a wall) and
    returns its sum of costs (a step or a wait costs the cell's cost, as the engine prices
    them on one-cost maps: a tick each)."""
    pos = plan.positions
    ticks, agents, two = pos.shape
    assert two == 2 and agents == len(starts) and ticks >= 1
    assert [tuple(p) for p in pos[0]] == [tuple(s) for s in starts]
    assert [tuple(p) for p in pos[-1]] == [tuple(g) for g in goals]
    steps = {(0, 1), (1, 0), (0, -1), (-1, 0), (0, 0)}
    if moves == 8:
        steps |= {(1, 1), (1, -1), (-1, 1), (-1, -1)}
    for t in range(ticks):
        cells = [tuple(p) for p in pos[t]]
        assert len(set(cells)) == agents, f"two units on one cell at tick {t}"
        for x, y in cells:
            assert np.isfinite(costs[y, x]), f"a unit on a wall at tick {t}"
        if t == 0:
            continue
        before = [tuple(p) for p in pos[t - 1]]
        for i in range(agents):
            dx, dy = cells[i][0] - before[i][0], cells[i][1] - before[i][1]
            assert (dx, dy) in steps, f"unit {i} jumps at tick {t}"
            for j in range(i + 1, agents):
                assert not (cells[i] == before[j] and cells[j] == before[i]), (
                    f"units {i} and {j} swap at tick {t}"
                )
    # Each unit's cost: its arrival, the last tick it was not yet on its goal for good.
    total = 0
    for i in range(agents):
        arrival = ticks - 1
        while arrival > 0 and tuple(pos[arrival - 1][i]) == tuple(goals[i]):
            arrival -= 1
        assert plan.arrivals[i] == arrival
        total += arrival
    return total


def corridor_with_pocket():
    """A corridor of seven cells with a pocket above its middle: two units going opposite
    ways must use the pocket to pass."""
    costs = np.full((2, 7), np.inf)
    costs[1, :] = 1.0
    costs[0, 3] = 1.0
    return costs


def test_cbs_passes_two_units_through_a_pocket_optimally():
    costs = corridor_with_pocket()
    m = gridpath.Map.from_numpy(costs)
    starts, goals = [(0, 1), (6, 1)], [(6, 1), (0, 1)]
    plan = m.solve_team(starts, goals, algorithm="cbs")
    assert plan and plan.solved and plan.proof == "optimal" and plan.bound == 1.0
    assert plan.stopped == "proved-optimal"
    soc = check_plan(costs, plan, starts, goals)
    # Alone each needs 6 ticks; to pass, one must step aside into the pocket: in at tick 4 and
    # out at tick 5 when the other has gone by (8 ticks), while the other waits one tick for
    # the pocket to be taken (7 ticks). The optimum is 15, whatever the solver calls its plan.
    assert soc == plan.sum_of_costs == 15
    assert plan.lower_bound == 12
    assert plan.proved_lower_bound == soc
    assert plan.costs.tolist() == [float(c) for c in plan.arrivals]
    solved = 0
    for solver in gridpath.TEAM_SOLVERS:
        other = m.solve_team(starts, goals, algorithm=solver)
        assert other.algorithm == solver
        if other.solved:
            # No solver's plan is cheaper than the proved optimum.
            assert check_plan(costs, other, starts, goals) == other.sum_of_costs >= soc
            solved += 1
        if solver in ("ecbs", "eecbs"):
            assert other.proved_lower_bound <= soc <= other.sum_of_costs
        elif solver != "cbs":
            assert other.proved_lower_bound is None
    assert solved >= 3


def test_a_swap_in_a_bare_corridor_is_proved_impossible():
    costs = np.ones((1, 2))
    m = gridpath.Map.from_numpy(costs)
    plan = m.solve_team([(0, 0), (1, 0)], [(1, 0), (0, 0)], algorithm="lacam")
    assert not plan and plan.proof == "no-solution"
    assert plan.stopped == "searched-everything"
    assert plan.positions.shape == (0, 2, 2)
    assert plan.sum_of_costs is None and plan.makespan is None
    assert "no-solution" in repr(plan)


def test_bad_teams_are_argument_errors():
    m = gridpath.Map.from_numpy(corridor_with_pocket())
    with pytest.raises(gridpath.ArgumentError, match="unknown multi-agent solver"):
        m.solve_team([(0, 1)], [(6, 1)], algorithm="astar")
    with pytest.raises(gridpath.ArgumentError, match="one goal per start"):
        m.solve_team([(0, 1), (1, 1)], [(6, 1)])
    with pytest.raises(gridpath.ArgumentError):
        m.solve_team([(0, 0)], [(6, 1)])  # a wall
    with pytest.raises(gridpath.ArgumentError):
        m.solve_team([(0, 1), (0, 1)], [(6, 1), (5, 1)])  # one start twice
    with pytest.raises(gridpath.ArgumentError, match="moves"):
        m.solve_team([(0, 1)], [(6, 1)], moves=6)
    with pytest.raises(gridpath.ArgumentError, match="time_limit"):
        m.solve_team([(0, 1)], [(6, 1)], time_limit=0)
    with pytest.raises(gridpath.ArgumentError, match="weight"):
        m.solve_team([(0, 1)], [(6, 1)], algorithm="ecbs", weight=0.5)


def benchmark_team(k):
    """The first k agents of random-32-32-20's first scenario, as (map, starts, goals)."""
    map_file = MAPF / "random-32-32-20.map"
    scen = MAPF / "random-32-32-20-random-1.scen"
    if not map_file.is_file() or not scen.is_file():
        pytest.skip(f"SKIPPED: {map_file} is absent, so the MAPF benchmark was not run")
    starts, goals = [], []
    for line in scen.read_text().splitlines()[1 : k + 1]:
        fields = line.split("\t")
        starts.append((int(fields[4]), int(fields[5])))
        goals.append((int(fields[6]), int(fields[7])))
    m = gridpath.Map.load(map_file)
    # The package's reader gives the same agents as this one.
    assert m.team_from_scenario(scen, k) == (starts, goals)
    return m, starts, goals


@pytest.mark.parametrize("k, optimum", [(10, 200), (20, 413)])
def test_cbs_proves_the_benchmark_optima(k, optimum):
    m, starts, goals = benchmark_team(k)
    plan = m.solve_team(starts, goals, algorithm="cbs", time_limit=60)
    assert plan.proof == "optimal"
    assert check_plan(m.to_numpy(), plan, starts, goals) == plan.sum_of_costs == optimum


def test_lacam_plans_a_crowd_that_the_validator_accepts():
    m, starts, goals = benchmark_team(100)
    plan = m.solve_team(starts, goals)
    assert plan.proof == "feasible" and plan.algorithm == "lacam"
    soc = check_plan(m.to_numpy(), plan, starts, goals)
    assert soc == plan.sum_of_costs >= plan.lower_bound
    assert plan.positions.shape == (plan.makespan + 1, 100, 2)


def test_a_scenario_that_does_not_fit_the_map_names_its_line(tmp_path):
    m = gridpath.Map.from_numpy(corridor_with_pocket())
    scen = tmp_path / "team.scen"
    scen.write_text(
        "version 1\n"
        "0\tpocket.map\t7\t2\t0\t1\t6\t1\t6\n"
        "0\tpocket.map\t7\t2\t1\t0\t5\t1\t4\n"
    )
    starts, goals = m.team_from_scenario(scen, 1)
    assert (starts, goals) == ([(0, 1)], [(6, 1)])
    with pytest.raises(gridpath.ScenarioError) as wall:
        m.team_from_scenario(scen)
    assert wall.value.place == "line 3" and wall.value.file == str(scen)
    with pytest.raises(gridpath.ScenarioError, match="3 agents asked for"):
        m.team_from_scenario(scen, 3)
    with pytest.raises(gridpath.FileError):
        m.team_from_scenario(tmp_path / "missing.scen")


def test_starts_and_goals_may_be_numpy_arrays_or_lists():
    m = gridpath.Map.from_numpy(corridor_with_pocket())
    starts, goals = np.array([[0, 1], [6, 1]]), np.array([[6, 1], [0, 1]])
    plan = m.solve_team(starts, goals, algorithm="cbs")
    assert plan.proof == "optimal"
    lists = m.solve_team([[0, 1], [6, 1]], [(6, 1), [0, 1]], algorithm="cbs")
    assert plan.sum_of_costs == lists.sum_of_costs
    assert m.find_path(np.array([0, 1]), [6, 1]).cost == 6
    with pytest.raises(gridpath.ArgumentError, match="must be a cell"):
        m.solve_team(["ab"], [(6, 1)])
    with pytest.raises(gridpath.ArgumentError, match="must be a cell"):
        m.solve_team([(0, 1, 2)], [(6, 1)])
