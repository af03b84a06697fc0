"""Paraphrases in the AmP suites (issue 13): `client eval amp-zeroshot` against a real server on
localhost (stand-in model backend, real Prolog) records the paraphrases of the gold LFs, the top
prediction and the heaviest meaning classes in results.jsonl, and fig4_tokens.html shows them
beside the LFs."""

from __future__ import annotations

import html
import json

import pytest

from ambit import logic
from ambit import server
from ambit.client.eval.cli import main as eval_main
from ambit.client.eval.explained import TOP_CLASSES
from ambit.generators.amp.wordforms import amp_wordforms
from ambit.logic.explain import read, verbalise
from tests.helpers.server import FakeBackend


@pytest.fixture(scope="module")
def address():
    r = server.serve(backend=FakeBackend(), port=0)
    yield r.address
    r.stop(1)


def test_amp_zeroshot_records_and_shows_paraphrases(tmp_path, address):
    assert eval_main(["amp-zeroshot", "--out", str(tmp_path), "--server", address, "--types", "scope,pp",
                      "--limit", "1"]) == 0
    records = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    page = (tmp_path / "fig4_tokens.html").read_text()
    assert len(records) == 2
    words = amp_wordforms()
    for r in records:
        gold = [r["paraphrase_lf0"], r["paraphrase_lf1"]]
        assert gold[0] != gold[1]  # the two readings of an ambiguous item read differently
        for lf, said in zip((r["lf0"], r["lf1"]), gold):
            assert logic.equivalent(read(said, words), logic.parse(lf)).verdict == "EQUIVALENT"
        classes = r["top_classes"]
        assert 2 <= len(classes) <= TOP_CLASSES  # the stand-in decodes two meanings
        masses = [c["probability_mass"] for c in classes]
        assert masses == sorted(masses, reverse=True)
        for c in classes:  # each paraphrase has exactly its class's reading
            f = logic.parse(c["canonical"])
            assert logic.equivalent(read(c["paraphrase"], words.covering([f])), f).verdict == "EQUIVALENT"
        top = logic.parse(r["predictions"][0]["text"])
        assert r["paraphrase_pred"] == verbalise(top, words)
        for said in gold + [r["paraphrase_pred"]]:
            assert html.escape(said) in page
