"""The service core: every AmbitService operation on plain values, `ServiceError`s for failures."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import ambit
from ambit import logic
from ambit.logic.engine.budget import DEFAULT_TIME_LIMIT
from ambit.logic.explain import Explanation
from ambit.logic.syntax.dialect import FOL, NAMES as DIALECTS, dialect  # every LF format, AmP's first

from ambit.server.batcher import Worker
from ambit.server.guard.limits import Limits
from ambit.server.service import distribution, entailment, equivalence, explain, generation, prompting, radd, scoring, validate
from ambit.server.service.deadline import Admission, CallScope, Deadline
from ambit.server.service.errors import InvalidField, ModelUnavailable
from ambit.server.stats import Stats

log = logging.getLogger("ambit.server")

VERSION = ambit.__version__  # the installed distribution's version (package metadata): what `ambit info` reports
DEFAULT_PROLOG_SECONDS = DEFAULT_TIME_LIMIT  # the engine's one default (logic/engine/budget.py)


@dataclass(frozen=True)
class CanonicalQuery:
    """An LF text in `fmt`, to render canonically in `to` with `vars` naming (amp | v)."""

    lf: str
    fmt: str = FOL
    to: str = FOL
    vars: str = "amp"


@dataclass(frozen=True)
class ServerInfo:
    """What GetModelInfo reports."""

    model: dict
    formats: tuple[str, ...]
    model_loaded: bool
    limits: Limits
    max_batch: int
    server_id: str
    version: str


@dataclass(frozen=True)
class ModelCounters:
    """The model worker's counters."""

    batches: int
    jobs: int
    rejected: int
    busy_seconds: float


@dataclass(frozen=True)
class ModelReply:
    """A model operation's answer and the model that gave it (every model RPC's reply names it)."""

    value: Any
    model_id: str


@dataclass(frozen=True)
class ServerStats:
    """What GetStats reports: the calls counted at the edge, and the model worker's counters."""

    server_id: str
    calls: Stats
    model: ModelCounters | None


