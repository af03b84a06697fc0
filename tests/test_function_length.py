"""No function in src/ambit is longer than 80 lines, from its `def` (decorators excluded) to its
last line, docstring included (docs/development.md, "Length")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "ambit"
LIMIT = 80


def function_lengths(source: str) -> list[tuple[str, int, int]]:
    """(qualified name, first line, length) of every function and method in ``source``."""
    out: list[tuple[str, int, int]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                out.append((name, child.lineno, child.end_lineno - child.lineno + 1))
                walk(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source), "")
    return out


def test_the_counter_measures_def_to_last_line():
    body = "\n".join(f"    x{i} = {i}" for i in range(5))
    source = f"class A:\n    def f(self):\n        '''d'''\n{body.replace('    ', '        ')}\n"
    assert function_lengths(source) == [("A.f", 2, 7)]
    nested = "def g():\n    def h():\n        return 1\n    return h\n"
    assert function_lengths(nested) == [("g", 1, 4), ("g.h", 2, 2)]


@pytest.mark.parametrize("limit", [LIMIT])
def test_no_function_in_src_is_over_80_lines(limit):
    files = [p for p in sorted(SRC.rglob("*.py")) if "_pb2" not in p.name]
    assert files, f"no source under {SRC}"
    over = [f"{p.relative_to(SRC.parent)}:{line} {name} is {n} lines"
            for p in files for name, line, n in function_lengths(p.read_text(encoding="utf-8"))
            if n > limit]
    assert not over, f"functions over {limit} lines (split them into named steps):\n" + "\n".join(over)
