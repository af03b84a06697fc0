"""The grammar constraint: llguidance masks from the SAME `.lark` grammar Lark validates with, a
forced `lead` for the prompt's trailing space, canonical token paths (one per LF, scored as the
scorer does), variable scope. No `llguidance.torch`: its `@torch.compile` costs 2-30 s."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

from ambit.server.values import grammar_with_lead

from ambit.server.lm.loading import LoadedModel
from ambit.server.lm.scope import scope_ok

_SHIFTS: dict[torch.device, torch.Tensor] = {}  # bit positions 0..31 on each device, uploaded once


def _shifts(device: torch.device) -> torch.Tensor:
    """0..31 on `device` (an upload per mask from pageable memory would wait for the queued forward)."""
    if device not in _SHIFTS:
        _SHIFTS[device] = torch.arange(32, dtype=torch.int32, device=device)
    return _SHIFTS[device]


def unpack_bitmask(words: np.ndarray, vocab: int, device: torch.device) -> torch.Tensor:
    """Bool [n, vocab] on `device` from llguidance's packed int32 [n, ceil(vocab/32)]."""
    if device.type == "cpu":
        bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")[:, :vocab]
        return torch.from_numpy(bits.view(bool))
    w = torch.from_numpy(words)
    if device.type == "cuda":  # from pageable memory the copy would first wait for the queued forward pass
        w = w.pin_memory()
    w = w.to(device, non_blocking=True)
    return ((w[:, :, None] >> _shifts(device)) & 1).bool().flatten(1)[:, :vocab]


class GrammarTables:
    """What one model's grammar constraints share (compiled grammars, token texts); thread-safe."""

    def __init__(self, lm: LoadedModel) -> None:
        self.lm = lm
        self._lltok = self._executor = None
        self._matchers: OrderedDict[str, object] = OrderedDict()
        self._tok_bytes: dict[int, bytes] = {}
        self._lock = threading.Lock()

    def lltokenizer(self):
        if self._lltok is None:
            import llguidance.hf

            self._lltok = llguidance.hf.from_tokenizer(self.lm.tokenizer, n_vocab=self.lm.vocab_size)
        return self._lltok

    def executor(self):
        if self._executor is None:
            import llguidance

            self._executor = llguidance.LLExecutor()
        return self._executor

    def matcher(self, lark_text: str):
        """A fresh matcher for a Lark grammar (compiled once, then copied)."""
        import llguidance

        with self._lock:
            m = self._matchers.get(lark_text)
            if m is not None:
                self._matchers.move_to_end(lark_text)
                return m.deep_copy()
        m = llguidance.LLMatcher(self.lltokenizer(), llguidance.LLMatcher.grammar_from_lark(lark_text), log_level=0)
        if m.is_error():
            raise ValueError(f"grammar rejected by llguidance: {m.get_error()}")
        with self._lock:
            self._matchers[lark_text] = m
            if len(self._matchers) > 64:
                self._matchers.popitem(last=False)
        return m.deep_copy()

    def token_bytes(self, token: int) -> bytes:
        """The bytes one token stands for (it may hold part of a character)."""
        if (b := self._tok_bytes.get(token)) is None:
            b = self._tok_bytes[token] = self.lltokenizer().decode_bytes([token])
        return b

    def canonical(self, text: str) -> tuple[int, ...]:
        """The tokenizer's own token ids for `text`."""
        return tuple(self.lm.tokenizer.backend_tokenizer.encode(text, add_special_tokens=False).ids)


class GrammarConstraint:
    """Outputs of a Lark grammar after a forced `lead`: variables bound, canonical if asked."""

    def __init__(self, tables: GrammarTables, lark_text: str, lead: str, scope_fmt: str | None,
                 canonical: bool) -> None:
        self.tables, self.lead, self.scope_fmt, self.canonical = tables, lead, scope_fmt, canonical
        self._start = GrammarParse(self, tables.matcher(grammar_with_lead(lark_text, lead)), b"", ())

    def start(self) -> GrammarParse:
        return self._start

    def allowed_next(self, parses: Sequence[GrammarParse], vocab: int, device: torch.device) -> torch.Tensor:
        import llguidance.numpy  # not llguidance.torch (see the module docstring)

        words = np.zeros((len(parses), (vocab + 31) // 32), dtype=np.int32)  # stopped rows: nothing
        first: dict[int, int] = {}  # a matcher shared by several rows (sampling's start) is filled once
        rows, copies = [], []
        for i, p in enumerate(parses):
            if p.matcher.is_stopped():
                continue
            j = first.setdefault(id(p.matcher), i)
            if j == i:
                rows.append((p.matcher, i))
            else:
                copies.append((i, j))
        if rows:
            llguidance.numpy.fill_next_token_bitmask_par(self.tables.executor(), rows, words)
        for i, j in copies:
            words[i] = words[j]
        return unpack_bitmask(words, vocab, device)

    def scope_ok(self, text: str) -> bool:
        """The LF part of `text` (after the lead) leaves no variable unbound."""
        if self.scope_fmt is None:
            return True
        return scope_ok(text[len(self.lead):] if text.startswith(self.lead) else text, self.scope_fmt)


def complete_text(data: bytes) -> str | None:
    """`data` decoded, or None while it ends inside a character (the next tokens complete it)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.reason == "unexpected end of data":
            return None
        return data.decode("utf-8", errors="replace")


@dataclass(frozen=True, slots=True)
class GrammarParse:
    """A grammar constraint's state: the matcher after `ids` (never mutated), and their bytes."""

    constraint: GrammarConstraint
    matcher: object
    data: bytes
    ids: tuple[int, ...]

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")

    def can_end(self) -> bool:
        c = self.constraint
        if not self.matcher.is_accepting():
            return False
        return not c.canonical or (c.tables.canonical(self.text) == self.ids and c.scope_ok(self.text))

    def is_stopped(self) -> bool:
        return self.matcher.is_stopped()

    def append(self, token: int) -> GrammarParse | None:
        c = self.constraint
        if self.matcher.validate_tokens([token]) != 1:
            return None
        data, ids = self.data + c.tables.token_bytes(token), self.ids + (token,)
        if not c.canonical and not c.scope_ok(data.decode("utf-8", errors="replace")):
            return None
        m = self.matcher.deep_copy()
        m.consume_token(token)
        if not c.canonical:  # sampling: only the grammar and scope
            return GrammarParse(c, m, data, ids)
        ahead = m.compute_ff_bytes()
        whole = complete_text(data + ahead)
        if whole is None:  # inside a character (∀ is E2 88 80): checked once a token completes it
            return GrammarParse(c, m, data, ids)
        if not ahead and whole[-1:].isspace():  # a space joins the next word's token
            return None
        if c.tables.canonical(whole)[: len(ids)] != ids or not c.scope_ok(whole):
            return None
        return GrammarParse(c, m, data, ids)
