"""Fenced code blocks of the Markdown documentation, and the runnable-block convention.

A block is runnable when the line right before its opening fence is exactly
``<!-- runnable -->`` and its language is ``bash`` or ``python``. A comment ``# => TEXT`` in a
runnable block (on its own line or after a command) states a line its standard output must
contain: TEXT, compared with each output line with surrounding whitespace stripped, and the
stated lines must appear in the order they are written. docs/development.md describes how the
blocks are run (tests/docs/test_runnable.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

MARKER = "<!-- runnable -->"
LANGUAGES = ("bash", "python")
_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)[^`]*$")
_EXPECT = re.compile(r"#\s*=>\s*(?P<text>.*?)\s*$")


@dataclass(frozen=True)
class Block:
    path: Path  # the Markdown file
    line: int  # 1-based line of the opening fence
    lang: str  # the fence's info word ("" when none)
    code: str
    runnable: bool  # marked with MARKER on the line before the fence
    end: int = 0  # 1-based line of the closing fence (the file's last line when unclosed)

    def where(self, root: Path) -> str:
        try:
            name = self.path.relative_to(root)
        except ValueError:
            name = self.path
        return f"{name}:{self.line}"

    def expected_lines(self) -> list[str]:
        """The `# => TEXT` lines this block states, in order."""
        found = []
        for line in self.code.splitlines():
            m = _EXPECT.search(line)
            if m and m.group("text"):
                found.append(m.group("text"))
        return found


def blocks(path: Path) -> list[Block]:
    """Every fenced code block of a Markdown file, in order (indented fences included)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        fence, indent = m.group("fence"), len(m.group("indent"))
        body, j = [], i + 1
        while j < len(lines):
            stripped = lines[j].strip()
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                break
            body.append(_dedent(lines[j], indent))
            j += 1
        runnable = i > 0 and lines[i - 1].strip() == MARKER
        code = "\n".join(body) + "\n"
        found.append(Block(path, i + 1, m.group("info").lower(), code, runnable, min(j + 1, len(lines))))
        i = j + 1
    return found


def markers(path: Path) -> list[int]:
    """1-based lines outside code blocks that hold the runnable marker."""
    inside = {n for b in blocks(path) for n in range(b.line, b.end + 1)}
    lines = path.read_text(encoding="utf-8").splitlines()
    return [n for n, line in enumerate(lines, 1) if line.strip() == MARKER and n not in inside]


def _dedent(line: str, indent: int) -> str:
    k = 0
    while k < indent and k < len(line) and line[k] in " \t":
        k += 1
    return line[k:]


def split_comment(line: str) -> tuple[str, str]:
    """A shell line's command and its trailing comment (the text after the first ' #')."""
    command, sep, comment = line.partition(" #")
    return command.rstrip(), comment.strip() if sep else ""
