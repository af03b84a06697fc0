"""The one exception type for logical forms that cannot be read (with the hint that names the
fix, as every surface gives it), and the error for a dialect ambit does not know."""

from __future__ import annotations

import importlib


MAX_CHARS = 4_096  # the longest formula read by default: the server's limit (max_lf_chars), the CLI's --max-chars
MAX_DEPTH = 256  # nesting of connectives and quantifiers that every reader accepts (and that
# every walk over the AST, ==, hash and repr included, handles within Python's recursion limit)


HINTED = frozenset({"syntax", "dangling_operator", "quantified_constant"})  # kinds a hint may name the fix of


class LFParseError(ValueError):
    """A logical form that does not parse, or parses but is not a closed formula.

    Carries where (`pos`, 0-based character offset; `column` is 1-based), what was found
    (`token`), and what the grammar would have accepted there (`expected`). `kind` is one of
    `syntax`, `empty`, `unbound_variable`, `quantified_constant`, `dangling_operator` (the
    formula ends with an operator that needs an operand after it), `too_deep` (connectives and
    quantifiers nested deeper than `MAX_DEPTH`, in every format: deeper input is refused before
    anything recurses into it), `too_long` (more characters than the reader's `max_chars`, refused
    before it is read).

    `hint` names the fix as the command line does, in the Python API's words ("reads as nltk: try
    fmt='nltk'", "FOLIO writes implication as →, not ->", "cnf(...) is not read: ..."; None when
    nothing does), and `str()` ends its first line with it. It is found when first asked for
    (`logic.syntax.readers.hints`: the other dialects are tried), so an error nobody shows costs
    nothing more.
    """

    _hint: str | None | bool = False  # False: not looked for yet

    def __init__(
        self,
        message: str,
        *,
        text: str,
        pos: int,
        token: str = "",
        expected: tuple[str, ...] = (),
        kind: str = "syntax",
        fmt: str = "",
    ) -> None:
        self.reason = message
        self.text = text
        self.pos = pos
        self.token = token
        self.expected = tuple(expected)
        self.kind = kind
        self.fmt = fmt
        super().__init__(self._describe())

    @property
    def column(self) -> int:
        return self.pos + 1

    def __reduce__(self):  # crosses from a worker process (logic/runtime/pool.py) intact, its hint with it
        return (_rebuild_parse_error, (self.reason, self.text, self.pos, self.token, self.expected, self.kind,
                                       self.fmt, self.hint))

    @property
    def hint(self) -> str | None:
        """What names the fix, in the Python API's words (None: nothing does)."""
        if self._hint is False:
            self._hint = None
            if self.kind in HINTED and self.fmt and self.text:
                try:
                    hints = importlib.import_module("ambit.logic.syntax.readers.hints")  # by name: no import cycle
                    self._hint = hints.parse_hint(self.text, self.fmt, "fmt=")
                except (ValueError, RecursionError):  # a format the registry does not know, a text too deep
                    self._hint = None
        return self._hint  # type: ignore[return-value]

    def __str__(self) -> str:
        return self.describe(self.hint)

    def describe(self, hint: str | None = None) -> str:
        """The message, with `hint` (a surface's own words for the fix) at the end of its first line."""
        first, newline, rest = self._describe().partition("\n")
        return f"{first}; {hint}{newline}{rest}" if hint else f"{first}{newline}{rest}"

    def _describe(self) -> str:
        where = f"at character {self.column}"
        msg = f"{self.reason} {where}"
        if self.token:
            msg += f" (found {self.token!r})"
        if self.expected:
            msg += f"; expected one of: {', '.join(self.expected)}"
        snippet = self.text[max(0, self.pos - 30) : self.pos + 30]
        if self.text:
            caret = " " * (min(self.pos, 30)) + "^"
            msg += f"\n  {snippet}\n  {caret}"
        return msg

    def to_dict(self) -> dict:
        return {
            "message": self.reason,
            "kind": self.kind,
            "pos": self.pos,
            "column": self.column,
            "token": self.token,
            "expected": list(self.expected),
            "format": self.fmt,
        }


def _rebuild_parse_error(reason, text, pos, token, expected, kind, fmt, hint=False) -> LFParseError:
    err = LFParseError(reason, text=text, pos=pos, token=token, expected=expected, kind=kind, fmt=fmt)
    err._hint = hint
    return err


class UnknownDialect(ValueError):
    """A dialect (format) name ambit does not read; the message lists the ones it does."""

    def __init__(self, name: object, known: "tuple[str, ...] | list[str]") -> None:
        self.name, self.known = name, tuple(known)
        super().__init__(f"unknown LF format {name!r}: expected one of {', '.join(self.known)} (the dialects ambit "
                         "reads)")


class RenderError(ValueError):
    """A formula that the requested output format cannot express; `construct` names the part
    that does not fit (a connective such as `negation`, or a name the format cannot spell)."""

    def __init__(self, message: str, *, construct: str, fmt: str) -> None:
        super().__init__(message)
        self.construct = construct
        self.fmt = fmt


def check_length(text: str, max_chars: int = MAX_CHARS, what: str = "formula") -> None:
    """LFParseError (`too_long`) for a text over `max_chars` characters: refused before it is read,
    so a huge input costs neither parse time nor Prolog memory."""
    if max_chars <= 0:
        raise ValueError(f"max_chars must be a positive number of characters, not {max_chars}")
    if len(text) > max_chars:
        raise LFParseError(f"a {what} of {len(text)} characters, over max_chars {max_chars}",
                           text=text[: max_chars + 30], pos=max_chars, kind="too_long")
