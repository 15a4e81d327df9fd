"""Searches from Python against an independent Dijkstra, and the options around them."""

import numpy as np
import pytest

import gridpath
from conftest import oracle_cost

EXACT = ["astar", "dijkstra", "bidirectional", "idastar", "dstar-lite"]
UNIFORM_EXACT = ["jps", "jps-plus", "subgoal", "ch"]


def random_costs(seed, shape=(24, 31), walls=0.25, values=(1.0, 1.5, 4.0)):
    rng = np.random.default_rng(seed)
    costs = rng.choice(values, size=shape)
    costs[rng.random(shape) < walls] = np.inf
    return costs


def passable_pairs(costs, seed, n):
    rng = np.random.default_rng(seed)
    free = np.argwhere(np.isfinite(costs))
    picks = free[rng.integers(len(free), size=(n, 2))]
    return [((int(a[1]), int(a[0])), (int(b[1]), int(b[0]))) for a, b in picks]


@pytest.mark.parametrize("diagonal", gridpath.DIAGONALS)
def test_exact_algorithms_match_the_oracle_on_weighted_maps(diagonal):
    for seed in range(3):
        costs = random_costs(seed)
        m = gridpath.Map.from_numpy(costs)
        for start, goal in passable_pairs(costs, seed, 6):
            expected = oracle_cost(costs, start, goal, diagonal)
            for algorithm in EXACT:
                path = m.find_path(start, goal, algorithm=algorithm, diagonal=diagonal)
                if path.stats["budget_exhausted"]:
                    # IDA*'s node budget ran out: "not found within the budget", said so.
                    assert algorithm == "idastar" and not path.found
                    continue
                assert path.found == (expected is not None), (algorithm, start, goal)
                if expected is None:
                    assert len(path) == 0 and path.cells.shape == (0, 2)
                    # A failed search never claims "exact", and says why it failed.
                    assert not path.exact and path.optimality == "none (no path)"
                    continue
                assert path.cost == pytest.approx(expected, rel=1e-9), (algorithm, diagonal)
                assert path.exact and path.optimality == "exact"
                cells = path.cells
                assert tuple(cells[0]) == start and tuple(cells[-1]) == goal
                steps = np.abs(np.diff(cells, axis=0))
                assert steps.max() <= 1 and steps.sum(axis=1).min() >= 1


def test_uniform_cost_algorithms_match_the_oracle():
    for seed in range(3):
        costs = random_costs(seed, values=(1.0,))
        m = gridpath.Map.from_numpy(costs)
        for start, goal in passable_pairs(costs, seed + 10, 8):
            expected = oracle_cost(costs, start, goal)
            for algorithm in UNIFORM_EXACT:
                path = m.find_path(start, goal, algorithm=algorithm)
                assert path.found == (expected is not None), algorithm
                if expected is not None:
                    assert path.cost == pytest.approx(expected, rel=1e-9), algorithm


def test_weighted_and_any_angle_searches_keep_their_bounds():
    costs = random_costs(5, walls=0.15, values=(1.0,))
    m = gridpath.Map.from_numpy(costs)
    for start, goal in passable_pairs(costs, 5, 10):
        best = oracle_cost(costs, start, goal)
        if best is None:
            continue
        weighted = m.find_path(start, goal, weight=1.5)
        assert best - 1e-9 <= weighted.cost <= 1.5 * best + 1e-9
        assert weighted.optimality == "≤ 1.5 × optimal" and not weighted.exact
        theta = m.find_path(start, goal, algorithm="theta")
        assert theta.cost <= best + 1e-9 and theta.waypoints is not None


def test_batches_answer_like_single_searches_on_every_thread_count():
    costs = random_costs(11, shape=(40, 50))
    m = gridpath.Map.from_numpy(costs)
    pairs = passable_pairs(costs, 11, 40)
    single = [m.find_path(s, g) for s, g in pairs]
    for jobs in (None, 1, 2, 3):
        batch = m.find_paths(pairs, jobs=jobs)
        assert len(batch) == len(pairs)
        for one, many in zip(single, batch):
            assert (one.found, one.cost) == (many.found, many.cost)
            np.testing.assert_array_equal(one.cells, many.cells)
    flat = np.array([[s[0], s[1], g[0], g[1]] for s, g in pairs])
    assert [p.cost for p in m.find_paths(flat)] == [p.cost for p in single]
    assert m.find_paths([]) == []


