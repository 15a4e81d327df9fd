"""The examples of docs/python.md and the README run as written."""

import re
import shlex
import subprocess
import sys

from conftest import ROOT

DOC = ROOT / "docs" / "python.md"


def blocks(text, language):
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def test_the_one_line_example_runs_as_written_and_prints_what_the_doc_says():
    text = DOC.read_text()
    lines = [l for b in blocks(text, "sh") for l in b.splitlines() if l.startswith('python -c "import gridpath')]
    assert len(lines) == 1, lines
    args = shlex.split(lines[0])
    out = subprocess.run([sys.executable, *args[1:]], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    printed = out.stdout.strip()
    assert f"prints `{printed}`" in text, printed


def test_the_python_examples_of_the_docs_run():
    for source in [DOC, ROOT / "README.md"]:
        for code in blocks(source.read_text(), "python"):
            # Other examples of the README are not this package's; the scenario example needs
            # the shared benchmark maps, and test_movingai runs scenarios.
            if "import gridpath" not in code or "den520d" in code:
                continue
            out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
            assert out.returncode == 0, (source.name, code, out.stderr)
