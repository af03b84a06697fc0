"""`Client.check_entailment(+_batch)` and `ambit entails` against a real localhost
server (no model) and SWI-Prolog."""

from __future__ import annotations

import json
import shutil

import pytest

from ambit import server
from ambit.client import AmbitError, Client, Entailment
from ambit.client.__main__ import main

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

DOGS = ["∀x (Dog(x) → Animal(x))", "Dog(rex)"]


@pytest.fixture(scope="module")
def address():
    running = server.serve(no_model=True, port=0)
    yield running.address
    running.stop(1)


def test_check_entailment_and_batch(address):
    with Client(address) as c:
        e = c.check_entailment(DOGS, "Animal(rex)")
        assert isinstance(e, Entailment) and e.verdict == "TRUE" and e.premises_used == [0, 1]
        assert [s["premise_index"] for s in e.proof if s["source"] == "premise"] == [1, 0]
        assert e.countermodel is None and "Animal(d1)" in e.model["true_atoms"]
        nltk = ["all x.(dog(x) -> animal(x))", "dog(rex)"]
        out = c.check_entailment_batch([(nltk, "cat(rex)"), (["dog(rex"], "animal(rex)"), (nltk, "animal(rex)")],
                                       fmt="nltk")
    assert [getattr(x, "verdict", None) for x in out] == ["UNCERTAIN", None, "TRUE"]
    assert isinstance(out[1], AmbitError) and out[1].code == "INVALID_ARGUMENT"
    assert out[1].violations[0]["field"] == "items[1].premises[0]"


def test_entails_command(address, tmp_path, capsys):
    premises = tmp_path / "premises.txt"
    premises.write_text("\n".join(DOGS) + "\n\n", encoding="utf-8")
    assert main(["entails", "--server", address, "--from", "folio", "--premises", str(premises),
                 "--conclusion", "Cat(rex)", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "UNCERTAIN" and "Cat(d1)" not in out["countermodel"]["true_atoms"]
    assert main(["entails", "--server", address, "--premises", str(premises), "--conclusion", "Animal(rex)"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("TRUE\npremises used: 0, 1") and "[premise 1]" in text
    assert main(["entails", "--server", address, "--premises", str(premises), "--conclusion", "Cat(rex"]) == 1
    assert "conclusion: FOLIO unexpected end of input" in capsys.readouterr().err


def test_the_human_print_names_settled_parts_provers_and_function_tables():
    from ambit.client.__main__ import _human_entailment
    from ambit.client.entailment import entailment
    from ambit.proto.v1 import ambit_pb2 as pb

    r = pb.CheckEntailmentResponse(verdict=pb.ENTAILMENT_VERDICT_UNKNOWN, reason="inference_limit", refuted=False,
                                   answered_by={"with_conclusion": "prolog"})
    r.model.domain.append("d1")
    r.model.constants["a"] = "d1"
    r.model.functions["f(d1, d1)"] = "d1"
    e = entailment(r)
    assert e.entailed is None and e.refuted is False and e.model["functions"] == {"f(d1, d1)": "d1"}
    text = _human_entailment(e)
    assert text.splitlines()[:3] == ["UNKNOWN (inference_limit)", "settled: refuted: no",
                                     "answered by: with_conclusion prolog"]
    assert "f(d1, d1) = d1" in text
