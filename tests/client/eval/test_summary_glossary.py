"""Summaries that explain themselves (issue 31): a glossary atop every summary.md, n at every
point of Fig. 6, RADD property pairs named beside their Wikidata ids, the implicature ± labelled,
and ParseDistribution tokens as text."""

from __future__ import annotations

import json
from dataclasses import dataclass

import grpc
import pytest

from ambit import server
from ambit.client.eval import cli, report, report_common
from ambit.client.eval.glossary import GLOSSARIES, glossary
from ambit.client.testing import FakeAmbitServicer, FakeServer
from ambit.generators.radd.wikidata import pair_label, pair_with_label
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server.service.distribution import token_text
from tests.helpers.server import FakeBackend, FakeHypothesis


@pytest.fixture()
def no_data(tmp_path, monkeypatch):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "nowhere"))


def _head(md: str) -> str:
    """The part of a summary.md before its first table."""
    return md.split("\n|", 1)[0]


def test_fewshot_summary_opens_with_its_glossary_and_fig6_has_n(tmp_path, no_data, monkeypatch):
    fake = FakeServer(FakeAmbitServicer())
    figures = []
    monkeypatch.setattr(report_common, "_save", lambda fig, path: figures.append((str(path), fig)))
    try:
        assert cli.main(["amp-fewshot", "--out", str(tmp_path), "--server", fake.address, "--types", "pp",
                         "--ratios", "0,1", "--limit", "1"]) == 0
    finally:
        fake.stop(0)
    head = _head((tmp_path / "summary.md").read_text())
    for term in ("**Glossary**", "**FDM**", "**FIM**", "varies even where every accuracy is 0",
                 "renormalised over the two LFs", "**n**", "**r**"):
        assert term in head, term
    s = json.loads((tmp_path / "summary.json").read_text())["by_type"]["pp"]
    assert s["n_by_ratio"] == {"0.0": 1, "1.0": 1}
    fig = next(f for p, f in figures if p.endswith("fig6_lf0_vs_ratio.png"))
    labels = [t.get_text() for t in fig.axes[0].texts]
    # one label per plotted point, named by its type so that stacked labels stay readable
    assert labels == ["pp n=1", "pp n=1"], labels


def test_zeroshot_and_implicature_glossaries():
    assert "**ZM_k**" in glossary("amp-zeroshot") and "P(LF0) + P(LF1) = 1" in glossary("amp-zeroshot")
    assert "mean ± std" in glossary("implicature") and "standard deviation over templates" in glossary("implicature")
    md = report.implicature_markdown({"model": "m", "by_k": {"0": {"n": 2, "by_template": {"1": 0.5},
                                                                     "mean": 0.5, "std": 0.0}}})
    assert _head(md).count("**Glossary**") == 1
    assert set(GLOSSARIES) == {"amp-zeroshot", "amp-fewshot", "implicature", "radd", "all"}


def test_radd_summary_names_the_properties(tmp_path, no_data):
    out = tmp_path / "radd"
    assert cli.main(["radd", "--source", "generated", "--out", str(out)]) == 0
    md = (out / "summary.md").read_text()
    assert "**Glossary**" in _head(md) and "**de dicto / de re**" in md
    assert "P159_P206 (headquarters location / located in or next to body of water)" in md
    assert "P7779_Q21506450 (military unit / military unit size class)" in md
    assert pair_label("P6_P19") == "head of government / place of birth"
    assert pair_with_label("P1_P2") == "P1_P2"  # unknown ids are left as they are


def test_all_index_has_a_glossary_and_labels_the_spread(tmp_path, no_data):
    fake = FakeServer(FakeAmbitServicer())
    try:
        assert cli.main(["all", "--out", str(tmp_path), "--server", fake.address, "--limit", "1",
                         "--types", "pp", "--ratios", "0,1"]) == 0
    finally:
        fake.stop(0)
    md = (tmp_path / "summary.md").read_text()
    assert "**Glossary**" in md and "**±** (implicature)" in md
    from ambit.client.eval.implicature.suite import ImplicatureSuite
    line = ImplicatureSuite().headline({"by_k": {"0": {"mean": 0.5, "std": 0.471}}})
    assert line == "k=0: 50.0% ± 47.1 (std over templates)"


# ------------------------------------------------------------------ tokens as text

@dataclass
class BpeBackend(FakeBackend):
    """Decodes one LF, its tokens as a byte-level BPE tokenizer writes them."""

    def decode(self, prompt, fmt, params, grammar, should_stop):
        return [FakeHypothesis("exists x . man(x)", -0.1, [0.9] * 5, ["exists", "Ġx", "Ġ.", "Ġman", "(x)"], 0.9)]


def test_parse_distribution_tokens_are_text():
    r = server.serve(backend=BpeBackend(), port=0)
    r.wait_ready(30)
    try:
        with grpc.insecure_channel(r.address) as ch:
            resp = ambit_pb2_grpc.AmbitServiceStub(ch).ParseDistribution(pb.ParseDistributionRequest(utterance="u"))
    finally:
        r.stop(0)
    assert list(resp.candidates[0].tokens) == ["exists", " x", " .", " man", "(x)"]
    assert "".join(resp.candidates[0].tokens) == resp.candidates[0].text
    assert (token_text("Ċ"), token_text("âĪĢ"), token_text("▁man")) == ("\n", "∀", " man")
    assert token_text("\u00e2") == "\u00e2"  # part of a character: kept as written
