"""NLTK's own inference doctests (they ship inside the nltk package, `nltk/test/*.doctest`) as
data: run with ambit's Prover and ModelBuilder in place of Prover9 and Mace (`run_doctest`), and
the claims of those that cannot run here read from their text (`resolution_claims`,
`discourse_claims`). Shared by tests/nltk/test_doctests.py and benchmarks/nltk_bench.py.
"""

from __future__ import annotations

import doctest
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

# `grammars/sample_grammars/background0.fol` of nltk_data (not installable here), written from the
# doctest's own listing of it (inference.doctest prints its five formulas)
BACKGROUND0 = """all x.(boxerdog(x) -> dog(x))
all x.(boxer(x) -> person(x))
all x.-(dog(x) & person(x))
exists x.boxer(x)
exists x.boxerdog(x)
"""


def text(name: str) -> str:
    """The doctest file `name` (`inference.doctest`, ...) as the installed NLTK ships it."""
    return resources.files("nltk.test").joinpath(name).read_text(encoding="utf-8")


def data_dir(root: Path) -> Path:
    """An nltk_data folder under `root` with the one data file inference.doctest loads."""
    path = root / "grammars" / "sample_grammars" / "background0.fol"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(BACKGROUND0, encoding="utf-8")
    return root


@dataclass
class Outcome:
    """One example of a doctest: its source, what NLTK documents, what ran, whether they agree."""

    line: int
    source: str
    want: str
    got: str
    ok: bool


class _Recorder(doctest.DocTestRunner):
    def __init__(self) -> None:
        super().__init__(optionflags=FLAGS, verbose=False)
        self.outcomes: list[Outcome] = []

    def report_start(self, out, test, example):
        pass

    def report_success(self, out, test, example, got):
        self.outcomes.append(Outcome(example.lineno + 1, example.source.strip(), example.want, got, True))

    def report_failure(self, out, test, example, got):
        self.outcomes.append(Outcome(example.lineno + 1, example.source.strip(), example.want, got, False))

    def report_unexpected_exception(self, out, test, example, exc_info):
        got = "".join(doctest.traceback.format_exception_only(*exc_info[:2]))
        self.outcomes.append(Outcome(example.lineno + 1, example.source.strip(), example.want, got, False))


def run_doctest(name: str) -> list[Outcome]:
    """Every example of NLTK's doctest `name`, run in order (as `python -m doctest` would), and
    each one's outcome. The caller replaces Prover9 and Mace (ambit.nltk.patched()) and the
    doctest's binary check."""
    test = doctest.DocTestParser().get_doctest(text(name), {"__name__": "__main__"}, name, name, 0)
    runner = _Recorder()
    runner.run(test, clear_globs=True)
    return runner.outcomes


# --------------------------------------------------------------------------- claims read from the text


@dataclass(frozen=True)
class Claim:
    """A documented answer: whether `goal` follows from `assumptions` (`kind` "proves"), or
    whether `assumptions` have a model (`kind` "model"); `expected` as the doctest states it."""

    source: str
    kind: str
    goal: str | None
    assumptions: tuple[str, ...]
    expected: bool


def _exprs(t: str) -> dict[str, str]:
    """name -> formula for every `name = read_expr('...')` / `read_expr(r'...')` of a doctest."""
    return {m.group(1): m.group(3) for m in re.finditer(r">>> (\w+) = read_expr\((r?)'([^']*)'\)", t)}


def resolution_claims() -> list[Claim]:
    """resolution.doctest's claims of `ResolutionProverCommand(goal[, assumptions]).prove()`:
    each goal, its assumptions (the names last bound before it) and the documented answer."""
    t = text("resolution.doctest")
    claims = []
    bound: dict[str, str] = {}
    lines = t.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"\s*>>> (\w+) = read_expr\((r?)'([^']*)'\)", line)
        if m:
            bound[m.group(1)] = m.group(3)
            continue
        m = re.match(r"\s*>>> (?:print\()?ResolutionProverCommand\((.*)\)\.prove\(\)\)?\s*$", line)
        if not m:
            continue
        args = m.group(1)
        goal_m = re.match(r"read_expr\('([^']*)'\)$", args)
        if goal_m:
            goal, assumptions = goal_m.group(1), ()
        else:
            g, _, rest = args.partition(", ")
            goal, assumptions = bound[g], tuple(bound[a.strip()] for a in rest.strip("[]").split(","))
        claims.append(Claim(line.strip(), "proves", goal, assumptions, lines[i + 1].strip() == "True"))
    return claims


