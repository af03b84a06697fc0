"""The documentation site builds with `mkdocs build --strict` (every page in the nav, every link
and anchor resolved, the API page collected from the docstrings), into a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.paths import REPO


def test_mkdocs_build_strict(tmp_path):
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        pytest.importorskip(module, reason=f"{module} not installed (pip install -e '.[docs]')")
    site = tmp_path / "site"
    in_repo = (REPO / "site").exists()
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"mkdocs build --strict failed:\n{r.stdout[-6000:]}\n{r.stderr[-6000:]}"
    assert (site / "index.html").is_file() and (site / "api" / "index.html").is_file()
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    for anchor in ("ambit.equivalent", "ambit.Client", "ambit.logic.decide_batch", "ambit.logic.engine.verdict.Verdict"):
        assert f'id="{anchor}"' in api, f"the API page lacks {anchor}"
    assert (REPO / "site").exists() == in_repo, "the build wrote site/ into the repository"
    # the package docstring's example is a code block, not nested quotes with its lines run together
    assert "<blockquote>\n<blockquote>" not in api
    example = api[api.index("&gt;&gt;&gt;"):][:2000]
    assert "<code" in api[api.index("&gt;&gt;&gt;") - 600:api.index("&gt;&gt;&gt;")] and "EQUIVALENT" in example
