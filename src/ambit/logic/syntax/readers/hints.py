"""The one hint naming the fix when a reader refuses a text (CLI, server, API): the first of
`outside`, `statement`, `folio_ascii`, `other_dialect`, `spelling`, `fragment`. Dialects are read
through the registry, never `parse`, so that `parse` may use this module."""

from __future__ import annotations

import re

from ambit.logic.syntax.dialect import dialect, dialects


def option(flag: str, name: str) -> str:
    """The dialect option as the surface spells it: `--from nltk`, or `fmt='nltk'`."""
    return f"{flag}{name!r}" if flag.endswith("=") else f"{flag} {name}"


def parse_hint(text: str, fmt: str, flag: str = "--from") -> str | None:
    """What names the fix for `text` that `fmt` does not read (None: nothing does)."""
    return (outside(text) or statement(text, fmt) or folio_ascii(text, fmt, flag) or other_dialect(text, fmt, flag)
            or spelling(text, fmt) or fragment(text, fmt, flag))


def reads(text: str, name: str) -> bool:
    """Whether the dialect `name` reads `text` (any error of it, or too deep a text, is a no)."""
    if not text.strip():
        return False
    try:
        dialect(name).read(text)
    except (ValueError, RecursionError):  # LFParseError, or a reading error of that dialect
        return False
    return True


def reads_as(text: str, fmt: str) -> str | None:
    """The first registered dialect other than `fmt` that reads `text` (None: none does)."""
    return next((d.name for d in dialects() if d.name != fmt and reads(text, d.name)), None)


def other_dialect(text: str, fmt: str, flag: str = "--from") -> str | None:
    if (other := reads_as(text, fmt)) is None:
        return None
    if dialect(other).amp and dialect(fmt).amp:
        return f"this looks like {dialect(other).title}: pass {option(flag, other)}"
    return f"reads as {other}: try {option(flag, other)}"


def folio_ascii(text: str, fmt: str, flag: str = "--from") -> str | None:
    """A text in the decoder's spelling (FOLIO's ASCII), named in the reader's own symbols."""
    d = dialect(fmt)
    spelled = d.from_decoded(text)
    if spelled == text:  # not the decoder's spelling (or a dialect whose decoder writes its own)
        return None
    return (f"this is the {d.title} decoder's ASCII spelling; in {d.title}'s symbols, which "
            f"{option(flag, d.name)} reads: {spelled}")


_FULL_CONNECTIVES = re.compile(r"\bNOT\b|\bIMPLIES\b|->|=>|<->|¬|→|↔|~|(?<![\w)])-\s*[A-Za-z(]")


def fragment(text: str, fmt: str, flag: str = "--from") -> str | None:
    """A negation or an implication given to one of AmP's formats, which have neither."""
    if not dialect(fmt).amp or not _FULL_CONNECTIVES.search(text):
        return None
    full = "|".join(d.name for d in dialects() if not d.amp)
    return (f"{fmt} is AmP's fragment (exists, forall, AND, OR: no negation or implication); full first-order "
            f"logic reads with {option(flag, full)}")


_STATEMENT = re.compile(r"^\s*(cnf|thf|tff|tcf|tpi)\s*\(")


def statement(text: str, fmt: str) -> str | None:
    """A TPTP annotated formula in a language other than first-order form (`cnf`, `thf`, `tff`, ...)."""
    if (m := _STATEMENT.match(text)) is None or not dialect(fmt).problem_files:
        return None
    return statement_text(m.group(1))


def statement_text(kind: str) -> str:
    """Why a TPTP `kind(...)` statement is not read, and what to write instead."""
    if kind == "cnf":
        return ("cnf(...) is not read: ambit reads TPTP's first-order form, fof(name, role, formula); a clause "
                "is one, its variables read as universal: write cnf(c, axiom, p(X) | ~q(X)) as "
                "fof(c, axiom, p(X) | ~q(X))")
    return (f"{kind}(...) is not read: ambit reads TPTP's untyped first-order form only, fof(name, role, formula) "
            f"({kind} is {_LANGUAGES.get(kind, 'another TPTP language')})")


_LANGUAGES = {"thf": "typed higher-order form", "tff": "typed first-order form", "tcf": "typed clause form",
              "tpi": "a process instruction"}

