"""Every public argument of the package, given a bad value: each is refused with a
`gridpath.ArgumentError` whose message names the argument and the value it got, as the
command line refuses the same values. An `ArgumentError` is a `ValueError`; one for an
argument of the wrong type (None for a name, a string for a number, a float for a cell) is an
`ArgumentTypeError`, which is a `TypeError` too. Nothing is truncated, wrapped or accepted in
silence."""

import math

import numpy as np
import pytest

import gridpath
from conftest import ROOT

TYPE = "type"
VALUE = "value"


def small_map():
    return gridpath.Map.from_numpy(np.ones((8, 8)), start=(0, 0), goal=(7, 7))


def refused(call, kind, *words):
    """Runs `call`, which must raise an ArgumentError of `kind` whose message holds `words`."""
    with pytest.raises(gridpath.ArgumentError) as caught:
        call()
    err = caught.value
    message = str(err)
    assert isinstance(err, gridpath.Error) and isinstance(err, ValueError), type(err)
    assert isinstance(err, TypeError) == (kind == TYPE), (type(err).__mro__, message)
    assert isinstance(err, gridpath.ArgumentTypeError) == (kind == TYPE), message
    for word in words:
        assert word in message, (word, message)
    # A wrapped integer is never shown for a value that was given.
    assert "9223372036854775808" not in message, message
    return err


def test_argument_errors_are_value_errors_and_type_errors_by_python_convention():
    assert issubclass(gridpath.ArgumentError, gridpath.Error)
    assert issubclass(gridpath.ArgumentError, ValueError)
    assert not issubclass(gridpath.ArgumentError, TypeError)
    assert issubclass(gridpath.ArgumentTypeError, gridpath.ArgumentError)
    assert issubclass(gridpath.ArgumentTypeError, TypeError)
    assert gridpath.ArgumentError.__module__ == "gridpath"
    assert gridpath.ArgumentTypeError.__module__ == "gridpath"
    assert "wrong type" in gridpath.ArgumentTypeError.__doc__
    # Caught either way, with the gridpath attributes.
    m = small_map()
    try:
        m.find_path(weight=0.5)
    except ValueError as err:
        assert err.file is None and err.place is None
    try:
        m.find_path(algorithm=None)
    except TypeError as err:
        assert isinstance(err, gridpath.Error) and err.file is None


@pytest.mark.parametrize(
    "pairs, shown",
    [
        (np.array([[0.5, 0.5, 7.9, 7.9]]), "(0.5, 0.5)"),
        (np.array([[-0.5, 0, 7, 7]]), "(-0.5, 0)"),
        (np.array([[0, 0, 7.5, 7]]), "(7.5, 7)"),
        (np.array([[math.nan, 0, 7, 7]]), "(nan, 0)"),
        (np.array([[1e30, 0, 7, 7]]), "(1e+30, 0)"),
        (np.array([[0, -math.inf, 7, 7]]), "(0, -inf)"),
        (np.array([[0, 0, 7, 7], [0, 0, 2**32, 7]]), "(4294967296, 7)"),
        ([((0, 0), (7, -1))], "(7, -1)"),
        ([((0, 0), (7, 2**70))], "(7, 1180591620717411303424)"),
    ],
)
def test_find_paths_refuses_what_find_path_refuses(pairs, shown):
    m = small_map()
    err = refused(lambda: m.find_paths(pairs), VALUE, "pairs", shown)
    index = 1 if len(pairs) == 2 else 0
    assert f"pair {index}" in str(err)


def test_find_paths_still_takes_whole_numbers_of_any_dtype():
    m = small_map()
    for pairs in [
        np.array([[0, 0, 7, 7]], dtype=np.uint8),
        np.array([[0.0, 0.0, 7.0, 7.0]]),
        np.array([[[0, 0], [7, 7]]], dtype=np.int64),
        [((0, 0), (7, 7))],
    ]:
        (path,) = m.find_paths(pairs)
        assert path.found and path.start == (0, 0) and path.goal == (7, 7)
    assert m.find_paths([]) == []


