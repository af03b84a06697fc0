"""The TPTP include race (issue 45, attack 7): a middle folder swapped for a symbolic link to a
folder outside the root between the check of an include and its open. Each include is opened
through the file layer's walk from the root, one component at a time with O_NOFOLLOW, so no read
ever loads the file outside (before: 578 escapes in about 20,000 tries)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambit.logic.syntax.tptp_problem import TPTPProblemError, read_problem
from tests.helpers import races

GOAL = "fof(g, conjecture, p).\n"


def test_a_folder_swapped_for_a_link_never_lets_an_include_out(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "Axioms").mkdir(parents=True)
    (root / "Axioms" / "x.ax").write_text("fof(inside, axiom, p).\n")
    (tmp_path / "evil").mkdir()
    (tmp_path / "evil" / "x.ax").write_text("fof(outside, axiom, p).\n")

    def read() -> str:
        premises = read_problem("include('Axioms/x.ax').\n" + GOAL, "p.p", root).premises
        return ",".join(name for name, _f in premises)

    names = races.swap_while_reading(root / "Axioms", tmp_path / "evil", read, refusals=(TPTPProblemError,))
    assert not any("outside" in name for name in names), names
    assert names["inside"] > 0 and names["refused"] > 0, names


def test_statements_are_bounded_before_they_are_parsed(tmp_path: Path) -> None:
    """A 150,000-statement include took 99 s to parse; statements are counted (repeats too) and a
    file with more than the bound is refused before its first formula is parsed."""
    from ambit.logic.syntax.tptp_include import Limits

    bound = 10_000  # the default (MAX_STATEMENTS, 1,000,000) lies past the default byte limit
    root = tmp_path / "root"
    root.mkdir()
    (root / "big.ax").write_text("".join(f"fof(a{i}, axiom, p{i}).\n" for i in range(bound + 1)))
    (root / "sixty.ax").write_text("".join(f"fof(b{i}, axiom, q{i}).\n" for i in range(60)))
    with pytest.raises(TPTPProblemError, match=f"big.ax: more than {bound:,} statements in one problem"):
        read_problem("include('big.ax').\n" + GOAL, "p.p", root, limits=Limits(max_statements=bound))
    twice = "include('sixty.ax').\ninclude('sixty.ax').\n" + GOAL
    assert len(read_problem(twice, "p.p", root, limits=Limits(max_statements=121)).premises) == 120
    with pytest.raises(TPTPProblemError, match=r"more than 100 statements in one problem \(repeats counted"):
        read_problem(twice, "p.p", root, limits=Limits(max_statements=100))
