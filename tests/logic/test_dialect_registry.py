"""The dialect registry (`logic/syntax/dialect.py`) is the one source of what a dialect is: its wire
value, whether it is decoded, its CLI name. The wire maps, the CLI choices and the checks that
tell dialects apart derive from it, and no other module of the package writes a dialect's name
as a string literal (a new dialect is added in the registry, not in every module that knew the
old ones)."""

from __future__ import annotations

import argparse
import ast
import functools
from pathlib import Path

import pytest

from ambit.logic.syntax.dialect import (AMP_NAMES, CLI_NAMES, DECODABLE_NAMES, DEFAULT_DIALECT, FOL, FOLIO, FULL_NAMES,
                                        NAMES, dialect, dialects)
from ambit.proto.v1 import ambit_pb2 as pb

SRC = Path(__file__).resolve().parents[2] / "src" / "ambit"

# The registry's own modules, and the generated stubs: where a dialect's name is meant to be written.
REGISTRY = ("logic/syntax/dialect.py",)
GENERATED = "proto/v1/"

# (module, literal): why the literal stays. Every entry must still match (a stale one fails).
ALLOWED = {
    ("logic/syntax/full_render.py", "folio"): "the full dialects' writers: one spelling table per dialect, which "
                                               "the registry's renderers name (dialect.py _render_full)",
    ("logic/syntax/full_render.py", "nltk"): "as above: NLTK's names and spelling",
    ("logic/syntax/full_render.py", "tptp"): "as above: TPTP's names and spelling",
    ("logic/syntax/full_render.py", "prover9"): "as above: Prover9's names and spelling",
    ("logic/syntax/full_parse.py", "folio"): "FOLIO's own reader names its dialect in its dotted-variable error",
    ("logic/syntax/readers/nltk_read.py", "nltk"): "NLTK's own reader names its dialect in its feature-variable error",
    ("nltk/expressions.py", "nltk"): "ambit.nltk reads NLTK's Expressions: the nltk dialect by definition",
    ("nltk/__init__.py", "nltk"): "the nltk package and the extra that installs it, not the dialect",
    ("logic/syntax/tptp_problem.py", "tptp"): "a TPTP problem file's statements are TPTP by definition",
    ("logic/provers/eprover.py", "tptp"): "E reads TPTP, its one input language",
    ("logic/__init__.py", "lisp"): "convert()'s documented default target (fol → lisp), a public signature",
    ("web/api.py", "tptp"): "a sample problem of the web page: data written in TPTP",
    ("generators/__main__.py", "folio"): "the `ambit generate folio` subcommand: a suite's name, not a dialect",
    ("client/eval/suites.py", "folio"): "the FOLIO suite's name in the suite table",
    ("client/eval/folio/suite.py", "folio"): "the FOLIO suite's name (`ambit eval folio`)",
    ("client/eval/folio/report.py", "folio"): "the suite's name in its summary (`suite: folio`)",
    ("client/eval/folio/data.py", "folio"): "the FOLIO data folder (`folio/folio-SPLIT.jsonl`) and suite name",
}


