"""Prose that cannot go stale: every module path and dotted name that a docstring or comment under
src/ambit names exists (docs/development.md, "Prose that names code"). What counts as a name:

- a file: a word ending in `.py`, `.pl`, `.lark` or `.proto` (`prove.py`, `engine/prove.py`,
  `logic/syntax/reading.py`) names a file of the package, by its path from `src/ambit/` or by the
  end of that path; `FILE:NAME` and the citation `(FILE: NAME)` also name something that FILE
  defines itself (a function, class or assignment, not an import; in Prolog a predicate),
  `FILE:LINE` a line it has;
- a dotted name: `ambit.x.y` (and `logic.x`, `server.x`, `client.x`, `generators.x`, `web.x`,
  `proto.x`, read as `ambit.logic.x`, ...) imports as a module or is an attribute of one;
- an old module name: the last part of a module that docs/migration.md lists as moved
  (`prolog_pool`, `fol_cli`, ...) is not written as a word, unless the file binds that name itself
  (an import alias).
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import tokenize
from functools import lru_cache
from pathlib import Path

import pytest

from tests.paths import REPO

SRC = REPO / "src" / "ambit"
EXTENSIONS = ("py", "pl", "lark", "proto")
FILE = re.compile(r"(?<![\w./*-])((?:[\w-]+/)*[\w-]+\.(?:%s))(?![\w])(?::(\w+)|(?=: (\w+)\)))?" % "|".join(EXTENSIONS))
DOTTED = re.compile(r"(?<![\w./-])((?:ambit|logic|server|client|generators|web|proto)(?:\.[A-Za-z_]\w*)+)")
ROOTS = ("logic", "server", "client", "generators", "web", "proto")
# files of other projects that the prose cites by their own names, and the wire's names
OTHERS = {
    "generate_pairs.py": "AmP's generator",
    "calc_metrics.py": "the RADD paper's metrics",
    "src/error_analysis.py": "do-pigs-fly (the implicature paper's code)",
    "src/probe_llm.py": "do-pigs-fly (the implicature paper's code)",
    "ambit/v1/ambit.proto": "the .proto's name in its descriptors (proto/build.py)",
}
WIRE_PACKAGE = "ambit.v1"  # the protobuf package: ambit.v1.LFFormat is a wire name, not a module
NOT_CODE = re.compile(r"\.(md|json|jsonl|txt|csv|yaml|yml|html|png|toml|lock|gz)$")

# Stale prose the test tolerates, file -> names (none: every name the prose gives exists).
KNOWN: dict[str, set[str]] = {}


def _sources() -> list[Path]:
    return sorted(p for ext in ("py", "pl") for p in SRC.rglob(f"*.{ext}") if "_pb2" not in p.name)


def _prose(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring of a Python file, every comment of a Prolog one."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".pl":
        out = [(n, line[line.index("%"):]) for n, line in enumerate(text.splitlines(), 1) if "%" in line]
        out += [(text.count("\n", 0, m.start()) + 1, m.group()) for m in re.finditer(r"/\*.*?\*/", text, re.S)]
        return out
    out = [(t.start[0], t.string) for t in tokenize.generate_tokens(io.StringIO(text).readline)
           if t.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = node.body[0] if node.body else None
            if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str):
                out.append((doc.lineno, doc.value.value))
    return out


@lru_cache(maxsize=None)
def _files() -> tuple[str, ...]:
    return tuple(str(p.relative_to(SRC)) for ext in EXTENSIONS for p in SRC.rglob(f"*.{ext}"))


def _file_of(ref: str) -> Path | None:
    """The file `ref` names: its path from src/ambit/ (or the repository), else the one file whose
    path ends with it (the first of several)."""
    for base in (SRC, REPO, SRC.parent):
        if (base / ref).is_file():
            return base / ref
    hits = [f for f in _files() if f == ref or f.endswith("/" + ref)]
    return SRC / hits[0] if hits else None


def _defines(path: Path, name: str) -> bool:
    if name.isdigit():
        return int(name) <= path.read_text(encoding="utf-8").count("\n") + 1
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".pl":
        return re.search(rf"^{re.escape(name)}\(|^{re.escape(name)} *:-|^%!\s+{re.escape(name)}\b", text, re.M) is not None
    return re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b|^\s*{re.escape(name)}\s*[:=]",
                     text, re.M) is not None


@lru_cache(maxsize=None)
def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    if parts[0] in ROOTS:
        parts = ["ambit", *parts]
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


@lru_cache(maxsize=None)
def _old_names() -> frozenset[str]:
    """The last parts of the moved modules of docs/migration.md that name no module today."""
    table = (REPO / "docs" / "migration.md").read_text(encoding="utf-8")
    old = {m.group(1) for m in re.finditer(r"^\| `ambit\.[\w.]*?(\w+)` \|", table, re.M)}
    current = {p.stem for p in SRC.rglob("*.py")} | {p.name for p in SRC.rglob("*") if p.is_dir()}
    return frozenset(n for n in old if n not in current and "_" in n)


def stale(path: Path) -> list[str]:
    """The names in `path`'s prose that name nothing: `LINE: NAME` each."""
    text = path.read_text(encoding="utf-8")
    bound = set(re.findall(r"\bas (\w+)", text)) if path.suffix == ".py" else set()
    out = []
    for line, prose in _prose(path):
        for m in FILE.finditer(prose):
            ref, name = m.group(1), m.group(2) or m.group(3)
            if ref in OTHERS:
                continue
            target = _file_of(ref)
            if target is None:
                out.append(f"{line}: {ref}")
            elif name and not _defines(target, name):
                out.append(f"{line}: {ref}:{name}")
        for m in DOTTED.finditer(prose):
            name = m.group(1).rstrip(".")
            if NOT_CODE.search(name) or FILE.fullmatch(name) or re.search(r"\.(%s)$" % "|".join(EXTENSIONS), name):
                continue
            if name == WIRE_PACKAGE or name.startswith(WIRE_PACKAGE + "."):
                continue
            if not _resolves(name):
                out.append(f"{line}: {name}")
        for old in _old_names() - bound:
            if re.search(rf"(?<![\w.]){old}\b", prose):
                out.append(f"{line}: {old}")
    return out


