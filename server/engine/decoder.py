"""Grammar-constrained decoding: beam search and sampling over the model's KV cache.

The token masks come from llguidance, compiled from the SAME `.lark` grammar that Lark uses to
validate the output (`logic.grammar_text(fmt)` or `logic.closed_grammar(...)`), so every
finished hypothesis parses with `logic.parse(text, fmt)`.

Prompt boundary. AmP prompts end in "Computer:" and the LF follows after one space. The
trailing spaces of the prompt (or one space after a final ":") are cut from the prompt and
generated as a forced `lead` in front of the grammar (`start: " " (formula)`), so the model
sees its natural tokens (`" exists"`), exactly as the scorer tokenises `prompt + " " + LF`.

End of an LF. A hypothesis may end only when the matcher accepts (the LF is complete). Ending
is an explicit option with log-probability `end_logprob` = log P(EOS or any token starting with
a newline) at that point; it is taken also when the grammar is complete and admits nothing
more (a forced stop). Hypotheses are ranked by `score = logprob + end_logprob`, where
`logprob` sums the LF's token log-probabilities (model probabilities, not renormalised over
the allowed tokens) -- the same numbers as `Scorer.score(prompt, [lead + text],
end_marker=True)`: `sum_logprob + end_logprob`.

Canonical paths. A string has many token paths; the beam keeps only canonical ones (the
tokens the tokenizer itself produces): a child path is kept when tokenising its text, plus the
bytes the grammar forces next, starts with the path. Canonical BPE paths are prefix-closed, so
this loses no canonical path, and the look-ahead kills dead non-canonical prefixes ("ex" before
a forced "ists") at once. A path whose text ends in a space the grammar does not yet force past
is dropped too: byte-level BPE pre-tokenisers join a space to the following word (`" man"`),
and the LF grammars never end in a space or put two in a row. A finished path must equal the tokenisation of its text. So each LF is
reached by one path and scores agree with the scorer.

Search. Each live beam's matcher is its own value (forked with `deep_copy()`). At each step the
globally best candidates (per-beam top-k by model log-prob) are checked one at a time with the
parent's `validate_tokens`; a full mask (`compute_bitmask`) is computed only when the top-k do
not yield `beam` valid children above the threshold below which unseen candidates could rank
higher. Search stops when `beam` hypotheses have finished and no live beam can beat the
`beam`-th of them (scores only fall), or at `max_tokens`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import torch

from .kv import expand, forward, select
from .loading import LoadedModel
from .scope import scope_ok

END = -1


class DecodeCancelled(RuntimeError):
    """The caller's `should_stop()` returned True or its deadline passed."""


@dataclass
class Hypothesis:
    text: str
    logprob: float  # sum of the LF tokens' log-probs
    token_probs: list[float]
    tokens: list[str]
    min_prob: float
    finished: bool
    end_logprob: float | None = None
    score: float = 0.0  # ranking key: logprob + end_logprob (logprob when unfinished)
    token_ids: list[int] = field(default_factory=list)


@dataclass
class _Path:
    ids: list[int]
    lps: list[float]
    logprob: float
    text: str  # decoded text, lead included
    matcher: object | None


@dataclass
class _Run:
    """Per-call state, so that one Decoder can serve concurrent calls from several threads."""

    lead: str
    constrained: bool
    scope_fmt: str | None
    stats: dict = field(default_factory=lambda: {"steps": 0, "model_s": 0.0, "grammar_s": 0.0, "full_masks": 0,
                                                  "tokens": 0})


def split_lead(prompt: str) -> tuple[str, str]:
    """(prompt without its trailing spaces, the text forced in front of the LF)."""
    core = prompt.rstrip(" ")
    lead = prompt[len(core):]
    if not lead and core.endswith(":"):
        lead = " "
    return core, lead


def grammar_with_lead(text: str, lead: str) -> str:
    if not lead:
        return text
    new, n = re.subn(r"^start:[ \t]*(.+)$", lambda m: f"start: {json.dumps(lead)} ( {m.group(1)} )", text,
                     count=1, flags=re.M)
    if n != 1:
        raise ValueError("grammar has no single-line `start:` rule to put the lead in front of")
    return new


