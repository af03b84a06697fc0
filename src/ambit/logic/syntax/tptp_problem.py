"""TPTP problem files as TPTP users write them: `%` and `/* */` comments, formulas over several
lines, `fof(name, role, formula).` statements whose role says what they are, and `include`.

Roles: axiom, hypothesis, definition, assumption, lemma, theorem and corollary are premises; a
conjecture is the conclusion (at most one per problem). `include('Axioms/X.ax').` is read only
under a TPTP root given by the caller (`--tptp-root`), and only files inside it; otherwise it is
refused with a message saying so. Each formula is read by the `tptp` dialect (logic/syntax/parse.py).

Includes are bounded (:class:`Limits`): the include statements followed in all (a file included
twice counts twice, and is read once), the bytes they bring in, and how deep they nest. Only
regular files inside the root are opened (no `..`, no absolute name, no symbolic link that leads
out; a FIFO, a device or a folder is refused without being read), as UTF-8, and every formula of
every file is held to `max_chars`. Errors name the file and the line, and never quote the
content of an included file: a root such as /etc must not be read back through error messages.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ambit.logic.syntax.ast import Formula
from ambit.logic.errors import LFParseError
from ambit.logic.syntax.parse import parse

PREMISE_ROLES = ("axiom", "hypothesis", "definition", "assumption", "lemma", "theorem", "corollary")
CONCLUSION_ROLE = "conjecture"
MAX_INCLUDE_DEPTH = 16  # includes inside includes
MAX_INCLUDES = 256  # include statements followed in one problem, repeats counted
MAX_BYTES = 8 * 2 ** 20  # bytes of the problem file and of every include (repeats counted), in all
_CHUNK = 1 << 16
_O_CLOEXEC, _O_NONBLOCK, _O_NOFOLLOW = (getattr(os, f, 0) for f in ("O_CLOEXEC", "O_NONBLOCK", "O_NOFOLLOW"))


@dataclass(frozen=True)
class Limits:
    """Bounds on reading one problem: `max_chars` per formula (None: no bound), include
    statements followed (`max_includes`), bytes brought in (`max_bytes`: the problem file plus
    each included file each time it is included), and include nesting (`max_depth`)."""

    max_chars: int | None = None
    max_includes: int = MAX_INCLUDES
    max_bytes: int = MAX_BYTES
    max_depth: int = MAX_INCLUDE_DEPTH


class TPTPProblemError(ValueError):
    """A problem file that cannot be read as a problem: where (`source`, `line`) and why."""

    def __init__(self, message: str, source: str, line: int) -> None:
        super().__init__(f"{source}:{line}: {message}" if line else f"{source}: {message}")
        self.source, self.line = source, line  # line 0: the file as a whole


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


def statements(text: str, source: str = "<input>", quote: bool = True) -> list[Statement]:
    """The statements of a TPTP file, comments dropped; TPTPProblemError for one that does not
    end (`).`) or is not `fof`/`include`. With `quote` False (an included file) no error
    message shows the file's text."""
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
            what = f"{kind}(...) is" if quote else "this statement is"
            raise TPTPProblemError(f"{what} not read here: only fof(name, role, formula). and "
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


def read_problem(text: str, source: str = "<input>", root: Path | None = None, *,
                 max_chars: int | None = None, limits: Limits | None = None,
                 free_variables: str | None = None) -> Problem:
    """The problem in `text`: premises and conclusion by role, includes read under `root`
    within `limits` (`max_chars`, when given, overrides the limits' bound per formula); free
    variables read as `free_variables` says (None: TPTP's reading, closed under !)."""
    limits = limits or Limits()
    if max_chars is not None:
        limits = Limits(max_chars, limits.max_includes, limits.max_bytes, limits.max_depth)
    reader = _Reader(root, limits, len(text.encode("utf-8", "surrogatepass")))
    reader.free_variables = free_variables
    premises: list[tuple[str, Formula]] = []
    conclusions: list[tuple[str, Formula, str]] = []
    reader.collect(text, source, premises, conclusions)
    if len(conclusions) > 1:
        where = ", ".join(label for _, _, label in conclusions)
        raise TPTPProblemError(f"a problem has at most one conjecture; found {len(conclusions)}: {where}",
                               source, reader.second_conjecture_line)
    return Problem(premises, conclusions[0][:2] if conclusions else None)


def read_problem_file(path: str | Path, root: Path | None = None, *, max_chars: int | None = None,
                      limits: Limits | None = None, free_variables: str | None = None) -> Problem:
    """:func:`read_problem` of the file at `path`, read within the same byte limit (a file given
    on the command line may be a pipe, such as /dev/stdin, but not a folder)."""
    limits = limits or Limits()
    text = read_text_file(path, limits.max_bytes)
    return read_problem(text, str(path), root, max_chars=max_chars, limits=limits, free_variables=free_variables)


def read_text_file(path: str | Path, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of the file at `path` (a folder refused, at most `max_bytes` read);
    TPTPProblemError naming the file, and the line and byte where it is not UTF-8."""
    try:
        return _decode(_read_bytes(Path(path), max_bytes, regular_only=False))
    except _FileError as e:
        raise TPTPProblemError(str(e), str(path), 0) from None


class _FileError(Exception):
    """Why a file cannot be read, without its path (the caller names it), never its content."""


@dataclass
class _Included:
    """One file read under the root: its statements' formulas parsed once, however often it is
    included, and its size, which each include of it spends again."""

    size: int
    entries: list = field(default_factory=list)  # ("fof", name, role, formula, line) or ("include", Statement)


class _Reader:
    """One problem's reading: the root, the limits and what has been spent on them."""

    def __init__(self, root: Path | None, limits: Limits, spent_bytes: int) -> None:
        self.root = root
        self.base = root.resolve() if root is not None else None
        self.limits = limits
        self.includes = 0
        self.bytes = spent_bytes
        self.files: dict[Path, _Included] = {}
        self.stack: list[Path] = []
        self.second_conjecture_line = 0
        self.free_variables: str | None = None  # how formulas read free variables (None: TPTP's way)

    def collect(self, text: str, source: str, premises: list, conclusions: list) -> None:
        """The problem's own statements, then (recursively) those of its includes, in order."""
        if self.bytes > self.limits.max_bytes:
            raise TPTPProblemError(f"the problem is {self.bytes:,} bytes, over the limit of "
                                   f"{self.limits.max_bytes:,} bytes (--tptp-max-bytes)", source, 0)
        entries = self._entries(text, source, quote=True)
        self._walk(entries, source, True, premises, conclusions)

    def _entries(self, text: str, source: str, quote: bool) -> list:
        out: list = []
        for st in statements(text, source, quote):
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

    def _walk(self, entries: list, source: str, quote: bool, premises: list, conclusions: list) -> None:
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
        name = st.name.strip("'\"")
        shown = f"include('{name}')" if quote else "this include"
        if self.root is None or self.base is None:
            raise TPTPProblemError(f"{shown} is refused: pass --tptp-root DIR to read includes "
                                   "from that folder", source, st.line)
        if len(self.stack) >= self.limits.max_depth:
            raise TPTPProblemError(f"includes nested deeper than {self.limits.max_depth}", source, st.line)
        self.includes += 1
        if self.includes > self.limits.max_includes:
            raise TPTPProblemError(f"{shown}: more than {self.limits.max_includes} includes in one problem "
                                   "(repeats counted; --tptp-max-includes)", source, st.line)
        path = self._resolve(name, shown, source, st.line)
        if path in self.stack:
            chain = " -> ".join(self._shown_path(p) for p in [*self.stack[self.stack.index(path):], path])
            raise TPTPProblemError(f"{shown}: an include cycle ({chain})", source, st.line)
        included = self.files.get(path)
        if included is None:
            try:
                data = _read_bytes(path, self.limits.max_bytes - self.bytes, regular_only=True)
                text = _decode(data)
            except _FileError as e:
                where = f"{path}: " if quote or os.path.lexists(path) else ""  # a name, not a file: not shown
                raise TPTPProblemError(f"{shown}: {where}{e}", source, st.line) from None
            included = self.files[path] = _Included(len(data), self._entries(text, str(path), quote=False))
        self.bytes += included.size
        if self.bytes > self.limits.max_bytes:
            raise TPTPProblemError(f"{shown}: {self._shown_path(path)} brings the bytes read to {self.bytes:,}, "
                                   f"over the limit of {self.limits.max_bytes:,} (repeats counted; "
                                   "--tptp-max-bytes)", source, st.line)
        self.stack.append(path)
        try:
            self._walk(included.entries, str(path), False, premises, conclusions)
        finally:
            self.stack.pop()

    def _resolve(self, name: str, shown: str, source: str, line: int) -> Path:
        """The file `name` names under the root: relative, no `..`, and inside the root once
        every symbolic link is followed."""
        assert self.base is not None
        rel = Path(name)
        if not name or "\x00" in name or rel.is_absolute() or ".." in rel.parts:
            why = "an absolute name" if rel.is_absolute() else "a name with '..'" if ".." in rel.parts else "not a file name"
            raise TPTPProblemError(f"{shown} is outside the TPTP root {self.base} ({why}); includes name files "
                                   "relative to the root", source, line)
        try:
            path = (self.base / rel).resolve()
        except (OSError, RuntimeError) as e:  # a loop of symbolic links
            raise TPTPProblemError(f"{shown}: cannot follow its symbolic links ({e.__class__.__name__})",
                                   source, line) from None
        if not path.is_relative_to(self.base):
            raise TPTPProblemError(f"{shown} is outside the TPTP root {self.base} (a symbolic link leads out)",
                                   source, line)
        return path

    def _shown_path(self, path: Path) -> str:
        return str(path.relative_to(self.base)) if self.base is not None and path.is_relative_to(self.base) else str(path)


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


def _read_bytes(path: Path, max_bytes: int, regular_only: bool) -> bytes:
    """The bytes of the file at `path`, at most `max_bytes` of them (TPTPProblemError past that).
    `regular_only`: anything but a regular file is refused before a byte is read, and opening
    never waits (O_NONBLOCK: a FIFO without a writer) nor follows a last symbolic link."""
    flags = os.O_RDONLY | _O_CLOEXEC | _O_NONBLOCK | (_O_NOFOLLOW if regular_only else 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise _FileError(f"cannot be read: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _FileError("a folder, not a file")
        if regular_only and not stat.S_ISREG(st.st_mode):
            kind = next((k for test, k in _KINDS if test(st.st_mode)), "not a regular file")
            raise _FileError(f"{kind}; only regular files are read")
        if stat.S_ISREG(st.st_mode) and st.st_size > max_bytes:
            raise _FileError(f"{st.st_size:,} bytes, over the {max(max_bytes, 0):,} bytes left to read "
                             "(--tptp-max-bytes)")
        if not stat.S_ISREG(st.st_mode):  # a pipe given on the command line: wait for its writer
            os.set_blocking(fd, True)
        chunks, total = [], 0
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError as e:
                raise _FileError(f"cannot be read: {e.strerror}") from None
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise _FileError(f"more than the {max(max_bytes, 0):,} bytes left to read "
                                 "(--tptp-max-bytes)")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _decode(data: bytes) -> str:
    """`data` as UTF-8; _FileError naming the line and the byte that is not (never the bytes
    themselves)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise _FileError(f"not UTF-8 text (line {line}, byte {e.start + 1}: {e.reason})") from None


__all__ = ["CONCLUSION_ROLE", "MAX_BYTES", "MAX_INCLUDES", "MAX_INCLUDE_DEPTH", "PREMISE_ROLES", "Limits", "Problem",
           "Statement", "TPTPProblemError", "read_problem", "read_problem_file", "read_text_file", "statements"]