FIND_PATH = [
    ({"algorithm": None}, TYPE, "algorithm", "None"),
    ({"algorithm": 3}, TYPE, "algorithm", "3"),
    ({"diagonal": None}, TYPE, "diagonal", "None"),
    ({"heuristic": 5}, TYPE, "heuristic", "5"),
    ({"weight": "heavy"}, TYPE, "weight", "'heavy'"),
    ({"weight": math.inf}, VALUE, "weight", "inf"),
    ({"weight": 1e30}, VALUE, "weight", "1e+30"),
    ({"turn_penalty": math.nan}, VALUE, "turn_penalty", "nan"),
    ({"turn_penalty": [1]}, TYPE, "turn_penalty", "[1]"),
    ({"unit_size": -1}, VALUE, "unit_size", "-1"),
    ({"unit_size": 2**70}, VALUE, "unit_size", str(2**70)),
    ({"unit_size": 65}, VALUE, "unit_size", "65"),
    ({"unit_size": 1.5}, TYPE, "unit_size", "1.5"),
    ({"unit_size": "2"}, TYPE, "unit_size", "'2'"),
    ({"best_order": "yes"}, TYPE, "best_order", "'yes'"),
    ({"patrol": 2}, TYPE, "patrol", "2"),
    ({"partial": "no"}, TYPE, "partial", "'no'"),
    ({"record": []}, TYPE, "record", "[]"),
    ({"smooth": "yes"}, TYPE, "smooth", "'yes'"),
    ({"smooth": True, "tension": math.nan}, VALUE, "tension", "nan"),
    ({"smooth": True, "clearance": -1.0}, VALUE, "clearance", "-1"),
    ({"smooth": True, "min_turn_radius": math.inf}, VALUE, "min_turn_radius", "inf"),
    ({"smooth": True, "spacing": 0.0}, VALUE, "spacing", "0"),
    ({"spacing": "fine"}, TYPE, "spacing", "'fine'"),
    ({"via": 5}, TYPE, "via", "5"),
    ({"via": [(1, 1), (-1, 0)]}, VALUE, "via[1]", "(-1, 0)"),
    ({"via": [(1, 1), (0.5, 0)]}, TYPE, "via[1]", "(0.5, 0)"),
    ({"start": (0.5, 0)}, TYPE, "start", "(0.5, 0)"),
    ({"start": (math.nan, 0)}, TYPE, "start", "(nan, 0)"),
    ({"start": (2**70, 0)}, VALUE, "start", str(2**70)),
    ({"goal": (0, -1)}, VALUE, "goal", "(0, -1)"),
    ({"goal": "0,0"}, TYPE, "goal", "'0,0'"),
    ({"goal": (1, 2, 3)}, TYPE, "goal", "(1, 2, 3)"),
    ({"goal": np.array([0.5, 1.0])}, TYPE, "goal", "0.5"),
]


@pytest.mark.parametrize("kwargs, kind, name, shown", FIND_PATH)
def test_find_path_names_each_bad_argument_and_its_value(kwargs, kind, name, shown):
    m = small_map()
    refused(lambda: m.find_path(**kwargs), kind, name, shown)


FIND_PATHS = [
    ({"jobs": -1}, VALUE, "jobs", "-1"),
    ({"jobs": 0}, VALUE, "jobs", "0"),
    ({"jobs": 2**70}, VALUE, "jobs", str(2**70)),
    ({"jobs": 1.5}, TYPE, "jobs", "1.5"),
    ({"jobs": "2"}, TYPE, "jobs", "'2'"),
    ({"algorithm": None}, TYPE, "algorithm", "None"),
    ({"diagonal": 8}, TYPE, "diagonal", "8"),
    ({"heuristic": 1}, TYPE, "heuristic", "1"),
    ({"weight": math.nan}, VALUE, "weight", "nan"),
    ({"weight": None}, TYPE, "weight", "None"),
    ({"turn_penalty": -1}, VALUE, "turn_penalty", "-1"),
]


@pytest.mark.parametrize("kwargs, kind, name, shown", FIND_PATHS)
def test_find_paths_names_each_bad_argument_and_its_value(kwargs, kind, name, shown):
    m = small_map()
    refused(lambda: m.find_paths([((0, 0), (7, 7))], **kwargs), kind, name, shown)


def test_pairs_that_are_no_numbers_are_type_errors():
    m = small_map()
    refused(lambda: m.find_paths("abc"), TYPE, "pairs", "'abc'")
    refused(lambda: m.find_paths(None), TYPE, "pairs", "None")
    refused(lambda: m.find_paths([[1, 2, 3]]), VALUE, "pairs", "shape")


def test_a_flow_field_names_its_bad_arguments():
    m = small_map()
    refused(lambda: m.flow_field((1.5, 0)), TYPE, "goal", "1.5")
    refused(lambda: m.flow_field(diagonal=None), TYPE, "diagonal", "None")
    refused(lambda: m.flow_field(diagonal="sideways"), VALUE, "diagonal", "sideways")
    field = m.flow_field((7, 7))
    refused(lambda: field.path_from((-1, 0)), VALUE, "cell", "(-1, 0)")
    refused(lambda: field.path_from(None), TYPE, "cell", "None")