class Decoder:
    """Constrained beam search and sampling for one loaded model; calls may run in several threads
    (per-call state lives in `_Run`; the compiled-grammar cache is locked)."""

    def __init__(self, lm: LoadedModel, topk_margin: int = 8) -> None:
        self.lm = lm
        self.topk_margin = topk_margin
        self._lltok = None
        self._matchers: OrderedDict[str, object] = OrderedDict()
        self._tok_bytes: dict[int, bytes] = {}
        self.stats: dict = {}  # of the last call (informative; each call keeps its own)
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ grammar plumbing

    def lltokenizer(self):
        if self._lltok is None:
            import llguidance.hf

            self._lltok = llguidance.hf.from_tokenizer(self.lm.tokenizer, n_vocab=self.lm.vocab_size)
        return self._lltok

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

    def _grammar(self, fmt: str, grammar: str | None, lead: str) -> str:
        if grammar is None:
            from logic import grammar_text

            grammar = grammar_text(fmt)
        return grammar_with_lead(grammar, lead)

    def _text(self, t: int) -> str:
        b = self._tok_bytes.get(t)
        if b is None:
            b = self._tok_bytes[t] = self.lltokenizer().decode_bytes([t])
        return b.decode("utf-8", errors="replace")

    def _canonical(self, text: str) -> list[int]:
        return self.lm.tokenizer.backend_tokenizer.encode(text, add_special_tokens=False).ids

    def _allowed(self, matcher, vocab: int) -> torch.Tensor:
        bits = np.frombuffer(matcher.compute_bitmask(), dtype=np.uint8)
        return torch.from_numpy(np.unpackbits(bits, bitorder="little")[:vocab].astype(bool))

    # ------------------------------------------------------------------ beam search

    def beam_search(
        self,
        prompt: str,
        fmt: str = "fol",
        beam: int = 5,
        max_tokens: int = 128,
        grammar: str | None = None,
        *,
        constrained: bool = True,
        check_scope: bool = True,
        early_stop: bool = True,
        lead: str | None = None,
        should_stop: Callable[[], bool] | None = None,
        deadline: float | None = None,
    ) -> list[Hypothesis]:
        """The `beam` best LFs (finished first, by score); `deadline` is a `time.monotonic()` value.

        `constrained=False` is plain beam search (no grammar, no canonical filter), the
        benchmark's baseline; `early_stop=False` runs to `max_tokens` while paths live (equal
        step counts for timing); `check_scope=False` allows unbound variables (a custom grammar
        that is neither FOL nor Lisp).
        """
        t_start = time.perf_counter()
        lm = self.lm
        core, lead_ = split_lead(prompt)
        lead = lead_ if lead is None else lead
        run = _Run(lead, constrained, fmt if (constrained and check_scope) else None)
        st = self.stats = run.stats
        if constrained:
            self.lltokenizer()  # built once per model, not counted as a step's cost
        t0 = time.perf_counter()
        m0 = self.matcher(self._grammar(fmt, grammar, lead)) if constrained else None
        st["grammar_s"] += time.perf_counter() - t0
        t0 = time.perf_counter()
        logp, cache = forward(lm, torch.tensor([lm.encode(core)], device=lm.device), keep=1)
        st["model_s"] += time.perf_counter() - t0
        dist = logp[:, -1]
        end_ids = torch.tensor(lm.end_token_ids(), device=lm.device)
        beams = [_Path([], [], 0.0, "", m0)]
        finished: dict[str, Hypothesis] = {}

        for step in range(max_tokens + 1):
            _check_cancel(should_stop, deadline)
            live = self._select(run, beams, dist, end_ids, beam, finished, tokens_ok=step < max_tokens)
            st["steps"] += 1
            if not live:
                if step < max_tokens:
                    beams = []  # every path died or finished
                break
            ranked = sorted((h.score for h in finished.values()), reverse=True)
            if early_stop and len(ranked) >= beam and max(p.logprob for p, _ in live) <= ranked[beam - 1]:
                beams = []
                break
            t0 = time.perf_counter()
            select(cache, torch.tensor([parent for _, parent in live], device=lm.device))
            nxt = torch.tensor([[p.ids[-1]] for p, _ in live], device=lm.device)
            logp, cache = forward(lm, nxt, cache)
            st["model_s"] += time.perf_counter() - t0
            st["tokens"] += len(live)
            dist = logp[:, -1]
            beams = [p for p, _ in live]

        out = sorted(finished.values(), key=lambda h: h.score, reverse=True)[:beam]
        if len(out) < beam:  # budget ran out: report the best unfinished paths too
            rest = sorted(beams, key=lambda p: p.logprob, reverse=True)[: beam - len(out)]
            out += [self._hyp(p, lead, None) for p in rest]
        st["total_s"] = time.perf_counter() - t_start
        return out

    def _select(self, run: _Run, beams, dist, end_ids, beam, finished, tokens_ok) -> list[tuple[_Path, int]]:
        """Finish what may finish (into `finished`); return up to `beam` live children (path, parent)."""
        st, lead, constrained = run.stats, run.lead, run.constrained
        nb, vocab = dist.shape
        base = torch.tensor([p.logprob for p in beams], device=dist.device)
        end_lp = torch.logsumexp(dist[:, end_ids], dim=-1)
        t0 = time.perf_counter()
        for i, p in enumerate(beams):
            if p.matcher is not None and not p.matcher.is_accepting():
                continue
            if constrained and (self._canonical(p.text) != p.ids or not self._scope(run, p.text)):
                continue
            h = self._hyp(p, lead, float(end_lp[i]))
            if h.text not in finished or finished[h.text].score < h.score:
                finished[h.text] = h
        st["grammar_s"] += time.perf_counter() - t0
        if not tokens_ok:
            return []

        scores = dist.clone()
        scores[:, end_ids] = float("-inf")
        if constrained:
            for i, p in enumerate(beams):
                if p.matcher.is_stopped():
                    scores[i] = float("-inf")
        k = min(vocab, beam + self.topk_margin)
        vals, idx = torch.topk(scores, k, dim=-1)
        tau = float((vals[:, -1] + base).max())  # unseen candidates score at most this
        cand = (vals + base[:, None]).flatten()
        order = torch.argsort(cand, descending=True).tolist()
        cand_l, idx_l = cand.tolist(), idx.tolist()
        children: dict[tuple[int, int], _Path | None] = {}
        live: list[tuple[_Path, int]] = []
        complete = True
        for j in order:
            s = cand_l[j]
            if s == float("-inf"):
                break
            if constrained and s < tau:
                complete = False
                break
            b, t = divmod(j, k)
            b_tok = idx_l[b][t]
            child = self._child(run, beams[b], b_tok, s, children, b)
            if child is not None:
                live.append((child, b))
                if len(live) == beam:
                    return live
        if not constrained or (complete and k == vocab):
            return live

        # fall back: full masks, every allowed candidate, in order
        t0 = time.perf_counter()
        for i, p in enumerate(beams):
            if not p.matcher.is_stopped():
                scores[i].masked_fill_(~self._allowed(p.matcher, vocab).to(scores.device), float("-inf"))
                st["full_masks"] += 1
        st["grammar_s"] += time.perf_counter() - t0
        cand = (scores + base[:, None]).flatten()
        n_ok = int(torch.isfinite(cand).sum())
        vals, order = torch.topk(cand, n_ok)
        live = []
        for s, j in zip(vals.tolist(), order.tolist()):
            b, b_tok = divmod(j, vocab)
            child = self._child(run, beams[b], b_tok, s, children, b)
            if child is not None:
                live.append((child, b))
                if len(live) == beam:
                    break
        return live

    def _child(self, run: _Run, parent: _Path, t: int, score: float, memo, b) -> _Path | None:
        key = (b, t)
        if key in memo:
            return memo[key]
        child = None
        text = parent.text + self._text(t)
        lp = score - parent.logprob
        if not run.constrained:
            child = _Path(parent.ids + [t], parent.lps + [lp], score, text, None)
        else:
            t0 = time.perf_counter()
            m = parent.matcher
            if m.validate_tokens([t]) == 1:
                m = m.deep_copy()
                m.consume_token(t)
                ids = parent.ids + [t]
                ahead = m.compute_ff_bytes().decode("utf-8", errors="ignore")
                dangling = not ahead and text[-1:].isspace()  # a space joins the next word's token
                if not dangling and self._canonical(text + ahead)[: len(ids)] == ids and self._scope(run, text + ahead):
                    child = _Path(ids, parent.lps + [lp], score, text, m)
            run.stats["grammar_s"] += time.perf_counter() - t0
        memo[key] = child
        return child

    def _scope(self, run: _Run, text: str) -> bool:
        fmt, lead = run.scope_fmt, run.lead
        return fmt is None or scope_ok(text[len(lead):] if text.startswith(lead) else text, fmt)

    def _hyp(self, p: _Path, lead: str, end_lp: float | None) -> Hypothesis:
        text = p.text[len(lead):] if p.text.startswith(lead) else p.text
        probs = [float(np.exp(x)) for x in p.lps]
        return Hypothesis(
            text=text,
            logprob=p.logprob,
            token_probs=probs,
            tokens=self.lm.tokenizer.convert_ids_to_tokens(p.ids),
            min_prob=min(probs) if probs else 1.0,
            finished=end_lp is not None,
            end_logprob=end_lp,
            score=p.logprob + (end_lp or 0.0),
            token_ids=list(p.ids),
        )

    # ------------------------------------------------------------------ sampling

    def sample(
        self,
        prompt: str,
        n: int,
        fmt: str = "fol",
        temperature: float = 1.0,
        top_p: float = 1.0,
        max_tokens: int = 128,
        grammar: str | None = None,
        seed: int | None = None,
        *,
        check_scope: bool = True,
        lead: str | None = None,
        should_stop: Callable[[], bool] | None = None,
        deadline: float | None = None,
    ) -> list[Hypothesis]:
        """`n` LFs sampled from the model restricted to the grammar (temperature, nucleus top-p).

        The reported probabilities are the model's own (temperature 1, not renormalised), as in
        beam search; the sampled token paths are not forced to be canonical. A token that
        would leave a variable unbound is struck out and the row resampled.
        """
        t_start = time.perf_counter()
        lm = self.lm
        gen = torch.Generator(device="cpu")
        if seed is not None:
            gen.manual_seed(seed)
        else:
            gen.seed()
        core, lead_ = split_lead(prompt)
        lead = lead_ if lead is None else lead
        run = _Run(lead, True, fmt if check_scope else None)
        st = self.stats = run.stats
        m0 = self.matcher(self._grammar(fmt, grammar, lead))
        t0 = time.perf_counter()
        logp, cache = forward(lm, torch.tensor([lm.encode(core)], device=lm.device), keep=1)
        cache = expand(cache, n)
        st["model_s"] += time.perf_counter() - t0
        dist = logp[:, -1].expand(n, -1)
        vocab = dist.shape[-1]
        end_ids = torch.tensor(lm.end_token_ids())
        is_end = torch.zeros(vocab, dtype=torch.bool)
        is_end[end_ids] = True
        rows = [_Path([], [], 0.0, "", m0.deep_copy()) for _ in range(n)]
        done: list[Hypothesis | None] = [None] * n
        active = list(range(n))
        for step in range(max_tokens + 1):
            _check_cancel(should_stop, deadline)
            st["steps"] += 1
            d = dist.float().cpu()
            t0 = time.perf_counter()
            allowed = torch.zeros(len(active), vocab, dtype=torch.bool)
            for r, i in enumerate(active):
                m = rows[i].matcher
                if step < max_tokens and not m.is_stopped():
                    allowed[r] = self._allowed(m, vocab)
                allowed[r] &= ~is_end
                if m.is_accepting():
                    allowed[r] |= is_end
            st["grammar_s"] += time.perf_counter() - t0
            logits = (d / max(temperature, 1e-6)).masked_fill(~allowed, float("-inf"))
            probs = _top_p(torch.softmax(logits, dim=-1), top_p)
            keep, nxt = [], []
            for r, i in enumerate(active):
                if not allowed[r].any():  # budget spent before the LF was complete
                    done[i] = self._hyp(rows[i], lead, None)
                    continue
                t = self._draw(run, rows[i], probs[r], gen, is_end)
                if t is None:
                    done[i] = self._hyp(rows[i], lead, None)
                    continue
                if is_end[t]:
                    done[i] = self._hyp(rows[i], lead, float(torch.logsumexp(d[r, end_ids], 0)))
                    continue
                p = rows[i]
                t0 = time.perf_counter()
                p.matcher.consume_token(t)
                st["grammar_s"] += time.perf_counter() - t0
                lp = float(d[r, t])
                rows[i] = _Path(p.ids + [t], p.lps + [lp], p.logprob + lp, p.text + self._text(t), p.matcher)
                keep.append(r)
                nxt.append(t)
            active = [active[r] for r in keep]
            if not active:
                break
            t0 = time.perf_counter()
            select(cache, torch.tensor(keep, device=lm.device))
            logp, cache = forward(lm, torch.tensor([[t] for t in nxt], device=lm.device), cache)
            st["model_s"] += time.perf_counter() - t0
            st["tokens"] += len(active)
            dist = logp[:, -1]
        for i in active:
            done[i] = self._hyp(rows[i], lead, None)
        st["total_s"] = time.perf_counter() - t_start
        return [h for h in done if h is not None]


    def _draw(self, run: _Run, row: _Path, probs: torch.Tensor, gen, is_end: torch.Tensor) -> int | None:
        """Sample a token whose text keeps every variable bound (None if no token does)."""
        probs = probs.clone()
        while float(probs.sum()) > 0:
            t = int(torch.multinomial(probs, 1, generator=gen))
            t0 = time.perf_counter()
            ok = bool(is_end[t]) or self._scope(run, row.text + self._text(t))
            run.stats["grammar_s"] += time.perf_counter() - t0
            if ok:
                return t
            probs[t] = 0.0
        return None


def _top_p(probs: torch.Tensor, top_p: float) -> torch.Tensor:
    if top_p >= 1.0:
        return probs
    sp, si = torch.sort(probs, descending=True, dim=-1)
    cum = torch.cumsum(sp, dim=-1)
    drop = cum - sp > top_p  # keep the smallest prefix whose mass reaches top_p
    sp = sp.masked_fill(drop, 0.0)
    return torch.zeros_like(probs).scatter(-1, si, sp)


def _check_cancel(should_stop: Callable[[], bool] | None, deadline: float | None) -> None:
    if should_stop is not None and should_stop():
        raise DecodeCancelled("decode cancelled by the caller")
    if deadline is not None and time.monotonic() > deadline:
        raise DecodeCancelled("decode deadline passed")
