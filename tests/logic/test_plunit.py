"""Every Prolog program in logic/engine/prolog/ has plunit tests (tests/logic/prolog/test_<name>.pl),
and they pass in plain swipl."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ambit._files import read_text

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted(p.stem for p in (ROOT / "src" / "ambit" / "logic" / "engine" / "prolog").glob("*.pl"))
TESTS = Path(__file__).with_name("prolog")


def test_every_program_has_plunit_tests():
    missing = [name for name in PROGRAMS if not (TESTS / f"test_{name}.pl").exists()]
    assert not missing, f"no plunit tests for: {', '.join(missing)}"


@pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")
@pytest.mark.parametrize("name", PROGRAMS)
def test_plunit_passes(name):
    p = subprocess.run(["swipl", "-g", "run_tests", "-t", "halt", str(TESTS / f"test_{name}.pl")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr


def _exports(text: str) -> list[tuple[str, int]]:
    """Name/Arity of every predicate a program's module/2 declaration exports (comments dropped)."""
    m = re.search(r":- module\(\w+,\s*\[(.*?)\]\)\.", text, re.S)
    assert m, "no module/2 declaration"
    names = re.sub(r"%[^\n]*", "", m.group(1)).split(",")
    return [(n.split("/")[0].strip(), int(n.split("/")[1])) for n in names if n.strip()]


def _arity(args: str) -> int:
    """The number of top-level arguments in the text between a head's parentheses."""
    depth, count = 0, 1
    for c in args:
        depth += c in "([{"
        depth -= c in ")]}"
        count += c == "," and depth == 0
    return count if args.strip() else 0


def _pldoc_heads(text: str) -> set[tuple[str, int]]:
    """Name/Arity of every PlDoc mode line (`%!  pred(+A, -B) is det.`, continued on `%!` lines)."""
    heads, mode = set(), ""
    for line in text.splitlines() + [""]:
        if line.startswith("%!"):
            mode += " " + line[2:].strip()
            continue
        if mode:
            m = re.match(r"\s*(\w+)(?:\((.*)\))?\s*(?:is\s+\w+)?\s*\.\s*$", mode)
            assert m, f"not a PlDoc mode line: {mode.strip()!r}"
            heads.add((m.group(1), _arity(m.group(2) or "")))
        mode = ""
    return heads


def test_every_exported_predicate_has_a_pldoc_header():
    """Each program documents its interface as SWI-Prolog's library does: a `%!` mode line, with
    its determinism, above every exported predicate."""
    missing = []
    for name in PROGRAMS:
        text = read_text(ROOT / "src" / "ambit" / "logic" / "engine" / "prolog" / f"{name}.pl")
        missing += [f"{name}.pl: {p}/{n}" for p, n in _exports(text) if (p, n) not in _pldoc_heads(text)]
    assert not missing, f"exported without a %! header: {', '.join(missing)}"


def test_the_header_check_sees_a_missing_header():
    text = ":- module(m, [a/1, % a comment\n b/0]).\n%!  a(+X) is det.\n%\n%   A.\na(_).\nb.\n"
    assert _exports(text) == [("a", 1), ("b", 0)]
    assert _pldoc_heads(text) == {("a", 1)}


@pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")
def test_pldoc_reads_every_header(tmp_path):
    """PlDoc itself (doc_comment/4) finds a structured comment for every exported predicate."""
    files = ",".join(f"'{ROOT / 'src' / 'ambit' / 'logic' / 'engine' / 'prolog' / name}.pl'" for name in PROGRAMS)
    goal = ("use_module(library(pldoc)), use_module(library(pldoc/doc_process)), doc_collect(true), "
            f"forall(member(F, [{files}]), ( use_module(F), file_base_name(F, B), file_name_extension(M, _, B), "
            "module_property(M, exports(Es)), forall(member(PI, Es), ( pldoc_process:doc_comment(M:PI, _, _, _) "
            "-> true ; format('missing ~w:~w~n', [M, PI]) )) ))")
    p = subprocess.run(["swipl", "-g", goal, "-t", "halt"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 0 and "missing" not in p.stdout, p.stdout + p.stderr
