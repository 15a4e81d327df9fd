"""Units in motion: `Map.crowd`, its positions checked here for overlap and walls by code of
the test's own."""

import numpy as np
import pytest

import gridpath


def open_room():
    costs = np.ones((10, 14))
    costs[4:6, 6:8] = np.inf  # a pillar in the middle
    return gridpath.Map.from_numpy(costs), costs


def test_a_crowd_crossing_a_room_keeps_apart_and_out_of_the_pillar():
    room, costs = open_room()
    starts = [(0, y) for y in range(1, 9, 2)] + [(13, y) for y in range(1, 9, 2)]
    goals = [(13, 9 - y) for _, y in starts[:4]] + [(0, 9 - y) for _, y in starts[4:]]
    run = room.crowd(starts, goals, radius=0.35, speed=2.0)
    assert run.all_arrived, run
    pos = run.positions
    steps, units, two = pos.shape
    assert (units, two) == (8, 2) and steps > 5
    assert np.allclose(pos[0], np.array(starts) + 0.5)
    assert np.allclose(pos[-1], np.array(goals) + 0.5, atol=0.25 * 0.35)
    # Every pair apart at every step.
    for t in range(steps):
        d = np.linalg.norm(pos[t][:, None, :] - pos[t][None, :, :], axis=2)
        d[np.diag_indices(units)] = np.inf
        assert d.min() >= 0.7 - 1e-6, f"discs overlap at step {t}"
    # No disc reaches into a wall cell or off the map.
    h, w = costs.shape
    for x, y in pos.reshape(-1, 2):
        for cy in range(int(y) - 1, int(y) + 2):
            for cx in range(int(x) - 1, int(x) + 2):
                if 0 <= cx < w and 0 <= cy < h and np.isfinite(costs[cy, cx]):
                    continue
                dx = max(cx - x, x - (cx + 1), 0.0)
                dy = max(cy - y, y - (cy + 1), 0.0)
                assert np.hypot(dx, dy) >= 0.35 - 1e-6, (x, y, cx, cy)
    assert run.least_separation >= 1.0 - 1e-9
    assert all(t is not None and 0 < t <= run.time for t in run.arrival_times)


def test_bad_crowds_are_argument_errors():
    room, _ = open_room()
    with pytest.raises(gridpath.ArgumentError, match="radius"):
        room.crowd([(0, 0)], [(5, 5)], radius=0)
    with pytest.raises(gridpath.ArgumentTypeError):
        room.crowd([(0, 0)], [(5, 5)], speed="fast")
    with pytest.raises(gridpath.ArgumentError, match="too near"):
        room.crowd([(0, 0)], [(5, 5)], radius=0.8)
    with pytest.raises(gridpath.ArgumentError, match="one goal per start"):
        room.crowd([(0, 0), (1, 0)], [(5, 5)])
    with pytest.raises(gridpath.ArgumentError, match="positions"):
        room.crowd([(0, 0)], [(5, 5)], dt=1e-6, max_time=1e6)
