"""TPTP problem files as TPTP users write them: `%` and `/* */` comments, formulas over several
lines, `fof(name, role, formula).` statements whose role says what they are, and `include`.

Roles: axiom, hypothesis, definition, assumption, lemma, theorem and corollary are premises; a
conjecture is the conclusion (at most one per problem). `include('Axioms/X.ax').` is read only
under a TPTP root given by the caller (`--tptp-root`), and only files inside it; otherwise it is
refused with a message saying so. Each formula is read by the `tptp` dialect (logic/parse.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .ast import Formula
from .errors import LFParseError
from .parse import parse

PREMISE_ROLES = ("axiom", "hypothesis", "definition", "assumption", "lemma", "theorem", "corollary")
CONCLUSION_ROLE = "conjecture"
MAX_INCLUDE_DEPTH = 16


class TPTPProblemError(ValueError):
    """A problem file that cannot be read as a problem: where (`source`, `line`) and why."""

    def __init__(self, message: str, source: str, line: int) -> None:
        super().__init__(f"{source}:{line}: {message}")
        self.source, self.line = source, line


@dataclass(frozen=True)
class Statement:
    """One `fof(...)` or `include(...)` statement: its kind, name, role and body text, and the
    line of the file it starts on."""

    kind: str
    name: str
    role: str
    body: str
    line: int


@dataclass(frozen=True)
class Problem:
    """The premises (name, formula) in file order, and the conclusion (name, formula) or None."""

    premises: list[tuple[str, Formula]]
    conclusion: tuple[str, Formula] | None


_HEAD = re.compile(r"\s*([a-z_]+)\s*\(")


def statements(text: str, source: str = "<input>") -> list[Statement]:
    """The statements of a TPTP file, comments dropped; TPTPProblemError for one that does not
    end (`).`) or is not `fof`/`include`."""
    out: list[Statement] = []
    i, n = 0, len(text)
    while i < n:
        i = _skip_blank(text, i, source)
        if i >= n:
            break
        line = text.count("\n", 0, i) + 1
        m = _HEAD.match(text, i)
        if m is None:
            raise TPTPProblemError(f"expected a statement such as fof(name, role, formula). here, found "
                                   f"{text[i:i + 20]!r}", source, line)
        kind = m.group(1)
        if kind not in ("fof", "include"):
            raise TPTPProblemError(f"{kind}(...) is not read here: only fof(name, role, formula). and "
                                   "include('file').", source, line)
        end, i = _statement_end(text, m.end(), source, line)
        inner = _strip_comments(text[m.end():end])
        if kind == "include":
            out.append(Statement(kind, inner.strip().split(",")[0].strip(), "", "", line))
            continue
        parts = inner.split(",", 2)
        if len(parts) < 3:
            raise TPTPProblemError("fof(...) needs a name, a role and a formula", source, line)
        name, role, body = parts[0].strip(), parts[1].strip(), parts[2]
        out.append(Statement(kind, name, role, body, line))
    return out


def _skip_blank(text: str, i: int, source: str) -> int:
    """Past white space and comments from `i`."""
    n = len(text)
    while i < n:
        if text[i].isspace():
            i += 1
        elif text[i] == "%":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise TPTPProblemError("a /* comment is not closed", source, text.count("\n", 0, i) + 1)
            i = j + 2
        else:
            break
    return i


def _statement_end(text: str, i: int, source: str, line: int) -> tuple[int, int]:
    """The index of the `)` that closes the statement opened before `i`, and the index just past
    the `.` that must follow it (quoted names, `%` and `/* */` comments skipped)."""
    depth, n = 1, len(text)
    while i < n:
        c = text[i]
        if c in "'\"":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "%":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                k = _skip_blank(text, i + 1, source)
                if k < n and text[k] == ".":
                    return i, k + 1
                raise TPTPProblemError("a statement must end with ').'", source, line)
        i += 1
    raise TPTPProblemError("this statement does not end: no closing ').'", source, line)


def _strip_comments(s: str) -> str:
    """`s` with `%` comments (to the end of the line) and `/* */` comments blanked, quoted names kept."""
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if c in "'\"":
            j = i + 1
            while j < n and s[j] != c:
                j += 2 if s[j] == "\\" else 1
            out.append(s[i:j + 1])
            i = j + 1
        elif c == "%":
            j = s.find("\n", i)
            i = n if j < 0 else j
        elif s.startswith("/*", i):
            j = s.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_problem(text: str, source: str = "<input>", root: Path | None = None) -> Problem:
    """The problem in `text`: premises and conclusion by role, includes read under `root`."""
    premises: list[tuple[str, Formula]] = []
    conclusions: list[tuple[str, Formula, int]] = []
    _collect(text, source, root, premises, conclusions, 0)
    if len(conclusions) > 1:
        names = ", ".join(f"{n} (line {ln})" for n, _, ln in conclusions)
        raise TPTPProblemError(f"a problem has at most one conjecture; found {len(conclusions)}: {names}",
                               source, conclusions[1][2])
    return Problem(premises, conclusions[0][:2] if conclusions else None)


def _collect(text: str, source: str, root: Path | None, premises: list, conclusions: list, depth: int) -> None:
    for st in statements(text, source):
        if st.kind == "include":
            _include(st, source, root, premises, conclusions, depth)
            continue
        try:
            f = parse(st.body, "tptp")
        except LFParseError as e:
            raise TPTPProblemError(f"fof({st.name}, {st.role}, ...): {e}", source, st.line) from None
        if st.role in PREMISE_ROLES:
            premises.append((st.name, f))
        elif st.role == CONCLUSION_ROLE:
            conclusions.append((st.name, f, st.line))
        else:
            raise TPTPProblemError(f"role {st.role!r} of fof({st.name}, ...) is not read here; expected "
                                   f"{', '.join(PREMISE_ROLES)} (premises) or {CONCLUSION_ROLE}", source, st.line)


def _include(st: Statement, source: str, root: Path | None, premises: list, conclusions: list, depth: int) -> None:
    name = st.name.strip("'\"")
    if root is None:
        raise TPTPProblemError(f"include('{name}') is refused: pass --tptp-root DIR to read includes "
                               "from that folder", source, st.line)
    if depth >= MAX_INCLUDE_DEPTH:
        raise TPTPProblemError(f"includes nested deeper than {MAX_INCLUDE_DEPTH}", source, st.line)
    base = root.resolve()
    path = (base / name).resolve()
    if not path.is_relative_to(base):
        raise TPTPProblemError(f"include('{name}') is outside the TPTP root {base}", source, st.line)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise TPTPProblemError(f"include('{name}'): cannot read {path}: {e.strerror}", source, st.line) from None
    _collect(text, str(path), root, premises, conclusions, depth + 1)


__all__ = ["CONCLUSION_ROLE", "PREMISE_ROLES", "Problem", "Statement", "TPTPProblemError", "read_problem",
           "statements"]