FROM_NUMPY = [
    ({"resolution": 0.05, "origin": (1, 2)}, VALUE, "origin", "(1, 2)"),
    ({"resolution": 0.05, "origin": "abc"}, TYPE, "origin", "'abc'"),
    ({"resolution": 0.05, "origin": (1, 2, "x")}, TYPE, "origin", "'x'"),
    ({"resolution": 0.05, "origin": (1, 2, math.nan)}, VALUE, "origin", "NaN"),
    ({"resolution": "fine"}, TYPE, "resolution", "'fine'"),
    ({"resolution": -1.0}, VALUE, "resolution", "-1"),
    ({"resolution": math.nan}, VALUE, "resolution", "NaN"),
    ({"name": 3}, TYPE, "name", "3"),
    ({"name": None}, TYPE, "name", "None"),
    ({"names": [1.0]}, TYPE, "names", "[1.0]"),
    ({"start": (0, -1)}, VALUE, "start", "(0, -1)"),
    ({"goal": (0.5, 1)}, TYPE, "goal", "(0.5, 1)"),
]


@pytest.mark.parametrize("kwargs, kind, name, shown", FROM_NUMPY)
def test_from_numpy_names_each_bad_argument_and_its_value(kwargs, kind, name, shown):
    refused(lambda: gridpath.Map.from_numpy(np.ones((4, 4)), **kwargs), kind, name, shown)


def test_save_names_each_bad_argument_and_its_value(tmp_path):
    m = small_map()
    ros = tmp_path / "out.yaml"
    refused(lambda: m.save(3), TYPE, "path", "3")
    refused(lambda: m.save(None), TYPE, "path", "None")
    refused(lambda: m.save(ros, resolution="x"), TYPE, "resolution", "'x'")
    refused(lambda: m.save(ros, resolution=0.05, origin=(1, 2)), VALUE, "origin", "(1, 2)")
    refused(lambda: m.save(ros, resolution=math.inf), VALUE, "resolution", "inf")
    assert not ros.exists()


def test_load_names_each_bad_argument_and_its_value():
    default = ROOT / "maps" / "default.json"
    image = ROOT / "python" / "tests" / "does-not-matter.png"
    refused(lambda: gridpath.Map.load(None), TYPE, "path", "None")
    refused(lambda: gridpath.Map.load(3), TYPE, "path", "3")
    refused(lambda: gridpath.Map.load(default, level=3), TYPE, "level", "3")
    refused(lambda: gridpath.Map.load(default, layer=b"walls"), TYPE, "layer", "b'walls'")
    refused(lambda: gridpath.Map.load(image, palette="yes"), TYPE, "palette", "'yes'")
    refused(lambda: gridpath.Map.load(image, negate=1), TYPE, "negate", "1")
    refused(lambda: gridpath.Map.load(image, threshold="x"), TYPE, "threshold", "'x'")
    refused(lambda: gridpath.Map.load(image, threshold=2), VALUE, "threshold", "2")
    refused(lambda: gridpath.Map.load(image, free_threshold=math.nan), VALUE, "free_threshold", "nan")
    refused(lambda: gridpath.Map.load(default, heights=5), TYPE, "heights", "5")
    refused(lambda: gridpath.Map.load(default, max_height=math.nan), VALUE, "max_height", "nan")
    refused(lambda: gridpath.Map.load(default, max_height="tall"), TYPE, "max_height", "'tall'")


def pocket_map():
    costs = np.full((2, 7), np.inf)
    costs[1, :] = 1.0
    costs[0, 3] = 1.0
    return gridpath.Map.from_numpy(costs)


SOLVE_TEAM = [
    ({"algorithm": None}, TYPE, "algorithm", "None"),
    ({"moves": -1}, VALUE, "moves", "-1"),
    ({"moves": 2**70}, VALUE, "moves", str(2**70)),
    ({"moves": 4.0}, TYPE, "moves", "4.0"),
    ({"time_limit": math.nan}, VALUE, "time_limit", "nan"),
    ({"time_limit": -1}, VALUE, "time_limit", "-1"),
    ({"time_limit": "10"}, TYPE, "time_limit", "'10'"),
    ({"weight": math.inf}, VALUE, "weight", "inf"),
    ({"weight": None}, TYPE, "weight", "None"),
    ({"anytime": "no"}, TYPE, "anytime", "'no'"),
]


@pytest.mark.parametrize("kwargs, kind, name, shown", SOLVE_TEAM)
def test_solve_team_names_each_bad_argument_and_its_value(kwargs, kind, name, shown):
    m = pocket_map()
    refused(lambda: m.solve_team([(0, 1)], [(6, 1)], **kwargs), kind, name, shown)


