"""AmP and the other suites on endpoints that lack prompt log-probabilities (a stand-in endpoint):
accuracy alone (FDM/FIM and P(LF0) absent, said so, never 0), outputs that do not parse counted
as wrong and counted, ZM_k from n samples through chat; and a hosted-API-like endpoint (chat
only) that runs RADD and implicature generation through chat and refuses the rest up front."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ambit.client.eval.amp import items as amp_items
from ambit.client.eval.cli import main as eval_main
from tests.paths import SHARED_DATA

from tests.helpers.standin import StandIn, toy_answer

need_amp = pytest.mark.skipif(not (SHARED_DATA / "amp").exists(), reason=f"no AmP data under {SHARED_DATA}")
NOT_PARSING = "exists x . ( man(x"


def surface_of(prompt: str) -> str | None:
    """The test utterance of an AmP prompt (its last "Human:" line); None for another prompt."""
    found = re.findall(r"^Human: (.*)$", prompt, flags=re.M)
    return found[-1].strip() if found else None


class Plan:
    """What the toy model answers for each utterance: choice j of utterance i is `rule(i, j)`, one of
    "lf0", "lf1" or "bad" (a string that does not parse)."""

    def __init__(self, items: list[dict], rule) -> None:
        self.order = list(dict.fromkeys(it["surface"] for it in items))
        self.gold = {it["surface"]: (it["lf0"], it["lf1"]) for it in items}
        self.rule = rule

    def kind(self, surface: str, j: int) -> str:
        return self.rule(self.order.index(surface), j)

    def answer(self, prompt: str, j: int) -> str:
        surface = surface_of(prompt)
        if surface not in self.gold:  # the start-up probe
            return toy_answer(prompt, j)
        kind = self.kind(surface, j)
        return NOT_PARSING if kind == "bad" else self.gold[surface][int(kind[-1])]


def run(s: StandIn, out: Path, *args: str) -> int:
    return eval_main([*args, "--out", str(out), "--model", f"openai:standin@{s.url}", "--remote-cache", "none",
                      "--data", str(SHARED_DATA), "--workers", "1"])


def summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def remote_block(out: Path) -> dict:
    return json.loads((out / "run.json").read_text())["remote"]


@need_amp
def test_fewshot_without_prompt_logprobs_is_accuracy_only(tmp_path):
    items = amp_items.fewshot_items(["pp"], [0.0, 1.0], 0, 4, "fol", SHARED_DATA)
    plan = Plan(items, lambda i, j: ("lf0", "bad", "lf1", "lf0")[i % 4])
    s = StandIn(caps=("chat", "completions"), answer=plan.answer).start()  # completions, no echo logprobs
    try:
        out = tmp_path / "few"
        assert run(s, out, "amp-fewshot", "--types", "pp", "--ratios", "0,1", "--limit", "4", "--beam", "1") == 0
        got = summary(out)
        pp = got["by_type"]["pp"]
        kinds = {r: [plan.kind(it["surface"], 0) for it in items if it["ratio"] == r] for r in (0.0, 1.0)}
        for r, key in ((0.0, "0.0"), (1.0, "1.0")):
            assert pp["acc_lf0_by_ratio"][key] == kinds[r].count("lf0") / len(kinds[r])
            assert pp["acc_lf1_by_ratio"][key] == kinds[r].count("lf1") / len(kinds[r])
        bad = sum(k.count("bad") for k in kinds.values())
        assert bad > 0 and pp["unparsed_top1"] == pp["unparsed"] == bad
        # FDM/FIM are absent, and said so: null in summary.json, n/a in summary.md, never 0
        assert pp["fdm"] is None and pp["fim"] is None and pp["fdm_canonical"] is None
        assert got["forced_decode"] is False
        assert set(got["absent"]) == {"fdm", "fim"} and got["absent"]["fim"].startswith("n/a: ")
        assert "needs prompt_logprobs" in got["absent"]["fim"]
        md = (out / "summary.md").read_text()
        assert "- FDM, FIM: n/a: FDM and FIM (forced-decode scores of the gold LFs) needs prompt_logprobs" in md and f"top-1 pp {bad}/{len(items)}" in md
        # one decode request per item, no scoring request
        assert remote_block(out)["requests"] == len(items)
        assert json.loads((out / "run.json").read_text())["forced_decode"] is False
    finally:
        s.kill()


@need_amp
def test_zeroshot_through_chat_gets_zm_from_n_samples(tmp_path):
    items = amp_items.zeroshot_items(["pp"], 0, 4, "fol", SHARED_DATA)
    # utterance 0: LF0 then LF1; 1: LF1 then a non-parse; 2: a non-parse then LF0; 3: LF0 twice
    table = {0: ("lf0", "lf1"), 1: ("lf1", "bad"), 2: ("bad", "lf0"), 3: ("lf0", "lf0")}
    plan = Plan(items, lambda i, j: table[i % 4][j])
    s = StandIn(caps=("chat", "n_samples"), answer=plan.answer).start()  # chat only, n on chat
    try:
        out = tmp_path / "zero"
        # --beam 3: the greedy reply (choice 0), then 2 samples (the stand-in's choices 0 and 1 of that
        # request; its choice 0 repeats the greedy reply and is merged with it): two distinct candidates
        assert run(s, out, "amp-zeroshot", "--types", "pp", "--limit", "4", "--beam", "3") == 0
        pp = summary(out)["by_type"]["pp"]
        firsts = [plan.kind(it["surface"], 0) for it in items]
        both = sum({plan.kind(it["surface"], 0), plan.kind(it["surface"], 1)} == {"lf0", "lf1"} for it in items)
        assert pp["acc_lf0"] == firsts.count("lf0") / len(items)
        assert pp["acc_lf1"] == firsts.count("lf1") / len(items)
        assert both > 0 and pp["zm"]["2"] == pp["zm"]["5"] == both / len(items) and pp["zm"]["1"] == 0.0
        assert pp["unparsed_top1"] == firsts.count("bad")
        assert pp["p_lf0_mean"] is None and set(summary(out)["absent"]) == {"p_lf0"}
        # the greedy reply and one sample per item, through chat; no scoring request
        assert remote_block(out)["requests"] == 2 * len(items)
    finally:
        s.kill()


@pytest.mark.skipif(not all((SHARED_DATA / d).exists() for d in ("amp", "implicature", "radd")),
                    reason=f"no AmP, implicature or RADD data under {SHARED_DATA}")
def test_hosted_chat_api_runs_generation_and_refuses_the_rest_up_front(tmp_path, capsys):
    s = StandIn(caps=("chat",)).start()  # chat only: no completions, no logprobs, no grammar, one choice
    try:
        probe = probe_posts(s)
        refused = {
            "implicature": ["implicature", "--protocol", "score", "--k", "0", "--templates", "1", "--limit", "2"],
            "radd": ["radd", "--solver", "model", "--protocol", "score", "--limit-per-pair", "1"],
            "amp-fewshot": ["amp-fewshot", "--types", "pp", "--ratios", "0.5", "--limit", "1", "--beam", "5"],
        }
        for name, args in refused.items():
            capsys.readouterr()
            posts = s.posts
            assert run(s, tmp_path / f"no-{name}", *args) == 2
            assert s.posts - posts == probe, "nothing but the start-up probe is sent"
            err = capsys.readouterr().err.strip().splitlines()
            assert len([ln for ln in err if ln.startswith("error:")]) == 1
            line = err[-1]
            want = "needs n_samples" if name.startswith("amp") else "needs prompt_logprobs"
            assert line.startswith(f"error: {name} ") and want in line and "provided by" in line
            assert not (tmp_path / f"no-{name}" / "results.jsonl").exists()
        # implicature generation through chat with the yes/no templates
        out = tmp_path / "implicature"
        assert run(s, out, "implicature", "--protocol", "generate", "--k", "0", "--templates", "1,2,3",
                   "--limit", "2") == 0
        recs = [json.loads(ln) for ln in (out / "results.jsonl").read_text().splitlines()]
        assert recs and all(r["chat_template"] and r["reply"] in ("yes", "no") for r in recs)
        # RADD generate through chat, both styles
        out = tmp_path / "radd"
        assert run(s, out, "radd", "--solver", "model", "--protocol", "generate", "--style", "direct",
                   "step_by_step5", "--limit-per-pair", "1") == 0
        got = summary(out)
        recs = [json.loads(ln) for ln in (out / "results.jsonl").read_text().splitlines()]
        assert recs and all(r["chat_template"] and r["protocol"] == "generate" for r in recs)
        per_style = {style: v[f"openai:standin@{s.url}"]["n"] for style, v in got["by_style"].items()}
        assert per_style == {"direct": len(recs) // 2, "step_by_step5": len(recs) // 2}
        assert remote_block(out)["requests"] >= len(recs)
    finally:
        s.kill()


def probe_posts(s: StandIn) -> int:
    """The requests a start-up probe of the stand-in sends (measured by probing it)."""
    from ambit.server.remote.backend import RemoteBackend
    from ambit.server.remote.spec import RemoteOptions

    start = s.posts
    RemoteBackend.load(f"openai:standin@{s.url}", RemoteOptions(cache_dir=None))
    return s.posts - start
