"""Readings explained from the client side (issue 13): `Client.explain_readings` and
`Client.parse_explained` against a real server on localhost (stand-in model backend, real
SWI-Prolog), and `ambit explain` with and without `--lf`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ambit import server
from ambit.client import Client
from ambit.generators.amp.wordforms import amp_wordforms
from ambit.logic.explain import explain_readings
from tests.paths import REPO
from tests.helpers.server import FakeBackend, tiny_gpt2_folder

ONE_DOG = "exists x . forall y . exists a . boy(y) AND dog(x) AND saw(a) AND agent(a, y) AND patient(a, x)"
EVERY_BOY = "forall x . exists y . exists a . boy(x) AND dog(y) AND saw(a) AND agent(a, x) AND patient(a, y)"


@pytest.fixture(scope="module")
def address():
    r = server.serve(backend=FakeBackend(), port=0)
    yield r.address
    r.stop(1)


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ambit", "explain", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout)


def test_client_explain_readings_is_the_library_answer(address):
    with Client(address) as c:
        e = c.explain_readings("every boy saw a dog", [ONE_DOG, EVERY_BOY], weights=[0.3, 0.7])
        one = c.explain_readings("every boy saw a dog", [ONE_DOG])
    local = explain_readings("every boy saw a dog", [ONE_DOG, EVERY_BOY], lexicon=amp_wordforms(), weights=[0.3, 0.7])
    assert e == local
    assert e.question.readings == [1, 0] and e.situations[0].holds == 1
    assert one.situations == [] and one.question is None and "one reading" in one.note


def test_client_parse_explained(address):
    with Client(address) as c:
        out = c.parse_explained("every man saw something", k=4)
        plain = c.parse_distribution("every man saw something", k=4)
    classes = out.distribution.classes
    assert [k.canonical for k in classes] == [k.canonical for k in plain.classes]
    assert len(out.paraphrases) == len(classes) >= 2 and all(out.paraphrases)
    e = out.explanation
    assert [r.lf for r in e.readings] == [k.canonical for k in classes[:2]]
    assert [r.paraphrase for r in e.readings] == out.paraphrases[:2]
    assert [r.weight for r in e.readings] == [k.probability_mass for k in classes[:2]]


def test_cli_without_lf_asks_the_server(address):
    with Client(address) as c:
        dist = c.parse_distribution("every man saw something", k=5)
    out = cli("every man saw something", "--server", address, "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert [(r["lf"], r["weight"]) for r in d["readings"]] == [(k.canonical, k.probability_mass) for k in dist.classes]
    assert d["model_id"] == "fake-model" and d["unparsed_mass"] == pytest.approx(dist.unparsed_mass)
    assert d["situations"] and d["question"]["readings"] == [0, 1] and d["quantifiers"] == "restricted"
    text = cli("every man saw something", "--server", address)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[1].startswith(f"reading 0 (mass {dist.classes[0].probability_mass:.3f}): ")
    assert any(x.startswith("situation: reading ") for x in lines)
    assert any(x.startswith("question: Do you mean (a) ") for x in lines)


def test_cli_one_class_says_there_is_nothing_to_tell_apart(address):
    out = cli("every man saw something", "--server", address, "-k", "1", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert len(d["readings"]) == 1 and d["situations"] == [] and d["question"] is None
    assert d["note"] == "nothing to tell apart: one reading"


def test_cli_with_lf_on_a_server_matches_the_local_answer(address):
    args = ("every boy saw a dog", "--lf", ONE_DOG, "--lf", EVERY_BOY, "--json")
    local, remote = cli(*args), cli(*args, "--server", address)
    assert local.returncode == remote.returncode == 0, local.stderr + remote.stderr
    assert json.loads(local.stdout) == json.loads(remote.stdout)


def test_cli_malformed_lf_on_a_server_names_the_field(address):
    out = cli("u", "--lf", ONE_DOG, "--lf", "exists x . boy(x) AND", "--server", address)
    assert out.returncode == 1
    assert "INVALID_ARGUMENT" in out.stderr and "lfs[1]" in out.stderr


@pytest.mark.slow
def test_cli_without_lf_or_server_embeds_a_server(tmp_path):
    """The embedded default, with a tiny real GPT-2 model: a distribution whatever it decodes."""
    folder = tiny_gpt2_folder(tmp_path / "tiny")
    out = cli("every boy saw a dog", "--model", str(folder), "-k", "3", "--json", timeout=1800)
    assert out.returncode == 0, out.stderr[-3000:]
    d = json.loads(out.stdout)
    assert d["quantifiers"] == "restricted" and d["model_id"]
    assert all(r["paraphrase"] and r["weight"] > 0 for r in d["readings"])
    assert (d["question"] is None) == (len(d["readings"]) < 2)