def test_a_team_needs_at_least_one_unit_as_on_the_command_line():
    m = pocket_map()
    refused(lambda: m.solve_team([], []), VALUE, "at least one", "starts")
    refused(lambda: m.solve_team(np.zeros((0, 2), dtype=int), np.zeros((0, 2), dtype=int)), VALUE, "at least one")
    refused(lambda: m.solve_team(5, [(6, 1)]), TYPE, "starts", "5")
    refused(lambda: m.solve_team([(0, 1)], None), TYPE, "goals", "None")
    refused(lambda: m.solve_team([(0, 1)], [(6.5, 1)]), TYPE, "goals[0]", "(6.5, 1)")


def test_team_from_scenario_names_its_bad_arguments_and_the_missing_file(tmp_path):
    m = pocket_map()
    scen = tmp_path / "team.scen"
    scen.write_text("version 1\n0\tpocket.map\t7\t2\t0\t1\t6\t1\t6\n")
    refused(lambda: m.team_from_scenario(scen, -1), VALUE, "agents", "-1")
    refused(lambda: m.team_from_scenario(scen, 0), VALUE, "agents", "0")
    refused(lambda: m.team_from_scenario(scen, 2**70), VALUE, "agents", str(2**70))
    refused(lambda: m.team_from_scenario(scen, 2.5), TYPE, "agents", "2.5")
    refused(lambda: m.team_from_scenario(None), TYPE, "scen", "None")
    missing = tmp_path / "missing.scen"
    with pytest.raises(gridpath.FileError) as caught:
        m.team_from_scenario(missing)
    assert str(missing) in str(caught.value) and caught.value.file == str(missing)
    assert m.team_from_scenario(scen, 1) == ([(0, 1)], [(6, 1)])


def test_run_scenario_names_each_bad_argument_and_its_value(tmp_path):
    m = small_map()
    scen = tmp_path / "none.scen"
    refused(lambda: gridpath.run_scenario(m, scen, jobs=-1), VALUE, "jobs", "-1")
    refused(lambda: gridpath.run_scenario(m, scen, jobs=0), VALUE, "jobs", "0")
    refused(lambda: gridpath.run_scenario(m, scen, jobs=1025), VALUE, "jobs", "1025")
    refused(lambda: gridpath.run_scenario(m, scen, jobs=1.0), TYPE, "jobs", "1.0")
    refused(lambda: gridpath.run_scenario(m, scen, limit=-1), VALUE, "limit", "-1")
    refused(lambda: gridpath.run_scenario(m, scen, limit="all"), TYPE, "limit", "'all'")
    refused(lambda: gridpath.run_scenario(m, scen, weight=math.nan), VALUE, "weight", "nan")
    refused(lambda: gridpath.run_scenario(m, scen, algorithm=None), TYPE, "algorithm", "None")
    refused(lambda: gridpath.run_scenario(m, scen, heuristic=2), TYPE, "heuristic", "2")
    refused(lambda: gridpath.run_scenario(3, scen), TYPE, "map", "3")
    refused(lambda: gridpath.run_scenario(m, None), TYPE, "scen", "None")


def stub_functions():
    """The functions and methods of the stubs with their parameters' names and defaults."""
    import ast

    tree = ast.parse((ROOT / "python" / "gridpath" / "_core.pyi").read_text())
    found = {}
    for node in tree.body:
        owner = gridpath
        members = [node]
        if isinstance(node, ast.ClassDef):
            owner = getattr(gridpath, node.name)
            members = node.body
        for member in members:
            if not isinstance(member, ast.FunctionDef) or member.name.startswith("_"):
                continue
            if any(isinstance(d, ast.Name) and d.id == "property" for d in member.decorator_list):
                continue
            a = member.args
            positional = a.posonlyargs + a.args
            defaults = [None] * (len(positional) - len(a.defaults)) + a.defaults
            params = [(p.arg, d) for p, d in zip(positional, defaults) if p.arg != "self"]
            params += list(zip((p.arg for p in a.kwonlyargs), a.kw_defaults))
            shown = [(name, None if d is None else ast.literal_eval(d)) for name, d in params]
            found[getattr(owner, member.name)] = shown
    return found


def test_the_signatures_python_shows_are_the_stubs():
    # The defaults Python shows are written out by hand (an argument left out and one given
    # as None are told apart); the stubs say the same, and the calls take them as given.
    import inspect

    functions = stub_functions()
    assert gridpath.Map.find_path in functions and gridpath.run_scenario in functions
    for function, params in functions.items():
        signature = inspect.signature(function)
        shown = [
            (p.name, None if p.default is inspect.Parameter.empty else p.default)
            for p in signature.parameters.values()
            if p.name != "self"
        ]
        assert shown == params, function.__name__
    m = small_map()
    keywords = {
        p.name: p.default
        for p in inspect.signature(gridpath.Map.find_path).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }
    given, left_out = m.find_path(**keywords), m.find_path()
    assert (given.cost, given.cells.tolist(), given.heuristic) == (
        left_out.cost, left_out.cells.tolist(), left_out.heuristic
    )