@functools.lru_cache(maxsize=None)
def _literals(root: Path = SRC) -> dict[tuple[str, str], list[int]]:
    """Every string literal equal to a dialect name under `root` outside the registry, by (module, name)."""
    found: dict[tuple[str, str], list[int]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in REGISTRY or rel.startswith(GENERATED):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES:
                found.setdefault((rel, node.value), []).append(node.lineno)
    return found


def test_no_dialect_name_outside_the_registry():
    stray = {k: v for k, v in _literals().items() if k not in ALLOWED}
    lines = [f"src/ambit/{rel}:{ln}: {name!r}" for (rel, name), lns in sorted(stray.items()) for ln in lns]
    assert not lines, ("a dialect's name written as a string literal outside logic/syntax/dialect.py; ask the "
                       "Dialect (dialect(fmt).amp, .decodable, .s_expression, .problem_files, ...) or use "
                       "FOL / FOLIO / AMP_NAMES / FULL_NAMES:\n" + "\n".join(lines))


def test_every_allowed_literal_is_still_there():
    stale = sorted(set(ALLOWED) - set(_literals()))
    assert not stale, f"allow-list entries that match nothing (remove them): {stale}"


def test_the_scan_finds_a_literal(tmp_path):
    """The scan sees a name written as a literal, and skips the registry (so an empty result above means something)."""
    (tmp_path / "m.py").write_text('"""fol in prose is fine."""\ndef f(fmt="tptp"):\n    return fmt == "lisp"\n')
    (tmp_path / "logic" / "syntax").mkdir(parents=True)
    (tmp_path / "logic" / "syntax" / "dialect.py").write_text('NAME = "nltk"\n')
    assert _literals(tmp_path) == {("m.py", "tptp"): [2], ("m.py", "lisp"): [3]}


def test_every_dialect_has_its_own_wire_value_and_every_wire_value_a_dialect():
    wires = [d.wire for d in dialects()]
    assert len(set(wires)) == len(wires), wires
    for d in dialects():
        assert d.wire in pb.LFFormat.keys(), f"{d.name}: wire {d.wire!r} is no ambit.v1.LFFormat value"
    unmapped = set(pb.LFFormat.keys()) - set(wires) - {"LF_FORMAT_UNSPECIFIED"}
    assert not unmapped, f"LFFormat values without a dialect in the registry: {sorted(unmapped)}"


def test_the_wire_maps_derive_from_the_registry():
    from ambit.client import results
    from ambit.server.convert import common, logic, model

    by_value = {pb.LFFormat.Value(d.wire): d.name for d in dialects()}
    assert results.FORMATS == {n: v for v, n in by_value.items()}
    assert logic.FORMAT_ENUM == results.FORMATS
    assert common.FORMATS == {pb.LF_FORMAT_UNSPECIFIED: FOL, **{v: n for v, n in by_value.items() if n in AMP_NAMES}}
    assert logic.FOL_DIALECTS == {v: n for v, n in by_value.items() if n in FULL_NAMES}
    assert logic.EQUIVALENCE_FORMATS == {pb.LF_FORMAT_UNSPECIFIED: FOL, **by_value}
    assert logic.ENTAILMENT_FORMATS == {**by_value, pb.LF_FORMAT_UNSPECIFIED: FOLIO}
    assert model.DECODE_FORMATS == {pb.LF_FORMAT_UNSPECIFIED: FOL,
                                    **{v: n for v, n in by_value.items() if n in DECODABLE_NAMES}}


def test_decodable_is_having_a_decode_grammar():
    from ambit.server.service.generation import DECODED_FORMATS

    assert set(DECODABLE_NAMES) == {d.name for d in dialects() if d.decode_grammar is not None}
    assert DECODED_FORMATS == DECODABLE_NAMES
    assert set(AMP_NAMES) <= set(DECODABLE_NAMES)  # AmP's formats are decoded under a closed vocabulary too


def _choices(parser: argparse.ArgumentParser, command: str, option: str) -> tuple:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return tuple(next(a for a in sub._actions if option in a.option_strings).choices)


def test_both_equiv_commands_offer_the_registry_s_dialects():
    from ambit.client.__main__ import build_parser
    from ambit.logic.cli.prove import _parser

    client = build_parser()
    assert _choices(client, "equiv", "--from") == CLI_NAMES == NAMES
    assert _choices(client, "entails", "--from") == CLI_NAMES
    assert tuple(next(a for a in _parser("equiv")._actions if "--from" in a.option_strings).choices) == CLI_NAMES
    assert _choices(client, "canon", "--format") == AMP_NAMES
    assert client.parse_args(["equiv", "a", "b"]).fmt == DEFAULT_DIALECT["equiv"] == FOL
    assert client.parse_args(["entails", "--premises", "-", "--conclusion", "c"]).fmt == DEFAULT_DIALECT["entails"]


@pytest.mark.parametrize("name", NAMES)
def test_a_dialect_is_looked_up_by_its_cli_name(name):
    d = dialect(name)
    assert dialect(d.cli_name) is d and d.title and d.amp != d.full


def test_from_decoded_turns_folio_s_ascii_into_its_symbols_and_leaves_others_alone():
    assert dialect(FOLIO).from_decoded("all x (-A(x))") == "∀x (¬A(x))"
    assert dialect(FOL).from_decoded("exists x . a(x)") == "exists x . a(x)"
