"""Every page of the web application in headless Chromium (Debian's, driven over the DevTools pipe:
tests/web/chromium.py): the test fills each form as a person would, waits for the answer, checks
the DOM (readings, verdicts, countermodel entities, premises used, run items) and keeps a
screenshot of each page, under `$AMBIT_ARTIFACTS/web` when CI sets it (else the test's tmp
folder; the path is printed). Hostile input shows as text and runs nothing; with JavaScript off
the page says so.

The server is the web application in this process, on a service core with the deterministic
stand-in model of the server tests (its parses, its probabilities) and real Prolog; the runs
viewer shows a real `ambit eval all` run against the in-process fake gRPC server.
"""

from __future__ import annotations

import itertools
import json
import os
import types
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from ambit.server.backends import worker_for  # noqa: E402
from ambit.server.service import AmbitCore  # noqa: E402
from tests.helpers.server import FakeBackend  # noqa: E402
from tests.paths import SHARED_DATA as DATA  # noqa: E402
from tests.web.chromium import CHROMIUM, Chromium  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed "
                                                                            "(.ci/setup.sh installs it)")]
VISITS = itertools.count()
HOSTILE = "<script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\">"


def _eval_run(out: Path) -> Path:
    """A real `ambit eval all` run (AmP zero-/few-shot, RADD) against the fake gRPC server."""
    from ambit.client.eval import cli
    from ambit.client.testing import FakeAmbitServicer, FakeServer

    srv = FakeServer(FakeAmbitServicer())
    saved = os.environ.get("AMBIT_DATA")
    try:
        os.environ["AMBIT_DATA"] = str(out / "no-data")  # absent: generated items
        assert cli.main(["all", "--out", str(out / "run"), "--server", srv.address,
                         "--limit", "2", "--types", "pp,scope", "--ratios", "0,1"]) == 0
    finally:
        os.environ.pop("AMBIT_DATA", None) if saved is None else os.environ.update(AMBIT_DATA=saved)
        srv.stop(0)
    return out / "run"


def _suite_runs(out: Path, run: Path) -> Path:
    """One run of every suite the viewer shows, under one folder: AmP zero-shot and few-shot and
    RADD (copies of `run`), implicature and FOLIO (against the fake server and FOLIO's gold
    translations, where the reference data is there)."""
    import shutil

    from ambit.client.eval import cli
    from ambit.client.testing import FakeAmbitServicer, FakeServer

    root = out / "suites"
    for name in ("amp-zeroshot", "amp-fewshot", "radd"):
        shutil.copytree(run / name, root / name)
    data = DATA if DATA.is_dir() else None
    if data is not None and (data / "implicature").is_dir():
        srv = FakeServer(FakeAmbitServicer())
        try:
            assert cli.main(["implicature", "--out", str(root / "implicature"), "--server", srv.address,
                             "--limit", "3", "--data", str(data)]) == 0
        finally:
            srv.stop(0)
    if data is not None and (data / "folio").is_dir():
        assert cli.main(["folio", "--oracle-translations", "--limit", "6", "--out", str(root / "folio"),
                         "--data", str(data)]) == 0
    return root


