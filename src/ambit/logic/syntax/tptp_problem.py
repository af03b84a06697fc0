"""TPTP problem files: `fof(name, role, formula).` statements (a conjecture the conclusion, other
roles premises) and includes within tptp_include.py's `Limits`; errors name the file and line."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path

from ambit.logic.syntax.ast import Formula
from ambit.logic.errors import MAX_DEPTH, LFParseError
from ambit.logic.syntax.parse import parse
from ambit.logic.syntax.readers import gc_paused, tptp_read
from ambit.logic.syntax.readers.tptp_statements import (  # noqa: F401 (re-exported)
    Statement, _balanced, _fast_statements, _read_statements, statements)
from ambit.logic.syntax.reading import ReadingTimeLimit  # re-exported: `read_problem`'s deadline error
from ambit.logic.syntax.tptp_include import (  # the include names are re-exported (`__all__`)
    MAX_BYTES, MAX_INCLUDE_DEPTH, MAX_INCLUDES, Includes, Limits, TPTPProblemError, _decode, _FileError, _read_bytes,
)

PREMISE_ROLES = ("axiom", "hypothesis", "definition", "assumption", "lemma", "theorem", "corollary")
CONCLUSION_ROLE = "conjecture"

DEADLINE_EVERY = 256  # statements read between two looks at the deadline (a few ms of reading)


@dataclass(frozen=True)
class Problem:
    """The premises (name, formula) in file order, and the conclusion (name, formula) or None."""

    premises: list[tuple[str, Formula]]
    conclusion: tuple[str, Formula] | None


def read_problem(text: str, source: str = "<input>", root: Path | None = None, *,
                 max_chars: int | None = None, limits: Limits | None = None,
                 free_variables: str | None = None, deadline: float | None = None) -> Problem:
    """The problem in `text`, includes read under `root`; ReadingTimeLimit past `deadline`."""
    limits = limits or Limits()
    if max_chars is not None:
        limits = dataclasses.replace(limits, max_chars=max_chars)
    reader = _Reader(root, limits, len(text.encode("utf-8", "surrogatepass")))
    reader.free_variables = free_variables
    reader.deadline = deadline
    premises: list[tuple[str, Formula]] = []
    conclusions: list[tuple[str, Formula, str]] = []
    late = None
    with gc_paused():
        try:
            reader.collect(text, source, premises, conclusions)
        except ReadingTimeLimit as e:
            late = str(e)
    if late is not None:  # raised afresh, so that no frame of the reading keeps what it had read
        del reader, premises, conclusions
        raise ReadingTimeLimit(late)
    if len(conclusions) > 1:
        where = ", ".join(label for _, _, label in conclusions)
        raise TPTPProblemError(f"a problem has at most one conjecture; found {len(conclusions)}: {where}",
                               source, reader.second_conjecture_line)
    return Problem(premises, conclusions[0][:2] if conclusions else None)


def read_problem_file(path: str | Path, root: Path | None = None, *, max_chars: int | None = None,
                      limits: Limits | None = None, free_variables: str | None = None,
                      deadline: float | None = None) -> Problem:
    """:func:`read_problem` of the file at `path` (a pipe such as /dev/stdin, not a folder)."""
    limits = limits or Limits()
    text = read_text_file(path, limits.max_bytes)
    return read_problem(text, str(path), root, max_chars=max_chars, limits=limits, free_variables=free_variables,
                        deadline=deadline)


def read_text_file(path: str | Path, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of the file at `path`, at most `max_bytes`; else TPTPProblemError."""
    try:
        return _decode(_read_bytes(Path(path), max_bytes, regular_only=False))
    except _FileError as e:
        raise TPTPProblemError(str(e), str(path), 0) from None


def _fast_formula(body: str, terms: dict) -> Formula | None:
    """A short statement's formula when the fast reader reads it closed; None for `parse`."""
    if len(body) > MAX_DEPTH:
        return None
    try:
        f, free = tptp_read.read(body, terms)
    except tptp_read.Reject:
        return None
    return None if free else f