def test_hpa_and_ch_batches_build_once_and_answer():
    costs = random_costs(2, shape=(48, 48), walls=0.1, values=(1.0,))
    m = gridpath.Map.from_numpy(costs)
    pairs = passable_pairs(costs, 2, 12)
    exact = [m.find_path(s, g).cost for s, g in pairs]
    ch = m.find_paths(pairs, algorithm="ch")
    assert [p.cost for p in ch] == pytest.approx(exact, rel=1e-9)
    hpa = m.find_paths(pairs, algorithm="hpa")
    for path, best in zip(hpa, exact):
        assert path.found and path.cost >= best - 1e-9


def test_the_hierarchy_is_kept_per_diagonal_rule_and_answers_exactly():
    # One map, queries taking turns between the rules: each rule's hierarchy is built by its
    # first query and kept for the next, and every answer is the oracle's.
    costs = random_costs(7, shape=(30, 36), walls=0.2)
    m = gridpath.Map.from_numpy(costs)
    pairs = passable_pairs(costs, 7, 8)
    for start, goal in pairs:
        for diagonal in gridpath.DIAGONALS:
            expected = oracle_cost(costs, start, goal, diagonal)
            path = m.find_path(start, goal, algorithm="ch", diagonal=diagonal)
            assert path.found == (expected is not None), (start, goal, diagonal)
            if expected is not None:
                assert path.cost == pytest.approx(expected, rel=1e-9), (start, goal, diagonal)
                assert path.exact and tuple(path.cells[-1]) == goal
                assert path.stats["prepared_bytes"] > 0
    # An end on a wall or off the map is refused as before, whether or not a hierarchy is kept.
    wall = tuple(int(v) for v in np.argwhere(~np.isfinite(costs))[0][::-1])
    with pytest.raises(gridpath.SearchError, match="blocked|wall|impassable"):
        m.find_path(pairs[0][0], wall, algorithm="ch")
    with pytest.raises(gridpath.SearchError):
        m.find_path(pairs[0][0], (500, 500), algorithm="ch", diagonal="never")


def test_routes_turns_units_and_partial_paths():
    costs = np.ones((10, 10))
    costs[2:8, 5] = np.inf
    m = gridpath.Map.from_numpy(costs)
    route = m.find_path((0, 0), (9, 9), via=[(9, 0), (0, 9)])
    assert route.order == [(0, 0), (9, 0), (0, 9), (9, 9)]
    cells = [tuple(c) for c in route.cells]
    assert (9, 0) in cells and (0, 9) in cells
    cheapest = m.find_path((0, 0), (9, 9), via=[(0, 9), (9, 0)], best_order=True)
    assert cheapest.cost <= route.cost + 1e-9
    plain = m.find_path((0, 4), (9, 4))
    turned = m.find_path((0, 4), (9, 4), turn_penalty=2.0)
    assert turned.cost >= plain.cost
    big = m.find_path((0, 0), (8, 8), unit_size=2)
    assert big.found
    walled = costs.copy()
    walled[:, 5] = np.inf
    w = gridpath.Map.from_numpy(walled)
    assert not w.find_path((0, 0), (9, 9)).found
    partial = w.find_path((0, 0), (9, 9), partial=True)
    assert not partial.found and partial.reached == (4, 9)
    assert tuple(partial.cells[-1]) == (4, 9)


