"""`client eval implicature` on a masked model behind a real localhost server (issue 20, model
families): the yes/no word is scored at the mask the template's `phrase_to_put_mask` places."""

from __future__ import annotations

import json

import pytest

from ambit.client.api import Client
from ambit.client.eval.cli import main as eval_main
from ambit.client.eval.store import read_records
from ambit.generators.implicature import build_records
from tests.paths import SHARED_DATA as DATA
from tests.helpers.families import save, tiny_bert
from tests.helpers.server import ServerProcess


@pytest.mark.skipif(not (DATA / "implicature").exists(), reason="no implicature data")
def test_implicature_masked_end_to_end(tmp_path):
    folder = save(tiny_bert(tmp_path / "bert"), tmp_path / "bert")
    proc = ServerProcess("--model", str(folder), "--device", "cpu", "--host", "localhost", ready_timeout=120)
    try:
        out = tmp_path / "out"
        args = ["implicature", "--out", str(out), "--server", proc.address, "--k", "0", "--templates", "1,2",
                "--limit", "2", "--protocol", "score"]
        assert eval_main(args) == 0
        summ = json.loads((out / "summary.json").read_text())
        assert summ["model_kind"] == "masked" and summ["by_k"]["0"]["n"] == 2 and summ["by_k"]["0"]["answers"] == 4
        recs = sorted(read_records(out), key=lambda r: (r["example_id"], r["template"]))
        items = sorted(build_records(DATA / "implicature", ks=[0], templates=[1, 2], limit=2),
                       key=lambda r: (r["example_id"], r["template"]))
        with Client(proc.address) as client:
            assert client.info().kind == "masked"
            for rec, item in zip(recs, items):
                assert rec["scoring"] == "masked" and "<mask>" in item["masked_prompt"]
                coh = client.score(item["masked_prompt"], [item["label"]]).scores[0].sum_logprob
                assert rec["logprob_coherent"] == pytest.approx(coh, abs=1e-5)
                assert rec["correct"] == (rec["logprob_coherent"] > rec["logprob_incoherent"])
        assert eval_main([*args[:-1], "generate", "--out", str(tmp_path / "gen")]) != 0  # masked models do not generate
    finally:
        proc.terminate()
