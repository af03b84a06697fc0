"""Prolog quoting: the one escaping of text that logic/ writes inside single quotes.

A leaf module (it imports nothing from logic), so that every writer of Prolog text (render.py,
fol_render.py, explain/situations.py, radd/verify.py, prolog_worker.py) can use it.
"""

from __future__ import annotations


def escape(text: str, newlines: bool = False) -> str:
    """`text` made safe inside a single-quoted Prolog atom: backslashes and single quotes
    escaped; with `newlines`, also each newline written as `\\n` (goal text handed to Prolog)."""
    text = text.replace("\\", "\\\\").replace("'", "\\'")
    return text.replace("\n", "\\n") if newlines else text


def quote(name: str) -> str:
    """A name as a quoted Prolog atom: the one quoting of every Prolog term logic/ writes."""
    return "'" + escape(name) + "'"


__all__ = ["escape", "quote"]
