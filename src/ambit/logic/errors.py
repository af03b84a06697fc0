"""The one exception type for logical forms that cannot be read, and the error for a dialect
ambit does not know."""

from __future__ import annotations

import importlib


MAX_CHARS = 4_096  # the longest formula read by default: the server's limit (max_lf_chars), the CLI's --max-chars
MAX_DEPTH = 256  # nesting of connectives and quantifiers that every reader accepts (and that
# every walk over the AST, ==, hash and repr included, handles within Python's recursion limit)


HINTED = frozenset({"syntax", "dangling_operator", "quantified_constant"})  # kinds a hint may name the fix of


class LFParseError(ValueError):
    """A logical form that does not parse, or parses but is not a closed formula: `pos` is a
    0-based character offset (`column` 1-based); `kind` one of `syntax`, `empty`, `too_deep`,
    `unbound_variable`, `quantified_constant`, `dangling_operator`, `too_long`. `hint` (the fix,
    ending `str()`'s first line) is looked for only when first asked for."""

    _hint: str | None | bool = False  # False: not looked for yet

    def __init__(self, message: str, *, text: str, pos: int, token: str = "",
                 expected: tuple[str, ...] = (), kind: str = "syntax", fmt: str = "") -> None:
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
        msg = f"{self.reason} at character {self.column}"
        if self.token:
            msg += f" (found {self.token!r})"
        if self.expected:
            msg += f"; expected one of: {', '.join(self.expected)}"
        if self.text:
            snippet = self.text[max(0, self.pos - 30) : self.pos + 30]
            msg += f"\n  {snippet}\n  {' ' * min(self.pos, 30)}^"
        return msg

    def to_dict(self) -> dict:
        return {"message": self.reason, "kind": self.kind, "pos": self.pos, "column": self.column,
                "token": self.token, "expected": list(self.expected), "format": self.fmt}


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
    """A formula the output format cannot express; `construct` names the part that does not fit."""

    def __init__(self, message: str, *, construct: str, fmt: str) -> None:
        super().__init__(message)
        self.construct = construct
        self.fmt = fmt


def check_length(text: str, max_chars: int = MAX_CHARS, what: str = "formula") -> None:
    """LFParseError (`too_long`) for a text over `max_chars`: refused before it is read, so a huge
    input costs neither parse time nor Prolog memory."""
    if max_chars <= 0:
        raise ValueError(f"max_chars must be a positive number of characters, not {max_chars}")
    if len(text) > max_chars:
        raise LFParseError(f"a {what} of {len(text)} characters, over max_chars {max_chars}",
                           text=text[: max_chars + 30], pos=max_chars, kind="too_long")