class AmbitCore:
    """The operations of AmbitService on plain values."""

    def __init__(self, limits: Limits = Limits(), prolog_seconds: float = DEFAULT_PROLOG_SECONDS,
                 prolog_workers: int = 1, prover: str = "prolog", admission: Admission | None = None) -> None:
        self.limits = limits
        self.admission = admission if admission is not None else Admission(max_queue=limits.max_queue)
        self.prolog_seconds = prolog_seconds
        self.prolog_workers = prolog_workers  # > 1: batch RPCs spread over that many Prolog processes
        self.prover = prover  # "prolog", or "portfolio": E and Z3 on what Prolog left UNKNOWN
        self.server_id = uuid.uuid4().hex[:12]
        self.worker: Worker | None = None  # None until the model is loaded (or with no model)
        self.model_info: dict = {}
        self.stats = Stats()  # every call, as the gRPC edge counts it (GetStats)

    def attach_model(self, worker: Worker, info: dict) -> None:
        """Serve model operations with `worker`; `info` is the backend's `info()`."""
        self.model_info = info
        self.worker = worker

    def open_call(self, timeout_s: float | None, client: str) -> CallScope:
        """One request's scope (deadline, Prolog cancel scope, admission), for both edges."""
        return CallScope(timeout_s, client, self.admission)

    @property
    def model_id(self) -> str:
        return self.model_info.get("model_id", "")

    def _worker(self) -> Worker:
        if self.worker is None:
            raise ModelUnavailable("no model loaded on this server (started with --no-model, or still loading)")
        return self.worker

    def score(self, query: scoring.ScoreQuery, deadline: Deadline) -> ModelReply:
        """Scores of the query's candidates (engine CandidateScore values), in order."""
        fut = scoring.submit(self._worker(), query, self.limits)
        return ModelReply(scoring.wait_for(fut, deadline), self.model_id)

    def score_batch(self, queries: Sequence[scoring.ScoreQuery], deadline: Deadline) -> Iterator[scoring.Outcome]:
        """(index, scores as a ModelReply, or error) per item, as items finish."""
        validate.batch_size(queries, self.limits.max_batch_items)
        for i, scores in scoring.score_window(self._worker(), queries, self.limits, deadline):
            yield i, scores if isinstance(scores, BaseException) else ModelReply(scores, self.model_id)

    def check_equivalence(self, query: equivalence.EquivalenceQuery, deadline: Deadline) -> equivalence.EquivalenceAnswer:
        return equivalence.check(query, self.limits, deadline, self.prolog_seconds, self.prover)

    def check_equivalence_batch(self, items: Sequence[equivalence.Item],
                                deadline: Deadline) -> Iterator[equivalence.Outcome]:
        """(index, answer or error) per item, in order; unreadable items come as their error."""
        return equivalence.check_batch(items, self.limits, deadline, self.prolog_seconds, self.prolog_workers,
                                       self.prover)

    def canonicalize(self, query: CanonicalQuery, deadline: Deadline | None = None) -> str:
        """The query's LF in canonical form (no Prolog: nothing for a deadline to stop)."""
        f = validate.lf(query.lf, query.fmt, "lf", self.limits.max_lf_chars)
        return logic.canonical_form(f, query.fmt, to=query.to, vars=query.vars)

    def verify_radd(self, query: radd.RaddQuery, deadline: Deadline) -> radd.RaddAnswer:
        return radd.verify(query, self.limits, deadline, self.prolog_seconds)

    def explain_readings(self, query: explain.ExplainQuery, deadline: Deadline) -> Explanation:
        """Paraphrases, distinguishing situations and a question for the query's readings."""
        return explain.explain(query, self.limits, deadline, self.prolog_seconds)

    def parse_distribution(self, query: prompting.ParseQuery, deadline: Deadline) -> distribution.Distribution:
        """Decode the prompt, then group the candidates into meaning classes."""
        fmt = query.fmt
        if query.explain and not dialect(fmt).amp:
            raise InvalidField("explain", f"readings are explained for the fol and lisp formats, not {fmt}",
                               reason="NOT_SUPPORTED")
        prompt = prompting.prompt(query, self.limits)
        params, grammar = prompting.decoding(query.decoding, fmt, self.limits)
        worker = self._worker()
        validate.context(worker.backend, prompt, params.max_tokens, "prompt")
        hyps = scoring.run_call(
            worker, lambda b: b.decode(prompt, fmt, params, grammar, deadline.expired), deadline,
            "decoding")
        deadline.check()
        out = distribution.Distribution(prompt, self.model_id, distribution.candidates(hyps, fmt))

        def equivalent(a: str, b: str) -> str:
            budget = deadline.budget(query.time_limit_s, self.prolog_seconds)
            return str(logic.equivalent(distribution.readable(a, fmt), distribution.readable(b, fmt), fmt=fmt,
                                        time_limit=budget).verdict)

        distribution.group(out, equivalent)
        if query.explain:
            explain.explain_classes(out, query.utterance, fmt, deadline, query.time_limit_s or self.prolog_seconds)
        return out

    def info(self) -> ServerInfo:
        w = self.worker
        return ServerInfo(dict(self.model_info), tuple(DIALECTS), w is not None, self.limits,
                          w.max_batch if w else 0, self.server_id, VERSION)

    def model_counters(self) -> ModelCounters | None:
        """The model worker's counters (None without a model)."""
        w = self.worker
        return None if w is None else ModelCounters(w.batches, w.jobs, w.rejected, w.busy_seconds)

    def server_stats(self) -> ServerStats:
        return ServerStats(self.server_id, self.stats, self.model_counters())

    def generate(self, query: generation.GenerateQuery, deadline: Deadline) -> ModelReply:
        """The model's free-text reply (an engine `Generation`) to the query's chat turns."""
        return ModelReply(generation.generate(self._worker(), query, self.limits, deadline), self.model_id)

    def check_entailment(self, query: entailment.EntailmentQuery, deadline: Deadline) -> logic.Decision:
        return entailment.check(query, self.limits, deadline, self.prolog_seconds, self.prover)

    def check_entailment_batch(self, items: Sequence[entailment.Item],
                               deadline: Deadline) -> Iterator[entailment.Outcome]:
        """(index, decision or error) per item, in order; unreadable items come as their error."""
        return entailment.check_batch(items, self.limits, deadline, self.prolog_seconds, self.prolog_workers,
                                      self.prover)


def start_prolog(workers: int = 1, slice_s: float = 0.0) -> None:
    """Start this process's Prolog worker with the equivalence and RADD programs (`workers` > 1: a
    pool for batches; `slice_s` > 0: two lanes, `PrologWorker.enable_lanes`)."""
    from ambit.logic.runtime.worker import PrologUnavailable, worker

    try:
        worker()
    except PrologUnavailable as e:
        log.warning("Prolog unavailable: %s (equivalence and RADD requests will fail)", e)
        return
    from ambit.logic import radd

    try:
        worker().consult(radd.PROGRAM)
        logic.equivalent("exists x . a(x)", "exists y . a(y)", fmt=FOL, time_limit=10.0)  # consults + warms up
        from ambit.logic.runtime import pool as prolog_pool

        if workers > 1:
            prolog_pool.warm(workers, "equivalence.pl", "prove.pl", "json_call.pl")
        if slice_s > 0:
            prolog_pool.enable_lanes(worker(), slice_s)
            prolog_pool.lane().submit(prolog_pool.warm_programs, ("equivalence.pl", "prove.pl", "json_call.pl", radd.PROGRAM))
    except Exception:  # noqa: BLE001 - the requests report their own errors
        log.warning("Prolog warm-up failed", exc_info=True)