def _judged(summary: dict) -> tuple[int, int]:
    """(right, wrong) as the run's own summary counts its items."""
    suite = summary["suite"]
    right = total = 0.0
    if suite == "amp-zeroshot":  # the top-1 prediction matches LF0, or LF1
        for t in summary["by_type"].values():
            right += t["n"] * ((t["acc_lf0"] or 0) + (t["acc_lf1"] or 0))
            total += t["n"]
    elif suite == "amp-fewshot":
        for t in summary["by_type"].values():
            for ratio, n in t["n_by_ratio"].items():
                right += n * ((t["acc_lf0_by_ratio"][ratio] or 0) + (t["acc_lf1_by_ratio"][ratio] or 0))
                total += n
    elif suite == "radd":
        right, total = summary["n"] * summary["accuracy"], summary["n"]
    elif suite == "implicature":
        for block in summary["by_k"].values():
            per_template = block["answers"] / len(block["by_template"])
            right += sum(per_template * acc for acc in block["by_template"].values())
            total += block["answers"]
    elif suite == "folio":  # the voted label, over the examples the voted accuracy counts
        right, total = (summary["label_accuracy_voted"] or 0) * summary["voted_examples"], summary["voted_examples"]
    return round(right), round(total - right)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    root = Path(os.environ["AMBIT_ARTIFACTS"]) / "web" if os.environ.get("AMBIT_ARTIFACTS") else \
        tmp_path_factory.mktemp("screenshots")
    root.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots of the web pages: {root}")
    return root


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from ambit.web.serve import WebConfig, start

    out = tmp_path_factory.mktemp("eval")
    run = _eval_run(out)
    suites = _suite_runs(out, run)
    core = AmbitCore()
    core.attach_model(worker_for(FakeBackend(), 4, 0.001, 16), FakeBackend().info())
    web = start(types.SimpleNamespace(core=core, tokens=None), WebConfig(runs=(str(run), str(suites))))
    web.run_folder = run  # the runs viewer's folder, for the test that appends to a run
    web.suites = suites  # one run of every suite (the second --runs folder)
    yield web
    web.stop()
    core.worker.close()


@pytest.fixture(scope="module")
def browser():
    b = Chromium()
    yield b
    b.close()


def _open(browser: Chromium, server, page: str) -> None:
    browser.goto(f"{server.url}?visit={next(VISITS)}#{page}")  # a new query: a whole load, not a jump within the page
    browser.wait("document.body.dataset.ready === 'true'")
    assert browser.js(f"!document.getElementById('page-{page}').hidden")


def _looks_drawn(png: Path) -> None:
    import matplotlib.image as mpimg

    pixels = mpimg.imread(png)[..., :3]
    assert pixels.shape[0] > 200 and pixels.std() > 0.05, f"{png}: looks blank"


def test_formulas_page_draws_the_checked_countermodel(server, browser, shots):
    _open(browser, server, "formulas")
    browser.choose("#formulas-format", "fol")
    browser.type("#formulas-a", "forall x . exists y . boy(x) AND dog(y) AND saw(x, y)")
    browser.type("#formulas-b", "exists y . forall x . boy(x) AND dog(y) AND saw(x, y)")
    browser.click("#formulas-check")
    verdict = browser.wait("document.querySelector('#formulas-result [data-verdict]')?.dataset.verdict")
    assert verdict == "NOT_EQUIVALENT"
    assert browser.js("document.querySelector('#formulas-result [data-dir=ab]').textContent") == "no"
    assert browser.js("document.querySelector('#formulas-result [data-dir=ba]').textContent") == "yes"
    entities = browser.js("[...document.querySelectorAll('#formulas-result .countermodel td.entity')]"
                          ".map(e => e.textContent)")
    assert entities and all(e.startswith("d") for e in entities)
    assert browser.js("document.querySelectorAll('#formulas-result svg.diagram line').length") > 0
    _looks_drawn(browser.screenshot(shots / "formulas.png"))


def test_hostile_input_is_shown_as_text_and_runs_nothing(server, browser, shots):
    _open(browser, server, "formulas")
    browser.type("#formulas-a", HOSTILE)
    browser.type("#formulas-b", "javascript:alert(1)")
    browser.click("#formulas-check")
    message = browser.wait("document.querySelector('#formulas-result .error')?.textContent")
    assert "A:" in message or "a:" in message
    assert browser.js("window.__pwned") is None
    assert browser.js("document.querySelectorAll('main script, main img').length") == 0
    assert browser.js("document.querySelectorAll('a[href^=\"javascript:\"]').length") == 0
    browser.screenshot(shots / "hostile.png")


