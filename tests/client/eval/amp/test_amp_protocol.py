"""The AmP suites under the paper's protocol (issue #19) and its switches, against the fake
server: released test items or the generated held-out split, beam 5, the closed grammar,
matches decided by Prolog (real SWI-Prolog), and the record of all of it in run.json."""

from __future__ import annotations

import json
import re
import tarfile

import pytest

from ambit.client.eval.amp import suite as amp
from ambit.client.eval.amp import matching as MT
from ambit.client.eval.cli import main as eval_main
from ambit.client.testing import FakeAmbitServicer, FakeServer
from tests.paths import need_shared


class Recorder:
    """The decoding settings of every ParseDistribution request (the fake's `fail` hook)."""

    def __init__(self) -> None:
        self.decoding: list[tuple[int, bool]] = []

    def __call__(self, method: str, request):
        if method == "ParseDistribution":
            self.decoding.append((request.decoding.beam_size, request.decoding.closed_vocabulary))
        return None


@pytest.fixture()
def fake():
    recorder = Recorder()
    srv = FakeServer(FakeAmbitServicer(fail=recorder))
    srv.recorder = recorder
    yield srv
    srv.stop(0)


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AMBIT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _swap_first_quantifiers(lf: str) -> str:
    """`exists x . exists a . F` -> `exists a . exists x . F`: EQUIVALENT, canonically different."""
    m = re.match(r"(exists \w+ \. )(exists \w+ \. )", lf)
    assert m, lf
    return m.group(2) + m.group(1) + lf[m.end():]


def _demos(prompt: str) -> list[str]:
    """The demonstration utterances of a prompt (every Human: line but the test's, the last)."""
    lines = re.findall(r"Human: (.*)\n", prompt)
    return lines[:-1]


def _released_rows(archive, name, tmp_path) -> list[dict]:
    dest = tmp_path / "read"
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    return [json.loads(x) for x in (dest / name).read_text().splitlines() if x.strip()]