# By `Dialect.title`: (what, other dialects' spellings, its own), `<->` before `->`, `![X]` before
# `!`; tests/logic/cli/test_cli_messages.py holds each row to the dialect.
_AND_OR = (("conjunction", r"∧|\bAND\b", "&"), ("disjunction", r"∨|\bOR\b", "|"))
_SPELLINGS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "FOLIO": (("equivalence", r"<->|<=>|\bIFF\b|\biff\b", "↔"),
              ("implication", r"->|=>|\bIMPLIES\b|\bimplies\b", "→"),
              ("the universal quantifier", r"\bforall\b|\ball\b(?=\s*[a-z]\w*\s*[.(\s])|!\s*\[", "∀x"),
              ("the existential quantifier", r"\bexists\b(?=\s*[a-z])|\bsome\b(?=\s*[a-z]\w*\s*[.(])|\?\s*\[", "∃x"),
              ("negation", r"\bNOT\b|\bnot\b|~|!(?!=)|(?<![\w)\]-])-(?=\s*[\w(∀∃¬])", "¬"),
              ("conjunction", r"&|\bAND\b|\band\b|\^", "∧"),
              ("disjunction", r"\||\bOR\b|\bor\b", "∨")),
    "TPTP": (("equivalence", r"<->|↔|\bIFF\b", "<=>"),
             ("implication", r"->|→|\bIMPLIES\b", "=>"),
             ("the universal quantifier", r"∀|\bforall\b|\ball\b(?=\s*[a-zA-Z]\w*\s*[.(])", "![X]:"),
             ("the existential quantifier", r"∃|\bexists\b(?=\s*[a-zA-Z]\w*\s*[.(])", "?[X]:"),
             ("negation", r"¬|\bNOT\b|(?<![\w)\]<=~-])-(?=\s*[\w(])", "~"), *_AND_OR),
    "NLTK": (("equivalence", r"↔", "<->"),
             ("implication", r"→", "->"),
             ("the universal quantifier", r"∀|!\s*\[", "all x."),
             ("the existential quantifier", r"∃|\?\s*\[", "exists x."),
             ("negation", r"¬|~|\bNOT\b", "-"), *_AND_OR),
    "Prover9": (("equivalence", r"<=>|↔|\bIFF\b", "<->"),
                ("implication", r"=>|→|\bIMPLIES\b", "->"),
                ("the universal quantifier", r"∀|!\s*\[", "all x"),
                ("the existential quantifier", r"∃|\?\s*\[", "exists x"),
                ("negation", r"¬|~|\bNOT\b", "-"), *_AND_OR),
}


def spellings(fmt: str) -> tuple[tuple[str, str, str], ...]:
    """The rows of `_SPELLINGS` for a dialect (none for AmP's formats, whose hint is `fragment`)."""
    return _SPELLINGS.get(dialect(fmt).title, ())


def spelling(text: str, fmt: str, most: int = 3) -> str | None:
    """The symbols `fmt` writes instead of other dialects' found in `text` (at most `most`)."""
    found, masked = [], text
    for what, pattern, own in spellings(fmt):
        m = re.search(pattern, masked)
        if m is None:
            continue
        found.append(f"{what} as {own}, not {m.group().strip()}")
        masked = re.sub(pattern, lambda x: " " * len(x.group()), masked)  # `<->` is not an implication too
        if len(found) == most:
            break
    return f"{dialect(fmt).title} writes " + "; ".join(found) if found else None


_QUANTIFIED = re.compile(r"(?:\ball\b|\bexists\b|\bforall\b|∀|∃|!\s*\[|\?\s*\[)\s*([A-Za-z_]\w*)")


def outside(text: str) -> str | None:
    """What in `text` is outside first-order logic (a lambda, a higher-order predicate)."""
    if re.search(r"\\\s*[A-Za-z_]|λ", text):
        return ("lambdas (\\x. ...) are outside what ambit reads: it reads first-order formulas; "
                "apply the lambda (beta-reduce) first")
    if re.search(r"\w\([^()]*\)\(", text):
        return "a predication applied again (dog(a)(b)) is higher order, outside what ambit reads (first order)"
    body = _QUANTIFIED.sub(" ", text)  # the quantifiers' own variables taken out
    for var in _QUANTIFIED.findall(text):
        if re.search(rf"(?<!\w){re.escape(var)}\(", body):
            return (f"a quantified predicate or function ({var}(...)) is higher order, outside what ambit "
                    "reads (first order)")
    return None