def discourse_claims() -> list[Claim]:
    """discourse.doctest's claims of consistency (its `Consistent discourse` and `Inconsistent
    discourse` blocks, each listing its thread's readings; the background knowledge the doctest
    lists with `dt.background()` holds from where it is added) and of informativity (`Not
    informative relative to thread 'd0'`: the sentence's reading follows from the thread's)."""
    t = text("discourse.doctest")
    background_at = t.index(">>> dt.add_background(bg)")
    listing = t[t.index(">>> dt.background()"):].split("\n\n", 1)[0].splitlines()[1:]
    background = tuple(line.strip() for line in listing)
    claims = []
    for m in re.finditer(r"(Consistent|Inconsistent) discourse: (d\d+) \[[^\]]*\]:\n((?:\s+s\d+-r\d+: .*\n)+)", t):
        readings = tuple(r.split(": ", 1)[1].strip() for r in m.group(3).strip().splitlines())
        both = readings + (background if m.start() > background_at else ())
        claims.append(Claim(f"{m.group(1)} discourse: {m.group(2)} {readings}", "model", None, both,
                            m.group(1) == "Consistent"))
    m = re.search(r"Sentence '([^']*)' under reading '([^']*)':\s*\n\s*Not informative relative to thread 'd0'", t)
    assert m is not None, "discourse.doctest no longer states its informativity check"
    # the thread d0 before it: the readings its next `dt.models()` lists, less the new sentence's
    after = re.search(r"Consistent discourse: d0 \[[^\]]*\]:\n((?:\s+s\d+-r\d+: .*\n)+)", t[m.end():])
    readings = [r.split(": ", 1)[1].strip() for r in after.group(1).strip().splitlines()][:-1]
    claims.append(Claim(f"{m.group(1)!r} not informative", "proves", m.group(2), tuple(readings), True))
    return claims


def doctest_claims() -> list[Claim]:
    """The claims of inference.doctest and nonmonotonic.doctest made by a Prover9Command built
    on a goal and a list of assumptions and asked `prove()` before anything changes its
    assumptions (for timing: the doctests themselves run in tests/nltk/test_doctests.py)."""
    out = []
    for name in ("inference.doctest", "nonmonotonic.doctest"):
        bound: dict[str, str] = {}
        pending: tuple[str, tuple[str, ...]] | None = None
        lines = text(name).splitlines()
        for line, nxt in zip(lines, lines[1:] + [""]):
            m = re.match(r"\s*>>> (\w+) = read_expr\((r?)'([^']*)'\)", line)
            if m:
                bound[m.group(1)] = m.group(3)
                continue
            m = re.match(r"\s*>>> prover = Prover9Command\((\w+)(?:, (?:assumptions=)?\[([\w, ]*)\])?\)\s*$", line)
            if m:
                names = [a.strip() for a in (m.group(2) or "").split(",") if a.strip()]
                ok = m.group(1) in bound and all(a in bound for a in names)
                pending = (bound[m.group(1)], tuple(bound[a] for a in names)) if ok else None
            elif re.match(r"\s*>>> prover\.(add|retract)_assumptions", line):
                pending = None
            elif pending and re.match(r"\s*>>> (?:print\()?prover\.prove\(\)\)?\s*$", line) and \
                    nxt.strip() in ("True", "False"):
                out.append(Claim(f"{name}: {line.strip()}", "proves", pending[0], pending[1], nxt.strip() == "True"))
                pending = None
    return out


__all__ = ["BACKGROUND0", "Claim", "FLAGS", "Outcome", "data_dir", "discourse_claims", "doctest_claims",
           "resolution_claims", "run_doctest", "text"]