def test_story_page_highlights_the_premises_used(server, browser, shots):
    _open(browser, server, "story")
    browser.choose("#story-example", "0")
    browser.click("#story-check")
    assert browser.wait("document.querySelector('#story-result [data-verdict]')?.dataset.verdict") == "TRUE"
    used = browser.js("[...document.querySelectorAll('#story-result ol.premises li')].map(li => li.dataset.used)")
    assert used == ["true", "true", "false"]
    assert browser.js("document.querySelectorAll('#story-result ol.steps li').length") >= 2
    _looks_drawn(browser.screenshot(shots / "story.png"))
    browser.choose("#story-example", "1")
    browser.click("#story-check")
    assert browser.wait("document.querySelector('#story-result [data-verdict]')?.dataset.verdict") == "UNCERTAIN"
    assert browser.js("document.querySelectorAll('#story-result .countermodel td.entity').length") >= 2


def test_radd_page_shows_both_interpretations(server, browser, shots):
    _open(browser, server, "radd")
    browser.choose("#radd-example", "0")
    browser.click("#radd-check")
    assert browser.wait("document.querySelector('#radd-result [data-status]')?.dataset.status") == "one"
    verdicts = browser.js("[...document.querySelectorAll('#radd-result .interpretation [data-verdict]')]"
                          ".map(e => e.dataset.verdict).sort()")
    assert verdicts == ["consistent", "inconsistent"]
    assert browser.js("document.querySelectorAll('#radd-result li.used').length") >= 2
    _looks_drawn(browser.screenshot(shots / "radd.png"))


def test_sentence_page_parses_groups_and_explains(server, browser, shots):
    _open(browser, server, "sentence")
    browser.type("#sentence-utterance", "a man saw everyone")
    browser.click("#sentence-parse")
    rows = browser.wait("document.querySelectorAll('#sentence-result tr.reading').length")
    assert rows == 4
    classes = browser.js("document.querySelectorAll('#sentence-result .class').length")
    assert classes >= 2
    assert browser.js("document.querySelector('#sentence-result .class').textContent").count("lisp: (") == 1
    browser.click("#sentence-result .class button")
    assert browser.wait("document.querySelector('#sentence-result .class [data-verdict]')?.dataset.verdict") \
        == "EQUIVALENT"
    browser.wait("!!document.querySelector('#sentence-result .question')")
    _looks_drawn(browser.screenshot(shots / "sentence.png"))


def test_sentence_page_explains_an_amp_template(server, browser, shots):
    _open(browser, server, "sentence")
    examples = json.loads(browser.js("fetch('/api/examples').then(r => r.text())"))["amp"]
    scope = next(i for i, x in enumerate(examples) if x["type"] == "scope")
    browser.choose("#sentence-example", str(scope))
    browser.click("#sentence-explain")
    question = browser.wait("document.querySelector('#sentence-result span.question')?.textContent")
    assert question.startswith("Do you mean")
    assert browser.js("document.querySelectorAll('#sentence-result .situation td.entity').length") >= 2
    assert browser.js("document.querySelectorAll('#sentence-result .paraphrase').length") == 2
    _looks_drawn(browser.screenshot(shots / "explain.png"))