def test_smoothing_and_recording_give_arrays():
    costs = np.ones((12, 20))
    costs[3:12, 8] = np.inf
    m = gridpath.Map.from_numpy(costs, resolution=0.5, origin=(10.0, 20.0, 0.0))
    path = m.find_path((1, 10), (18, 10), smooth=True, record=True, spacing=0.5)
    samples = path.samples
    assert samples.ndim == 2 and samples.shape[1] == 4
    assert np.all(np.diff(samples[:, 3]) > 0)
    assert samples[0, :2] == pytest.approx([1.5, 10.5])
    world = path.world_samples
    assert world.shape == samples.shape
    # The world frame: metres, y up from the lower-left corner.
    assert world[0, 0] == pytest.approx(10.0 + 1.5 * 0.5)
    assert world[0, 1] == pytest.approx(20.0 + (12 - 10.5) * 0.5)
    assert path.smoothed["curve_length"] > 0 and path.smooth_waypoints.shape[1] == 2
    explored = path.explored
    assert explored.shape[1] == 2 and len(explored) == path.stats["expanded"]
    plain = gridpath.Map.from_numpy(costs).find_path((1, 10), (18, 10), smooth=True)
    assert plain.world_samples is None and plain.explored is None


def test_flow_fields_agree_with_searches():
    costs = random_costs(4)
    m = gridpath.Map.from_numpy(costs)
    free = np.argwhere(np.isfinite(costs))
    goal = (int(free[0][1]), int(free[0][0]))
    field = m.flow_field(goal)
    assert field.cost.shape == costs.shape and field.next.shape == costs.shape + (2,)
    assert field.cost[goal[1], goal[0]] == 0.0 and field.goal == goal
    for start, _ in passable_pairs(costs, 4, 10):
        path = m.find_path(start, goal)
        assert field.cost[start[1], start[0]] == pytest.approx(path.cost if path.found else np.inf)
        if path.found:
            walked = field.path_from(start)
            assert tuple(walked[-1]) == goal
    assert field.reachable == int(np.isfinite(field.cost).sum())


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"algorithm": "quantum"}, gridpath.ArgumentError, "unknown algorithm"),
        ({"diagonal": "sideways"}, gridpath.ArgumentError, "unknown diagonal"),
        ({"heuristic": "guess"}, gridpath.ArgumentError, "unknown heuristic"),
        ({"weight": 0.5}, gridpath.ArgumentError, "weight"),
        ({"weight": float("nan")}, gridpath.ArgumentError, "weight"),
        ({"turn_penalty": -1.0}, gridpath.ArgumentError, "turn_penalty"),
        ({"unit_size": 0}, gridpath.ArgumentError, "unit_size"),
        ({"smooth": True, "tension": 2.0}, gridpath.ArgumentError, "tension"),
        ({"goal": (99, 0)}, gridpath.SearchError, "outside"),
        ({"goal": (3, 0)}, gridpath.SearchError, "impassable"),
        ({"goal": (-1, 0)}, gridpath.ArgumentError, "cell"),
        ({"goal": (1.5, 0)}, gridpath.ArgumentError, "cell"),
        ({"goal": "0,0"}, gridpath.ArgumentError, "cell"),
        ({"algorithm": "jps", "diagonal": "always"}, gridpath.SearchError, "no-cut"),
        ({"algorithm": "jps", "goal": (2, 0)}, gridpath.SearchError, "costs the same"),
    ],
)
def test_bad_requests_raise_gridpath_errors(kwargs, error, words):
    m = gridpath.Map.from_numpy([[1.0, 1.0, 2.0, np.inf], [1.0, 1.0, 1.0, 1.0]])
    args = {"start": (0, 0), "goal": (1, 1), **kwargs}
    with pytest.raises(error) as caught:
        m.find_path(args.pop("start"), args.pop("goal"), **args)
    assert words in str(caught.value)
    assert isinstance(caught.value, gridpath.Error)


def test_an_endpoint_error_names_the_cell_as_its_place():
    m = gridpath.Map.from_numpy([[1.0, np.inf]])
    with pytest.raises(gridpath.SearchError) as caught:
        m.find_path((0, 0), (1, 0))
    assert caught.value.place == "goal (1, 0)" and caught.value.file is None
    with pytest.raises(gridpath.ArgumentError, match="no start"):
        m.find_path()
    with pytest.raises(gridpath.SearchError, match="pair 1"):
        m.find_paths([((0, 0), (0, 0)), ((0, 0), (1, 0))])
    with pytest.raises(gridpath.ArgumentError, match="shape"):
        m.find_paths([[1, 2, 3]])
