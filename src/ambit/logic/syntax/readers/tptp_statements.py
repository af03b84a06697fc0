"""A TPTP file split into its `fof(...)` and `include(...)` statements, comments dropped: one regex
scan for the common shape, else character by character with the errors."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ambit.logic.syntax.tptp_include import TPTPProblemError


@dataclass(frozen=True)
class Statement:
    """One `fof(...)` or `include(...)` statement, and the line it starts on."""

    kind: str
    name: str
    role: str
    body: str
    line: int


_HEAD = re.compile(r"\s*([a-z_]+)\s*\(")


# The common shape, read in one scan: blanks and comments, then `fof(name, role, body).` (no quote,
# comment or `/` in the body) or `include('file').`. A body ends at the first `).` and is kept only
# when its parentheses balance, so both readings split a file alike.
_BLANKS = r"(?:[ \t\n\r\f\v]+|%[^\n]*|/\*(?:[^*]|\*+[^*/])*\*+/)*"
_FAST_STATEMENT = re.compile(
    _BLANKS + r"(fof\(([^,'\"%/()]*),([^,'\"%/()]*),([^'\"%/]*?)\)[ \t\n\r\f\v]*\."
    r"|include\([ \t\n\r\f\v]*('[^'\\\n%]*')[ \t\n\r\f\v]*\)[ \t\n\r\f\v]*\.)")
_FAST_TAIL = re.compile(_BLANKS + r"\Z")
_INNER_PAIR = re.compile(r"\([^()]*\)")
_FAST_NESTING = 64  # parentheses nested deeper than this: `statements`' own reading


def _balanced(body: str) -> bool:
    """Whether the parentheses of `body` balance (innermost pairs removed until none is left)."""
    for _ in range(_FAST_NESTING):
        if "(" not in body and ")" not in body:
            return True
        body, n = _INNER_PAIR.subn("", body)
        if not n:
            return False
    return False


def _fast_statements(text: str, checked: bool = True) -> list[Statement] | None:
    """A common-shape file's statements in one scan, else None (`checked`: balance checked)."""
    out: list[Statement] = []
    pos, line, counted = 0, 1, 0
    for m in _FAST_STATEMENT.finditer(text):
        start = m.start(1)
        if m.start() != pos:
            return None
        line += text.count("\n", counted, start)
        counted = start
        body = m.group(4)
        if body is not None:
            if checked and not _balanced(body):
                return None
            out.append(Statement("fof", m.group(2).strip(), m.group(3).strip(), body, line))
        else:
            out.append(Statement("include", m.group(5), "", "", line))
        pos = m.end()
    if pos != len(text) and _FAST_TAIL.match(text, pos) is None:
        return None
    return out


def statements(text: str, source: str = "<input>", quote: bool = True) -> list[Statement]:
    """The statements of a TPTP file; TPTPProblemError (`quote` False: not quoting the file)."""
    fast = _fast_statements(text)
    return fast if fast is not None else _read_statements(text, source, quote)


def _read_statements(text: str, source: str, quote: bool) -> list[Statement]:
    """`statements`, character by character: any file, with the errors."""
    out: list[Statement] = []
    i, n = 0, len(text)
    line, counted = 1, 0  # line numbers counted incrementally: linear in the file's size
    while i < n:
        i = _skip_blank(text, i, source)
        if i >= n:
            break
        line += text.count("\n", counted, i)
        counted = i
        m = _HEAD.match(text, i)
        if m is None:
            found = f", found {text[i:i + 20]!r}" if quote else ""
            raise TPTPProblemError(f"expected a statement such as fof(name, role, formula). here{found}",
                                   source, line)
        kind = m.group(1)
        if kind not in ("fof", "include"):
            from ambit.logic.syntax.readers.hints import statement_text

            why = statement_text(kind) if quote else "this statement is not read"
            raise TPTPProblemError(f"{why}; a problem file holds fof(name, role, formula). and include('file'). "
                                   "statements", source, line)
        end, i = _statement_end(text, m.end(), source, line)
        inner = _strip_comments(text[m.end():end])
        if kind == "include":
            out.append(Statement(kind, inner.strip().split(",")[0].strip(), "", "", line))
            continue
        parts = inner.split(",", 2)
        if len(parts) < 3:
            raise TPTPProblemError("fof(...) needs a name, a role and a formula", source, line)
        out.append(Statement(kind, parts[0].strip(), parts[1].strip(), parts[2], line))
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
    """The index of the `)` closing the statement, and the index past the `.` after it."""
    depth, n = 1, len(text)
    while i < n:
        c = text[i]
        if c in "'\"":
            i = _past_quoted(text, i)
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


def _past_quoted(text: str, i: int) -> int:
    """The index just past the quoted name whose quote is at `i` (a backslash escapes)."""
    q, j, n = text[i], i + 1, len(text)
    while j < n and text[j] != q:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _strip_comments(s: str) -> str:
    """`s` with `%` comments (to the end of the line) and `/* */` comments blanked, quoted names kept."""
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if c in "'\"":
            j = _past_quoted(s, i)
            out.append(s[i:j])
            i = j
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
