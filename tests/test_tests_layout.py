"""The tests' own layout: a test module never imports another `test_*` module (what tests share
lives in `tests/helpers/` or a `conftest.py` fixture), so a test module can be moved, renamed or
run alone without breaking another, and collecting one module never collects a second's tests
under a new name."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

from tests.helpers import durations
from tests.paths import REPO

TESTS = REPO / "tests"


def _imported_modules(tree: ast.AST, package: str) -> list[tuple[int, str]]:
    """(line, dotted name) of every module an import statement names, relative imports resolved
    against `package`; for `from M import a, b` both M and M.a, M.b (a may be a module)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return found


def test_no_test_module_imports_another_test_module():
    """Every `test_*` module a test file imports is reported as file:line and module."""
    bad = []
    for path in sorted(TESTS.rglob("*.py")):
        rel = path.relative_to(REPO)
        package = ".".join(rel.parent.parts)
        for line, name in _imported_modules(ast.parse(path.read_text(encoding="utf-8")), package):
            parts = name.split(".")
            if parts[0] == "tests" and any(p.startswith("test_") for p in parts):
                bad.append(f"{rel}:{line}: imports {name}")
    assert not bad, "move what is shared to tests/helpers/ or a conftest.py fixture:\n" + "\n".join(bad)


def test_the_import_check_sees_absolute_relative_and_from_imports():
    src = ("import tests.logic.test_a\nfrom tests.logic.test_b import x\nfrom . import test_c\n"
           "from .test_d import y\nfrom tests.helpers import equivalence\n")
    names = [n for _, n in _imported_modules(ast.parse(src), "tests.logic")]
    flagged = {n for n in names if n.startswith("tests.") and any(p.startswith("test_") for p in n.split("."))}
    assert {"tests.logic.test_a", "tests.logic.test_b", "tests.logic.test_c", "tests.logic.test_d"} <= flagged
    assert not any("helpers" in n for n in flagged)


def test_the_durations_file_lists_the_slowest_phases_and_modules_with_the_wall_time(tmp_path):
    """What .ci/run prints: slowest first, each phase with its node id; modules summed; the outcome."""
    def rep(nodeid, when, duration, outcome="passed"):
        return SimpleNamespace(nodeid=nodeid, when=when, duration=duration, outcome=outcome)

    one, two = "tests/a/test_x.py::test_one", "tests/b/test_y.py::test_two"
    stats = {"passed": [rep(one, "call", 3.0), rep(two, "call", 1.0)],
             "failed": [rep("tests/b/test_y.py::test_three", "call", 0.5)],
             "": [rep(one, "setup", 7.25), rep(two, "teardown", 0.0)]}
    durations.write(tmp_path / "out" / "d.txt", stats, started=0.0, exitstatus=1, args=["-q"])
    text = (tmp_path / "out" / "d.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "pytest -q" and "exit status 1, 2 passed, 1 failed" in lines[1] and "wall time" in lines[1]
    slowest = lines[lines.index("slowest 25 (setup/call/teardown):") + 1:][:3]
    assert [s.split()[1:] for s in slowest] == [["setup", "tests/a/test_x.py::test_one"],
                                                 ["call", "tests/a/test_x.py::test_one"],
                                                 ["call", "tests/b/test_y.py::test_two"]]
    assert "   10.25s tests/a/test_x.py" in text and "    1.50s tests/b/test_y.py" in text