def test_runs_page_shows_a_finished_run(server, browser, shots):
    _open(browser, server, "runs")
    browser.wait("document.querySelector('#runs-select').options.length > 0")
    runs = browser.js("[...document.querySelector('#runs-select').options].map(o => o.value)")
    assert "0/amp-zeroshot" in runs and "0/radd" in runs
    browser.choose("#runs-select", "0/amp-zeroshot")
    browser.wait("document.querySelectorAll('#items-list tr.item').length > 0 && "
                 "document.querySelector('#runs-figures img')?.complete && "
                 "document.querySelector('#runs-figures img').naturalWidth > 0")
    assert browser.js("document.querySelectorAll('#runs-summary table').length") >= 1
    n = browser.js("document.querySelectorAll('#items-list tr.item').length")
    browser.choose("#items-type", "scope")
    browser.click("#items-apply")
    types = "[...document.querySelectorAll('#items-list tr.item td:nth-child(2)')].map(e => e.textContent)"
    browser.wait(f"(() => {{ const t = {types}; return t.length > 0 && t.length < {n} && t.every(x => x === 'scope'); }})()")
    assert browser.js("document.querySelector('#items-count').textContent").startswith("2 of 4 items")
    assert browser.js("document.querySelectorAll('#items-list .tok').length") > 0
    browser.click("#items-list tr.item button")
    assert '"id"' in browser.wait("document.querySelector('#items-record').textContent")
    browser.choose("#runs-compare", "0/amp-fewshot")  # two runs' summaries side by side
    assert "few-shot" in browser.wait("document.querySelector('#runs-compare-summary .summary')?.textContent")
    assert "zero-shot" in browser.js("document.querySelector('#runs-summary .summary').textContent")
    # a run still being written: a new record shows without a reload, the filter kept
    with open(server.run_folder / "amp-zeroshot" / "results.jsonl", "a") as fh:
        fh.write(json.dumps({"id": "scope/new", "type": "scope", "surface": "every cat saw a dog"}) + "\n")
    browser.wait("document.querySelector('#items-count').textContent.startsWith('3 of 5 items')")
    assert browser.js("document.querySelector('#runs-summary .progress') !== null")
    _looks_drawn(browser.screenshot(shots / "runs.png"))


def test_the_outcome_filter_agrees_with_each_suites_summary(server, browser, shots):
    """One run of every suite: the items the Outcome filter finds right and wrong are the counts
    the run's own summary.json gives (AmP by top-1 equivalence with a gold LF, RADD and
    implicature by their answers, FOLIO by the voted label)."""
    _open(browser, server, "runs")
    browser.wait("document.querySelector('#runs-select').options.length > 0")
    runs = [r for r in browser.js("[...document.querySelector('#runs-select').options].map(o => o.value)")
            if r.startswith("1/")]
    suites = {json.loads((server.suites / r[2:] / "summary.json").read_text())["suite"]: r for r in runs}
    assert {"amp-zeroshot", "amp-fewshot", "radd"} <= set(suites)
    if DATA.is_dir():
        assert {"implicature", "folio"} <= set(suites)
    seen = {}
    for suite, run in sorted(suites.items()):
        summary = json.loads((server.suites / run[2:] / "summary.json").read_text())
        browser.choose("#runs-select", run)
        browser.wait("document.querySelectorAll('#items-list tr.item').length > 0")
        counts = []
        for outcome in ("right", "wrong"):
            browser.choose("#items-outcome", outcome)
            browser.click("#items-apply")
            text = browser.wait(f"(() => {{ const t = document.querySelector('#items-count').textContent;"
                                f" const rows = [...document.querySelectorAll('#items-list tr.item td:nth-child(7)')];"
                                f" return rows.every(td => td.textContent === '{outcome}') && /^\\d+ of/.test(t)"
                                f" && document.querySelector('#items-list table') ? t : null; }})()")
            counts.append(int(text.split(" of ")[0]))
        browser.choose("#items-outcome", "")
        seen[suite] = tuple(counts)
        assert tuple(counts) == _judged(summary), (suite, counts, _judged(summary))
    assert seen["amp-zeroshot"][0] + seen["amp-zeroshot"][1] > 0  # AmP items are judged, not "–"
    assert seen["amp-fewshot"][0] + seen["amp-fewshot"][1] > 0
    browser.screenshot(shots / "runs-outcome.png")


def test_with_javascript_off_the_page_says_so(server, shots):
    b = Chromium(javascript=False)
    try:
        b.goto(server.url)
        html = b.html()
        assert 'id="noscript"' in html and "needs JavaScript" in html
        _looks_drawn(b.screenshot(shots / "noscript.png"))
    finally:
        b.close()
