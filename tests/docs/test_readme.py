"""README.md stays a short entry point: under 250 lines, opening with the two set-up commands,
the second of which is exactly what CI runs (.ci/run); its relative links resolve."""

from __future__ import annotations

import re

from tests.docs.markdown_blocks import blocks, split_comment
from tests.paths import REPO

README = REPO / "README.md"
MAIN_JOB = "bash .ci/setup.sh && .venv/bin/ambit eval all --limit 1 --ratios 0,0.5,1 --out out/demo"
TEST_SUITE = "bash .ci/setup.sh && .venv/bin/python -m pytest -q"
MAX_LINES = 250


def test_readme_is_short():
    n = len(README.read_text(encoding="utf-8").splitlines())
    assert n < MAX_LINES, f"README.md has {n} lines; move detail into docs/ (limit {MAX_LINES})"


def test_readme_opens_with_the_two_setup_commands():
    text = README.read_text(encoding="utf-8")
    first = blocks(README)[0]
    before = text.splitlines()[: first.line - 1]
    assert [line for line in before if line.strip()] == ["# ambit"], "the set-up block must follow the title"
    assert first.lang == "bash"
    lines = [line for line in first.code.splitlines() if line.strip()]
    assert [split_comment(line)[0] for line in lines] == [MAIN_JOB, TEST_SUITE]
    assert [split_comment(line)[1] for line in lines] == [
        "main job: every suite, embedded default model",
        "the test suite (what CI runs)",
    ]


def test_ci_runs_exactly_the_readme_test_command():
    readme_test = split_comment(blocks(README)[0].code.splitlines()[1])[0]
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [line.strip() for line in run if line.strip() and not line.lstrip().startswith("#")]
    test_lines = [c for c in commands if "pytest" in c]
    assert test_lines == [readme_test], f".ci/run runs {test_lines}, the README says {readme_test!r}"


def test_readme_links_resolve():
    text = README.read_text(encoding="utf-8")
    missing = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        if not (REPO / target.split("#", 1)[0]).exists():
            missing.append(target)
    assert not missing, f"README.md links to missing files: {missing}"
