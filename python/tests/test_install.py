"""Where the package under test comes from. CI builds a wheel, installs it into a fresh virtual
environment whose PATH has no Rust, and runs these tests there with GRIDPATH_EXPECT_WHEEL set
to the wheel's file: the package must then be that wheel's, in the environment's
site-packages, not the source tree's `python/gridpath`."""

import json
import os
import shutil
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest

import gridpath
from conftest import ROOT


@pytest.fixture
def wheel():
    given = os.environ.get("GRIDPATH_EXPECT_WHEEL")
    if not given:
        pytest.skip(
            "SKIPPED: GRIDPATH_EXPECT_WHEEL is not set (CI's wheel step sets it), so where "
            "gridpath was imported from was not checked"
        )
    return Path(given).resolve()


def test_the_package_is_the_installed_wheel_not_the_source_tree(wheel):
    package = Path(gridpath.__file__).resolve().parent
    site = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    assert package.parent in site, package
    assert sys.prefix != sys.base_prefix, "not in a virtual environment"
    assert Path(sys.prefix).resolve() in package.parents
    assert package != (ROOT / "python" / "gridpath").resolve()
    # The compiled extension beside it, from the same install.
    core = Path(gridpath._core.__file__).resolve()
    assert core.parent == package, core
    # Installed from the wheel's archive, not as an editable build of the source tree.
    dist = metadata.distribution("gridpath")
    origin = json.loads(dist.read_text("direct_url.json"))
    assert "archive_info" in origin and origin["url"].endswith(wheel.name), origin
    assert dist.version == gridpath.__version__


def test_no_rust_toolchain_is_on_the_path(wheel):
    assert shutil.which("cargo") is None and shutil.which("rustc") is None
    assert wheel.is_file()
