"""Paths a robot can drive: `Map.drive`, its samples checked here for clearance and turning
radius by code of the test's own."""

import math

import numpy as np
import pytest

import gridpath


def room_with_a_wall():
    costs = np.ones((9, 20))
    costs[4, 0:13] = np.inf  # a wall across most of the room
    return gridpath.Map.from_numpy(costs), costs


def wall_distance(costs, x, y):
    h, w = costs.shape
    best = math.inf
    for cy in range(int(y) - 3, int(y) + 4):
        for cx in range(int(x) - 3, int(x) + 4):
            if 0 <= cx < w and 0 <= cy < h and np.isfinite(costs[cy, cx]):
                continue
            dx = max(cx - x, x - (cx + 1), 0.0)
            dy = max(cy - y, y - (cy + 1), 0.0)
            best = min(best, math.hypot(dx, dy))
    return best


def test_a_drive_round_the_wall_keeps_the_body_and_the_turns():
    room, costs = room_with_a_wall()
    drive = room.drive((2.0, 2.0), (2.0, 7.0), robot_radius=0.6, turning_radius=1.5,
                       start_yaw=0, goal_yaw=180)
    assert drive, drive.reason
    s = drive.samples
    assert s.shape[1] == 3 and len(s) > 20
    assert np.allclose(s[0, :2], [2.0, 2.0]) and np.allclose(s[-1, :2], [2.0, 7.0])
    # Clearance at every sample and chord middle, from the costs alone.
    mids = (s[1:, :2] + s[:-1, :2]) / 2
    least = min(wall_distance(costs, x, y) for x, y in np.vstack([s[:, :2], mids]))
    assert least >= 0.6 - 0.25**2 / (8 * 1.5) - 1e-9
    # The circle through every three samples is no tighter than the turning radius.
    for a, b, c in zip(s[:-2, :2], s[1:-1, :2], s[2:, :2]):
        cross = abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
        if cross > 1e-12:
            r = (np.linalg.norm(a - b) * np.linalg.norm(b - c) * np.linalg.norm(c - a)) / (2 * cross)
            assert r >= 1.5 * (1 - 1e-6)
    assert drive.length > 25.0, "round the wall's end"
    assert sum(p[2] for p in drive.pieces) == pytest.approx(drive.length)


def test_a_body_too_wide_gets_no_drive_and_hears_where():
    costs = np.ones((13, 20))
    costs[6, :] = np.inf
    costs[6, 9:11] = 1.0  # a door two cells wide
    door = gridpath.Map.from_numpy(costs)
    fits = door.drive((10.0, 2.5), (10.0, 10.5), robot_radius=0.9, turning_radius=2.0,
                      start_yaw=-90, goal_yaw=-90)
    assert fits, fits.reason
    wide = door.drive((10.0, 2.5), (10.0, 10.5), robot_radius=1.1, turning_radius=2.0)
    assert not wide and "no drive" in wide.reason
    (x, y), room = wide.narrowest
    assert room == pytest.approx(1.0) and y == 6


def test_bad_arguments_are_argument_errors():
    room, _ = room_with_a_wall()
    with pytest.raises(gridpath.ArgumentError):
        room.drive((2.0, 2.0), (2.0, 7.0), turning_radius=0)
    with pytest.raises(gridpath.ArgumentError):
        room.drive((2.0, 2.0, 3.0), (2.0, 7.0))
    with pytest.raises(gridpath.ArgumentError):
        room.drive((-5.0, 2.0), (2.0, 7.0))


def test_a_car_that_may_reverse_backs_out_of_a_dead_end():
    costs = np.full((3, 13), np.inf)
    costs[1, 0:12] = 1.0
    lane = gridpath.Map.from_numpy(costs)
    ahead = lane.drive((9.5, 1.5), (2.5, 1.5), robot_radius=0.3, turning_radius=1.0,
                       start_yaw=0, goal_yaw=0)
    assert not ahead
    back = lane.drive((9.5, 1.5), (2.5, 1.5), robot_radius=0.3, turning_radius=1.0,
                      start_yaw=0, goal_yaw=0, motion="reeds-shepp")
    assert back and back.length == pytest.approx(7.0)
    assert all(gear == "reverse" for _, gear, _ in back.pieces)
    with pytest.raises(gridpath.ArgumentError):
        lane.drive((9.5, 1.5), (2.5, 1.5), motion="tank")


def test_an_inflation_keeps_the_drive_off_the_wall():
    hall = gridpath.Map.from_numpy(np.ones((9, 31)))
    ask = dict(robot_radius=0.5, turning_radius=2.0, start_yaw=0, goal_yaw=0)
    plain = hall.drive((2.5, 1.5), (28.5, 1.5), **ask)
    kept = hall.drive((2.5, 1.5), (28.5, 1.5), inflation_radius=4.0, cost_scaling_factor=1.0, **ask)
    assert plain.samples[len(plain.samples) // 2][1] == pytest.approx(1.5)
    assert kept.samples[len(kept.samples) // 2][1] > 3.0
    assert kept.cost >= kept.length > plain.length == pytest.approx(plain.cost)
    with pytest.raises(gridpath.ArgumentError):
        hall.drive((2.5, 1.5), (28.5, 1.5), inflation_radius=-1.0)