def _known(rel: str, entry: str) -> bool:
    return entry.split(": ", 1)[1] in KNOWN.get(rel, ()) or any(
        entry.split(": ", 1)[1].endswith(k) for k in KNOWN.get(rel, ()))


def test_every_name_in_prose_exists():
    found = {}
    for path in _sources():
        rel = str(path.relative_to(SRC))
        hits = [h for h in stale(path) if not _known(rel, h)]
        if hits:
            found[rel] = hits
    assert not found, "prose naming what does not exist (rename it to what it is now, or cut it):\n" + "\n".join(
        f"src/ambit/{f}:{h}" for f, hs in sorted(found.items()) for h in hs)


def test_known_exceptions_are_still_there():
    """Each known exception is still found (a cleared one leaves KNOWN)."""
    cleared = [(rel, k) for rel, names in KNOWN.items() for k in names
               if not any(h.split(": ", 1)[1].endswith(k) for h in stale(SRC / rel))]
    assert not cleared, f"cleared: drop them from KNOWN: {cleared}"


@pytest.mark.parametrize("prose, bad", [
    ("see prolog_pool.py for the pool", "prolog_pool.py"),
    ("written by fol_render.py", "fol_render.py"),
    ("the pool (logic/runtime/pool.py: no_such_function)", "logic/runtime/pool.py:no_such_function"),
    ("ambit.logic.syntax.no_such_module reads it", "ambit.logic.syntax.no_such_module"),
    ("logic.syntax.dialect.no_such_name", "logic.syntax.dialect.no_such_name"),
    ("(cli_common.add_dialect_options)", "cli_common"),
])
def test_the_rule_catches_stale_names(tmp_path, prose, bad):
    module = tmp_path / "m.py"
    module.write_text(f'"""{prose}"""\n', encoding="utf-8")
    assert any(h.endswith(bad) for h in stale(module)), stale(module)


@pytest.mark.parametrize("prose", [
    "logic/engine/prove.py, prove.py and syntax/reading.py", "(logic/syntax/reading.py: read_pair)",
    "ambit.logic.syntax.dialect.Dialect", "logic.parse", "docs/logic.md and logic.md", "prove.pl:decide_json",
])
def test_the_rule_passes_names_that_exist(tmp_path, prose):
    module = tmp_path / "m.py"
    module.write_text(f'"""{prose}"""\n', encoding="utf-8")
    assert stale(module) == []