class _Reader:
    """One problem's reading: the limits, and its includes with what has been spent on them."""

    def __init__(self, root: Path | None, limits: Limits, spent_bytes: int) -> None:
        self.limits = limits
        self.inc = Includes(root, limits, spent_bytes)
        self.second_conjecture_line = 0
        self.free_variables: str | None = None  # how formulas read free variables (None: TPTP's way)
        self.statements = 0  # statements walked, repeats counted (limits.max_statements)
        self.deadline: float | None = None  # a time.monotonic() value: ReadingTimeLimit past it
        self.where = ""  # the file being read, for ReadingTimeLimit's message
        self.terms: dict = {}  # variables and constants by name, shared by the problem's formulas

    def collect(self, text: str, source: str, premises: list, conclusions: list) -> None:
        """The problem's own statements, then (recursively) those of its includes, in order."""
        if self.inc.bytes > self.limits.max_bytes:
            raise TPTPProblemError(f"the problem is {self.inc.bytes:,} bytes, over the limit of "
                                   f"{self.limits.max_bytes:,} bytes (--tptp-max-bytes)", source, 0)
        self._walk(self._entries(text, source, quote=True), source, True, premises, conclusions)

    def _entries(self, text: str, source: str, quote: bool) -> list:
        out: list = []
        self.where = source
        found, formulas = self._split(text, source, quote)
        for k, st in enumerate(found):
            if k % DEADLINE_EVERY == 0:
                self._in_time()
            if st.kind == "include":
                out.append(("include", st))
                continue
            what = f"fof({st.name}, {st.role}, ...)" if quote else "the formula of this statement"
            body = st.body.strip()
            max_chars = self.limits.max_chars
            if max_chars is not None and len(body) > max_chars:
                raise TPTPProblemError(f"{what} has {len(body):,} characters, over --max-chars {max_chars}",
                                       source, st.line)
            if st.role not in PREMISE_ROLES and st.role != CONCLUSION_ROLE:
                role = f"role {st.role!r} of fof({st.name}, ...)" if quote else "the role of this statement"
                raise TPTPProblemError(f"{role} is not read here; expected {', '.join(PREMISE_ROLES)} "
                                       f"(premises) or {CONCLUSION_ROLE}", source, st.line)
            f = formulas[k]
            if f is None:
                try:
                    f = parse(st.body, "tptp", free_variables=self.free_variables)
                except LFParseError as e:
                    if quote:
                        raise TPTPProblemError(f"fof({st.name}, {st.role}, ...): {e}", source, st.line) from None
                    expected = f"; expected one of: {', '.join(e.expected)}" if e.expected else ""
                    raise TPTPProblemError(f"the formula of this statement does not parse ({e.kind} at character "
                                           f"{e.column} of the formula){expected}", source, st.line) from None
            out.append(("fof", st.name, st.role, f, st.line))
        return out

    def _split(self, text: str, source: str, quote: bool) -> tuple[list[Statement], list[Formula | None]]:
        """The file's statements (at most `max_statements`) and each formula the fast reader read
        (None: `parse` reads it); a body it rejects must balance, else `statements` splits."""
        found = _fast_statements(text, checked=False)
        formulas: list[Formula | None] = []
        if found is not None:
            if len(found) > self.limits.max_statements:
                self._over(source)
            for k, st in enumerate(found):
                if k % DEADLINE_EVERY == 0:
                    self._in_time()
                f = _fast_formula(st.body, self.terms) if st.kind == "fof" else None
                if f is None and st.kind == "fof" and not _balanced(st.body):
                    found = None
                    break
                formulas.append(f)
        if found is None:  # the one scan did not split it: character by character, with the errors
            found = _read_statements(text, source, quote)
            formulas = [None] * len(found)
        if len(found) > self.limits.max_statements:  # refused before a formula is parsed: parsing is what costs
            self._over(source)
        return found, formulas

    def _in_time(self) -> None:
        """ReadingTimeLimit once the reading's deadline has passed (`time` is patched in tests)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ReadingTimeLimit(f"reading the problem took longer than its time limit (at {self.where})")

    def _over(self, source: str) -> None:
        raise TPTPProblemError(f"more than {self.limits.max_statements:,} statements in one problem "
                               "(repeats counted; --tptp-max-statements)", source, 0)

    def _walk(self, entries: list, source: str, quote: bool, premises: list, conclusions: list) -> None:
        self.statements += sum(1 for e in entries if e[0] == "fof")  # each time a file is included
        if self.statements > self.limits.max_statements:
            self._over(source)
        for entry in entries:
            if entry[0] == "include":
                self._include(entry[1], source, quote, premises, conclusions)
                continue
            _, name, role, f, line = entry
            if role in PREMISE_ROLES:
                premises.append((name, f))
            else:
                if conclusions and not self.second_conjecture_line:
                    self.second_conjecture_line = line if quote else 0
                conclusions.append((name, f, f"{name} (line {line})" if quote else f"line {line} of {source}"))

    def _include(self, st: Statement, source: str, quote: bool, premises: list, conclusions: list) -> None:
        # looked up per include: tests/logic/syntax/test_tptp_include_bounds.py spies on it
        with self.inc.follow(st.name, st.line, source, quote, lambda text, path: self._entries(text, path, quote=False),
                             _read_bytes) as (path, entries):
            self._walk(entries, str(path), False, premises, conclusions)


__all__ = ["CONCLUSION_ROLE", "DEADLINE_EVERY", "MAX_BYTES", "MAX_INCLUDES", "MAX_INCLUDE_DEPTH", "PREMISE_ROLES",
           "Limits", "Problem", "ReadingTimeLimit", "Statement", "TPTPProblemError", "read_problem", "read_problem_file", "read_text_file", "statements"]
