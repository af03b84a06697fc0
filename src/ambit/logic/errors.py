"""The one exception type for logical forms that cannot be read."""

from __future__ import annotations


MAX_CHARS = 4_096  # the longest formula read by default: the server's limit (max_lf_chars), the CLI's --max-chars
MAX_DEPTH = 256  # nesting of connectives and quantifiers that every reader accepts (and that
# every walk over the AST, ==, hash and repr included, handles within Python's recursion limit)


class LFParseError(ValueError):
    """A logical form that does not parse, or parses but is not a closed formula.

    Carries where (`pos`, 0-based character offset; `column` is 1-based), what was found
    (`token`), and what the grammar would have accepted there (`expected`). `kind` is one of
    `syntax`, `empty`, `unbound_variable`, `quantified_constant`, `dangling_operator` (the
    formula ends with an operator that needs an operand after it), `too_deep` (connectives and
    quantifiers nested deeper than `MAX_DEPTH`, in every format: deeper input is refused before
    anything recurses into it), `too_long` (more characters than the reader's `max_chars`, refused
    before it is read).
    """

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

    def __reduce__(self):  # crosses from a worker process (prolog_pool.py) intact
        return (_rebuild_parse_error, (self.reason, self.text, self.pos, self.token, self.expected, self.kind,
                                       self.fmt))

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


def _rebuild_parse_error(reason, text, pos, token, expected, kind, fmt) -> LFParseError:
    return LFParseError(reason, text=text, pos=pos, token=token, expected=expected, kind=kind, fmt=fmt)


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