def test_zeroshot_paper_protocol_on_released_items(tmp_path, fake, cache):
    data = need_shared("amp/zeroshot/pp_fol").parents[2]
    items = amp.zeroshot_items(["pp", "revscope"], seed=0, limit=2, fmt="fol", data=data)
    # the released test split, in file order, both LFs from test_eval.jsonl
    rows = _released_rows(data / "amp/zeroshot/pp_fol/data.tar.gz", "test_eval.jsonl", tmp_path)
    assert [it["surface"] for it in items[:2]] == [rows[0]["surface"], rows[2]["surface"]]
    assert (items[0]["lf0"], items[0]["lf1"]) == (rows[0]["lf"], rows[1]["lf"])
    assert {it["amp_type"] for it in items[2:]} == {"scope_reverse"}
    # own-word ingredients: pp has 3, revscope 2, each a Human/Computer pair before the test
    assert [it["prompt"].count("Human:") - 1 for it in items] == [3, 3, 2, 2]
    assert all(it["ingredients"] == "own" for it in items)
    # the "model": LF1 first, then LF0 with two quantifiers swapped (pp) or renamed (revscope)
    second = {it["id"]: _swap_first_quantifiers(it["lf0"]) if it["type"] == "pp"
              else it["lf0"].replace(" x", " q").replace("(x", "(q") for it in items}
    fake.servicer.parses = {it["prompt"]: [it["lf1"], second[it["id"]]] for it in items}
    assert eval_main(["amp-zeroshot", "--out", str(tmp_path / "o"), "--server", fake.address,
                      "--types", "pp,revscope", "--limit", "2", "--data", str(data)]) == 0
    key = json.loads((tmp_path / "o" / "run.json").read_text())
    assert (key["beam"], key["grammar"], key["match"], key["items_source"], key["ingredients"]) == \
        (5, "closed", "equivalence", "amp-release", "own")
    assert fake.recorder.decoding == [(5, True)] * 4
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert s["release_matched"] == {"pp": {"matched": 200, "n": 200}, "revscope": {"matched": 200, "n": 200}}
    pp, rev = s["by_type"]["pp"], s["by_type"]["revscope"]
    assert (pp["acc_lf0"], pp["acc_lf1"], pp["zm"]["2"]) == (0.0, 1.0, 1.0)
    assert (pp["acc_lf1_canonical"], pp["zm_canonical"]["2"], pp["equiv_only"]) == (1.0, 0.0, 2)
    assert (rev["zm"]["2"], rev["zm_canonical"]["2"], rev["equiv_only"], rev["unknown"]) == (1.0, 1.0, 0, 0)
    records = [json.loads(x) for x in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    pp_rec = next(r for r in records if r["type"] == "pp")
    assert [p["match_lf0"] for p in pp_rec["predictions"]] == ["NOT_EQUIVALENT", "EQUIVALENT"]
    md = (tmp_path / "o" / "summary.md").read_text()
    assert "equivalence match" in md and "amp-release" in md and "pp 2" in md


def test_zeroshot_todays_flags_and_generated_items(tmp_path, fake, cache, monkeypatch):
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path / "no-data"))  # the default root, absent: generated items
    items = amp.zeroshot_items(["pp"], seed=0, limit=2, fmt="fol", data=None, ingredients="sampled")
    assert all(it["ingredients"] == "sampled" for it in items)
    fake.servicer.parses = {it["prompt"]: [_swap_first_quantifiers(it["lf0"]), it["lf1"]] for it in items}
    args = ["amp-zeroshot", "--out", str(tmp_path / "o"), "--server", fake.address, "--types", "pp",
            "--limit", "2", "--ingredients", "sampled",
            "--grammar", "open", "--match", "canonical", "--beam", "2"]
    assert eval_main(args) == 0
    key = json.loads((tmp_path / "o" / "run.json").read_text())
    assert (key["beam"], key["grammar"], key["match"], key["items_source"], key["ingredients"]) == \
        (2, "open", "canonical", "generated", "sampled")
    assert fake.recorder.decoding == [(2, False)] * 2
    v = json.loads((tmp_path / "o" / "summary.json").read_text())["by_type"]["pp"]
    # the string match rejects the reordered LF0; Prolog was not asked
    assert (v["acc_lf0"], v["acc_lf1"], v["zm"]["2"], v["acc_lf0_equiv"]) == (0.0, 0.0, 0.0, None)
    assert v["equiv_only"] == 0


def test_no_equiv_is_the_canonical_match(tmp_path):
    from ambit.client.eval.cli import build_parser
    p = build_parser()
    assert p.parse_args(["amp-fewshot", "--out", "o", "--no-equiv"]).match == "canonical"
    a = p.parse_args(["amp-fewshot", "--out", "o"])
    assert (a.match, a.grammar, a.beam) == ("equivalence", "closed", 5)
    with pytest.raises(SystemExit):
        p.parse_args(["amp-zeroshot", "--out", "o", "--beam", "0"])
    with pytest.raises(SystemExit):
        p.parse_args(["amp-fewshot", "--out", "o", "--ingredients", "own"])  # zero-shot only


def test_fewshot_released_items_same_at_every_ratio_demos_from_train(tmp_path, fake, cache):
    data = need_shared("amp/fewshot").parents[1]
    items = amp.fewshot_items(["scope"], [0.0, 0.5, 1.0], seed=0, limit=2, fmt="fol", data=data)
    archive = data / "amp/fewshot/50-50-5k-train-100-perc-ambig_fol/data.tar.gz"
    test_rows = [r for r in _released_rows(archive, "test_eval.jsonl", tmp_path) if r["type"] == "scope"]
    train = {r["surface"] for r in _released_rows(archive, "train_eval.jsonl", tmp_path)}
    assert [it["surface"] for it in items] == [test_rows[0]["surface"]] * 3 + [test_rows[2]["surface"]] * 3
    for it in items:
        demos = _demos(it["prompt"])
        assert len(demos) == 10 and set(demos) <= train and it["surface"] not in demos
    # same demonstrations at every ratio, only the LFs shown change
    by_ratio = [sorted(_demos(it["prompt"])) for it in items[:3]]
    assert by_ratio[0] == by_ratio[1] == by_ratio[2]
    fake.servicer.parses = {it["prompt"]: [it["lf0"] if it["ratio"] >= 0.5 else it["lf1"]] for it in items}
    assert eval_main(["amp-fewshot", "--out", str(tmp_path / "o"), "--server", fake.address, "--types",
                      "scope", "--ratios", "0,0.5,1", "--limit", "2", "--data", str(data)]) == 0
    key = json.loads((tmp_path / "o" / "run.json").read_text())
    assert (key["beam"], key["items_source"]) == (5, "amp-release")
    s = json.loads((tmp_path / "o" / "summary.json").read_text())["by_type"]["scope"]
    assert s["fdm"] == pytest.approx(1 / 3) and s["fdm_canonical"] == pytest.approx(1 / 3)


