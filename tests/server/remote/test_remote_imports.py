"""`ambit.server.model` and `ambit.server.remote` import each other in one direction only (remote
uses the engine interface's types; backend selection lives in `ambit.server.backends`): a walk of
every import statement, at module level and inside functions, finds no cycle through them."""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

import ambit

SRC = Path(ambit.__file__).resolve().parent.parent


def modules() -> dict[str, Path]:
    out = {}
    for p in (SRC / "ambit").rglob("*.py"):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def imports(name: str, path: Path, known: dict[str, Path], top_only: bool) -> set[str]:
    """The ambit modules `name` imports (the nearest known module of each dotted name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in (tree.body if top_only else ast.walk(tree)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    out = set()
    for m in found:
        while m and m not in known:
            m = m.rpartition(".")[0]
        if m and m != name:
            out.add(m)
    return out


def path(graph: dict[str, set[str]], a: str, goal) -> list[str] | None:
    prev: dict[str, str | None] = {a: None}
    q = deque([a])
    while q:
        x = q.popleft()
        if goal(x) and x != a:
            out = [x]
            while prev[out[-1]] is not None:
                out.append(prev[out[-1]])
            return out[::-1]
        for y in sorted(graph.get(x, ())):
            if y not in prev:
                prev[y] = x
                q.append(y)
    return None


def test_model_and_remote_form_no_import_cycle():
    known = modules()
    is_remote = lambda m: m == "ambit.server.remote" or m.startswith("ambit.server.remote.")  # noqa: E731
    # what runs at import time: no cycle between the two at all
    top = {n: imports(n, p, known, top_only=True) for n, p in known.items()}
    assert path(top, "ambit.server.model", is_remote) is None
    # and model.py itself imports nothing of remote, not even inside a function
    assert not any(is_remote(m) for m in imports("ambit.server.model", known["ambit.server.model"], known, False))
    # remote -> model is the one direction that exists
    assert path(top, "ambit.server.remote.backend", lambda m: m == "ambit.server.model") is not None
