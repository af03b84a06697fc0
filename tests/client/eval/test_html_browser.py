"""Every HTML report ambit writes, rendered by headless Chromium: the DOM holds the expected
elements, the page fits its width, and the screenshot is not blank. The reports come from a
real `client eval all` run against the in-process fake server (no reference data needed)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import matplotlib.image as mpimg
import pytest

from ambit.client.eval import cli
from ambit.client.eval.store import read_records
from ambit.client.testing import FakeAmbitServicer, FakeServer

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH = 900
# appended to a copy of each page: records whether anything is wider than the window
MEASURE = ("<script>document.body.dataset.overflow = "
           "String(document.documentElement.scrollWidth > window.innerWidth);</script>")


def _chromium(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--window-size={WIDTH},1200", *args], capture_output=True, text=True, timeout=120)


def _reports(out: Path) -> list[Path]:
    srv = FakeServer(FakeAmbitServicer())
    saved = os.environ.get("AMBIT_DATA")
    try:
        os.environ["AMBIT_DATA"] = str(out / "no-data")  # the default root, absent: generated items
        assert cli.main(["all", "--out", str(out), "--server", srv.address,
                         "--limit", "2", "--types", "pp,scope", "--ratios", "0,1"]) == 0
    finally:
        os.environ.pop("AMBIT_DATA", None) if saved is None else os.environ.update(AMBIT_DATA=saved)
        srv.stop(0)
    return sorted(out.rglob("*.html"))


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (.ci/setup.sh installs it)")
def test_every_html_report_renders_in_chromium(tmp_path):
    pages = _reports(tmp_path / "run")
    assert {p.relative_to(tmp_path / "run").as_posix() for p in pages} == {
        "amp-zeroshot/fig4_tokens.html", "amp-fewshot/fig4_tokens.html"}
    for page in pages:
        probe = tmp_path / f"{page.parent.name}.html"
        probe.write_text(page.read_text().replace("</body>", MEASURE + "</body>"))
        dom = _chromium("--dump-dom", probe.as_uri())
        assert dom.returncode == 0, dom.stderr[-2000:]
        html = dom.stdout
        assert 'data-overflow="false"' in html, f"{page}: wider than {WIDTH}px"
        records = len(read_records(page.parent))
        assert html.count('class="item"') == records > 0 and 'class="legend"' in html
        # the paper's Fig. 4 first: a block per type (the fake's parses match neither LF: no rows)
        assert html.count('class="item fig4"') == 2 and "no item's top prediction is LF0 or LF1" in html
        assert html.count('class="row"') == 3 * records  # predicted, LF0, LF1
        assert "LF0 (P=" in html and "LF1 (P=" in html and html.count('class="p"') >= html.count('class="tok"') > 0
        shot = tmp_path / f"{page.parent.name}.png"
        r = _chromium(f"--screenshot={shot}", page.as_uri())
        assert r.returncode == 0 and shot.exists(), r.stderr[-2000:]
        pixels = mpimg.imread(shot)[..., :3]
        assert pixels.shape[1] == WIDTH
        assert pixels.std() > 0.05, f"{page}: screenshot looks blank"
        assert (pixels.min(axis=2) < 0.9).mean() > 0.02, f"{page}: almost nothing drawn"
