"""The package's surface: the stubs name what the module has, everything public has a
docstring, and every algorithm answers from Python as it does on the command line."""

import ast
import inspect
import subprocess
import json

import numpy as np
import pytest

import gridpath
from conftest import ROOT, oracle_cost

STUB = ROOT / "python" / "gridpath" / "_core.pyi"


def stub_tree():
    return ast.parse(STUB.read_text())


def test_the_stubs_and_the_module_name_the_same_things():
    tree = stub_tree()
    stubbed = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            stubbed.add(node.name)
            cls = getattr(gridpath, node.name)
            members = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            for name in members:
                assert hasattr(cls, name), f"{node.name}.{name} is in the stubs only"
            public = {n for n in vars(cls) if not n.startswith("_")}
            assert public <= members | {"file", "place"}, f"{node.name}: {public - members} lack stubs"
        elif isinstance(node, ast.FunctionDef):
            stubbed.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            stubbed.add(node.target.id)
    exported = set(gridpath.__all__)
    assert exported <= stubbed, exported - stubbed


def test_everything_public_has_a_docstring():
    for name in gridpath.__all__:
        item = getattr(gridpath, name)
        if not (inspect.isclass(item) or callable(item)):
            continue
        assert (item.__doc__ or "").strip(), name
        if inspect.isclass(item) and not issubclass(item, BaseException):
            for member, value in vars(item).items():
                if not member.startswith("_"):
                    assert (value.__doc__ or "").strip(), f"{name}.{member}"


def uniform_map(seed):
    rng = np.random.default_rng(seed)
    costs = np.ones((40, 48))
    costs[rng.random(costs.shape) < 0.2] = np.inf
    return costs


@pytest.mark.parametrize("algorithm", gridpath.ALGORITHMS)
def test_every_algorithm_answers_as_the_command_line_does(cli, tmp_path, algorithm):
    costs = uniform_map(1)
    m = gridpath.Map.from_numpy(costs)
    path_file = tmp_path / "uniform.map"
    m.save(path_file)
    m = gridpath.Map.load(path_file)
    free = np.argwhere(np.isfinite(costs))
    rng = np.random.default_rng(len(algorithm))
    for _ in range(3):
        (sy, sx), (gy, gx) = free[rng.integers(len(free), size=2)]
        out = subprocess.run(
            [str(cli), "solve", str(path_file), "--from", f"{sx},{sy}", "--to", f"{gx},{gy}",
             "--algo", algorithm, "--json"],
            capture_output=True, text=True,
        )
        assert out.returncode in (0, 2), out.stderr
        expected = json.loads(out.stdout)
        path = m.find_path((int(sx), int(sy)), (int(gx), int(gy)), algorithm=algorithm)
        assert (path.found, path.cost, path.cells.tolist()) == (
            expected["found"], expected["cost"], expected["path"]
        )
        assert path.optimality == expected["optimality"]
        best = oracle_cost(costs, (int(sx), int(sy)), (int(gx), int(gy)))
        if path.exact:
            assert path.cost == pytest.approx(best, rel=1e-9)
        elif path.found:
            assert path.cost >= best - 1e-9 or path.optimality.startswith("any-angle")