def test_fewshot_generated_split_never_shows_a_test_utterance(tmp_path):
    from ambit.generators.amp import splits
    items = amp.fewshot_items(["bound"], [0.0, 1.0], seed=3, limit=5, fmt="lisp", data=tmp_path)
    test = {p["surface"] for p in splits.heldout_split("bound", 3).test}
    assert {it["surface"] for it in items} <= test
    for it in items:
        assert len(_demos(it["prompt"])) == 10 and not set(_demos(it["prompt"])) & test
        assert it["lf0"].startswith("( ")  # Lisp


def test_match_predictions_with_prolog():
    lf0 = "exists x . exists a . man(x) AND saw(a) AND agent(a, x)"
    lf1 = "forall x . exists y . man(x) AND saw(x, y)"
    preds = [{"text": t, "canonical": MT.canonical_or_none(t, "fol"), "status": s} for t, s in (
        ("exists a . exists x . man(x) AND saw(a) AND agent(a, x)", "OK"),   # equivalent to LF0
        ("exists y . forall x . man(x) AND saw(x, y)", "OK"),                # other scope
        ("forall q . exists y . man(q) AND saw(q, y)", "OK"),                # LF1 renamed
        ("forall x . (", "INVALID"))]
    table = MT.match_predictions(preds, [lf0, lf1], "fol", "equivalence")
    assert table[0] == ["EQUIVALENT", "NOT_EQUIVALENT", "NOT_EQUIVALENT", None]
    assert table[1][2] == "canonical" and table[1][1] == "NOT_EQUIVALENT"
    assert [MT.first_match(r, "equivalence") for r in table] == [0, 2]
    canon = MT.match_predictions(preds, [lf0, lf1], "fol", "canonical")
    assert canon == [[None, None, None, None], [None, None, "canonical", None]]
    assert MT.first_match(canon[0], "canonical") is None
    with pytest.raises(ValueError, match="gold LF does not parse"):
        MT.match_predictions(preds, ["man(("], "fol", "equivalence")


def test_unknown_verdicts_are_no_match_and_counted():
    rec = {"type": "scope", "rank_lf0": 1, "rank_lf1": 0, "rank_lf0_canonical": None,
           "rank_lf1_canonical": 0, "rank_lf0_equiv": 1, "rank_lf1_equiv": 0, "p_lf0": 0.4,
           "predictions": [{"status": "OK", "match_lf0": "UNKNOWN", "match_lf1": "canonical"},
                           {"status": "OK", "match_lf0": "EQUIVALENT", "match_lf1": "NOT_EQUIVALENT"}]}
    assert MT.first_match(["UNKNOWN", "NOT_EQUIVALENT"], "equivalence") is None
    s = amp.zeroshot_summary([rec], "m", {"beam": 5, "grammar": "closed", "match": "equivalence",
                                          "items_source": "generated"})
    v = s["by_type"]["scope"]
    assert (v["unknown"], v["equiv_only"], v["acc_lf0"], v["acc_lf1"]) == (1, 1, 0.0, 1.0)
    assert (s["beam"], s["grammar"], s["match"], s["items_source"]) == (5, "closed", "equivalence", "generated")
    assert "UNKNOWN verdicts (counted as no match): scope 1" in amp.protocol_markdown(s)
