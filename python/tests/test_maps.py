"""Maps: numpy round trips, every file format the command line reads, saving, bad input."""

import math

import numpy as np
import pytest

import gridpath
from conftest import CORPUS, ROOT


def test_a_cost_array_comes_back_unchanged():
    rng = np.random.default_rng(7)
    costs = rng.choice([0.5, 1.0, 2.25, 7.0, np.inf], size=(13, 29))
    m = gridpath.Map.from_numpy(costs)
    assert m.shape == (13, 29) and (m.width, m.height) == (29, 13)
    back = m.to_numpy()
    assert back.dtype == np.float64 and back.shape == costs.shape
    np.testing.assert_array_equal(back, costs)
    # nan is impassable too, and comes back as inf.
    costs[0, 0] = np.nan
    assert math.isinf(gridpath.Map.from_numpy(costs).to_numpy()[0, 0])
    # A second round trip through the map keeps every cost.
    np.testing.assert_array_equal(gridpath.Map.from_numpy(back).to_numpy(), back)


def test_integer_and_list_inputs_are_cast_to_costs():
    m = gridpath.Map.from_numpy([[1, 2, 3], [1, 1, 1]])
    np.testing.assert_array_equal(m.to_numpy(), [[1, 2, 3], [1, 1, 1]])
    assert sorted(t["cost"] for t in m.terrains if t["cost"]) == [1.0, 2.0, 3.0]


def test_names_heights_frame_and_endpoints_are_kept():
    costs = np.array([[1.0, 3.0], [np.inf, 1.0]])
    heights = np.array([[0.0, 1.5], [2.0, -1.0]])
    m = gridpath.Map.from_numpy(
        costs,
        heights,
        {1.0: "floor", 3.0: "mud", None: "rock"},
        name="yard",
        resolution=0.05,
        origin=(1.0, -2.0, 0.0),
        start=(0, 0),
        goal=(1, 1),
    )
    names = {t["name"] for t in m.terrains}
    assert names == {"floor", "mud", "rock"}
    np.testing.assert_array_equal(m.heights, heights.astype(np.float32))
    assert m.resolution == 0.05 and m.origin == (1.0, -2.0, 0.0)
    assert (m.start, m.goal, m.name) == ((0, 0), (1, 1), "yard")
    ids = m.terrain_ids()
    assert ids.dtype == np.uint8 and m.terrains[ids[1, 0]]["cost"] is None


def test_saved_maps_load_back_with_the_same_costs(tmp_path):
    rng = np.random.default_rng(3)
    costs = rng.choice([1.0, 2.0, np.inf], size=(9, 17))
    m = gridpath.Map.from_numpy(costs, name="round")
    for ext in ["json", "map", "tmj", "tmx"]:
        path = tmp_path / f"round.{ext}"
        m.save(path)
        back = gridpath.Map.load(path)
        passable = np.isfinite(back.to_numpy())
        np.testing.assert_array_equal(passable, np.isfinite(costs), err_msg=ext)
        if ext in ("json", "tmj", "tmx"):
            np.testing.assert_array_equal(back.to_numpy(), costs, err_msg=ext)
    # A ROS map keeps the occupancy and the world frame.
    m.save(tmp_path / "round.yaml", resolution=0.1, origin=(2.0, 3.0, 0.0))
    ros = gridpath.Map.load(tmp_path / "round.yaml")
    assert ros.resolution == pytest.approx(0.1) and ros.origin == pytest.approx((2.0, 3.0, 0.0))
    np.testing.assert_array_equal(np.isfinite(ros.to_numpy()), np.isfinite(costs))
    m.save(tmp_path / "round.png")
    assert (tmp_path / "round.png").stat().st_size > 0


@pytest.mark.parametrize(
    "relative",
    [
        "maps/default.json",
        "tests/corpus/map/octile.map",
        "tests/corpus/map/crlf.map",
        "tests/corpus/level/default.tmx",
        "tests/corpus/level/default.tmj",
        "tests/corpus/level/two-levels.ldtk",
        "tests/corpus/image/grey.png",
        "tests/corpus/image/small.bmp",
    ],
)
def test_every_format_the_command_line_reads_loads(relative):
    m = gridpath.Map.load(ROOT / relative)
    assert m.width >= 1 and m.height >= 1
    assert m.to_numpy().shape == (m.height, m.width)


def test_level_and_layer_options_choose_the_level():
    project = CORPUS / "level" / "two-levels.ldtk"
    first = gridpath.Map.load(project)
    with pytest.raises(gridpath.FileError) as caught:
        gridpath.Map.load(project, level="No such level")
    assert caught.value.file is not None and "No such level" in str(caught.value)
    with pytest.raises(gridpath.ArgumentError):
        gridpath.Map.load(ROOT / "maps/default.json", layer="walls")
    assert first.width >= 1


def test_a_malformed_map_names_the_file_and_place(tmp_path):
    bad = tmp_path / "bad.map"
    bad.write_text("type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n")
    with pytest.raises(gridpath.FileError) as caught:
        gridpath.Map.load(bad)
    err = caught.value
    assert isinstance(err, gridpath.Error)
    assert err.file == str(bad)
    assert err.place is not None and "row 1" in err.place and "column 1" in err.place
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "gridpath-map",\n  "width": ]')
    with pytest.raises(gridpath.FileError) as caught:
        gridpath.Map.load(broken)
    assert caught.value.place.startswith("line 2")


def test_missing_and_unknown_files_are_file_errors(tmp_path):
    with pytest.raises(gridpath.FileError) as caught:
        gridpath.Map.load(tmp_path / "missing.json")
    assert "missing.json" in str(caught.value)
    with pytest.raises(gridpath.FileError):
        gridpath.Map.load(tmp_path / "notes.txt")
    with pytest.raises(gridpath.FileError):
        gridpath.Map.from_numpy(np.ones((2, 2))).save(tmp_path / "out.ldtk")


@pytest.mark.parametrize(
    "costs, words",
    [
        (np.ones((2, 2, 2)), "2-D"),
        (np.zeros((0, 4)), "between 1 and"),
        (np.array([[1.0, -2.0]]), "cell (1, 0)"),
        (np.array([[1.0, 0.0]]), "cell (1, 0)"),
        (np.array([[1.0, 1e7]]), "cell (1, 0)"),
        (np.arange(1, 301, dtype=float).reshape(10, 30), "255 distinct"),
        ([["a", "b"]], "2-D array of numbers"),
    ],
)
def test_bad_arrays_are_map_errors(costs, words):
    with pytest.raises(gridpath.MapError) as caught:
        gridpath.Map.from_numpy(costs)
    assert words in str(caught.value)


def test_bad_heights_and_frames_are_refused():
    with pytest.raises(gridpath.MapError, match="same shape"):
        gridpath.Map.from_numpy(np.ones((2, 2)), np.ones((3, 2)))
    with pytest.raises(gridpath.MapError, match="heights"):
        gridpath.Map.from_numpy(np.ones((1, 2)), np.array([[0.0, np.nan]]))
    with pytest.raises(gridpath.ArgumentError, match="resolution"):
        gridpath.Map.from_numpy(np.ones((2, 2)), resolution=-1.0)
    with pytest.raises(gridpath.MapError, match="outside"):
        gridpath.Map.from_numpy(np.ones((2, 2)), start=(5, 0))
