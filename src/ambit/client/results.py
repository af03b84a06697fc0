"""Plain values of the typed client: its arguments as the service's enums and units (seconds as
milliseconds), and its results as dataclasses converted from the service's messages."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ambit.logic.explain import Explanation
from ambit.logic.syntax.dialect import dialects
from ambit.proto.v1 import ambit_pb2 as pb

FORMATS = {d.name: pb.LFFormat.Value(d.wire) for d in dialects()}  # a dialect name → its LFFormat value

FREE_VARIABLES = {None: pb.FREE_VARIABLES_UNSPECIFIED, "universal": pb.FREE_VARIABLES_UNIVERSAL,
                   "constant": pb.FREE_VARIABLES_CONSTANT, "error": pb.FREE_VARIABLES_ERROR}


def short(text: object, names: dict, enum: Any, prefix: str) -> int | None:
    """The proto value `text` names: a short name of `names` ("nltk", any case), or the enum's own
    value name ("LF_FORMAT_NLTK" or "NLTK") of one of `names`' values; None when it names none."""
    if text in names:
        return names[text]
    if not isinstance(text, str):
        return None
    t = text.strip()
    if t.lower() in names:
        return names[t.lower()]
    upper = t.upper()
    for name in (upper, prefix + upper):
        try:
            value = enum.Value(name)
        except ValueError:
            continue
        if value in names.values() and value != 0:
            return value
    return None


def _value(text: object, names: dict, enum: Any, prefix: str, what: str) -> int:
    """`short`'s value, or a ValueError naming ``what`` and its choices."""
    value = short(text, names, enum, prefix)
    if value is None:
        raise ValueError(f"{what} must be one of {', '.join(n for n in names if n)}, not {text!r}")
    return value


def free(policy: str | None) -> int:
    """The proto value of a free-variable policy (None: the format's default)."""
    return _value(policy, FREE_VARIABLES, pb.FreeVariables, "FREE_VARIABLES_", "free_variables")


SYMBOLS = {None: pb.SYMBOLS_UNSPECIFIED, "shared": pb.SYMBOLS_SHARED, "separate": pb.SYMBOLS_SEPARATE}


def symbols(policy: str | None) -> int:
    """The proto value of a name-space rule (None: the format's default): `shared`, or `SYMBOLS_SHARED`."""
    return _value(policy, SYMBOLS, pb.Symbols, "SYMBOLS_", "symbols")


def fmt(name: str) -> int:
    """The proto value of a dialect: its short name (`nltk`), or `LF_FORMAT_NLTK` as the enum spells it."""
    value = short(name, FORMATS, pb.LFFormat, "LF_FORMAT_")
    if value is None:
        raise ValueError(f"format must be one of {sorted(FORMATS)} (or their LFFormat names, LF_FORMAT_NLTK), "
                         f"not {name!r}")
    return value


VAR_NAMINGS = {"amp": pb.VAR_NAMING_AMP, "v": pb.VAR_NAMING_V}
STRATEGIES = {"beam": pb.DECODING_STRATEGY_BEAM, "sample": pb.DECODING_STRATEGY_SAMPLE}
SETTINGS = {"zeroshot": pb.PROMPT_SETTING_ZEROSHOT, "fewshot": pb.PROMPT_SETTING_FEWSHOT}


def var_naming(name: str) -> int:
    """`amp` or `v` (or `VAR_NAMING_V`)."""
    return _value(name, VAR_NAMINGS, pb.VarNaming, "VAR_NAMING_", "vars")


def strategy(name: str) -> int:
    """`beam` or `sample` (or `DECODING_STRATEGY_SAMPLE`)."""
    return _value(name, STRATEGIES, pb.DecodingStrategy, "DECODING_STRATEGY_", "strategy")


def prompt_setting(name: str) -> int:
    """`zeroshot` or `fewshot` (or `PROMPT_SETTING_FEWSHOT`)."""
    return _value(name, SETTINGS, pb.PromptSetting, "PROMPT_SETTING_", "setting")


def ms(seconds: float) -> int:
    """A budget in seconds as the protocol's milliseconds (0: the server's default)."""
    if seconds < 0:
        raise ValueError(f"a Prolog budget cannot be negative ({seconds} s)")
    return int(round(seconds * 1000))


def prompt_source(req, prompt: str | None, setting: str | None, type: str, ratio: float, seed: int) -> None:
    """Set `req`'s prompt: `prompt`, else `setting`'s AmP prompt, else the server's default."""
    if prompt is not None:
        req.prompt = prompt
    elif setting is not None:
        req.prompt_spec.CopyFrom(pb.PromptSpec(setting=prompt_setting(setting), type=type, ratio=ratio,
                                               seed=seed))


_VERDICTS = {pb.VERDICT_EQUIVALENT: "EQUIVALENT", pb.VERDICT_NOT_EQUIVALENT: "NOT_EQUIVALENT",
             pb.VERDICT_UNKNOWN: "UNKNOWN", pb.VERDICT_UNSPECIFIED: "UNSPECIFIED"}
_PARSE_STATUS = {pb.PARSE_STATUS_OK: "OK", pb.PARSE_STATUS_INVALID: "INVALID",
                 pb.PARSE_STATUS_UNFINISHED: "UNFINISHED", pb.PARSE_STATUS_UNSPECIFIED: "UNSPECIFIED"}
_CONSISTENCY = {pb.CONSISTENCY_CONSISTENT: "CONSISTENT", pb.CONSISTENCY_INCONSISTENT: "INCONSISTENT",
                pb.CONSISTENCY_UNKNOWN: "UNKNOWN", pb.CONSISTENCY_UNSPECIFIED: "UNSPECIFIED"}


@dataclass(frozen=True)
class LFCandidate:
    text: str
    logprob: float
    min_prob: float
    probability: float
    parse_status: str               # OK | INVALID | UNFINISHED
    canonical: str                  # "" unless parse_status == OK
    meaning_class: int              # -1 when not parsed
    tokens: list[str] = field(default_factory=list)
    token_probs: list[float] = field(default_factory=list)
    parse_error: str = ""


@dataclass(frozen=True)
class MeaningClass:
    canonical: str
    probability_mass: float
    member_indices: list[int]


@dataclass(frozen=True)
class ParseDistribution:
    candidates: list[LFCandidate]   # best first
    classes: list[MeaningClass]
    classes_exact: bool
    prompt: str
    model_id: str
    unparsed_mass: float


@dataclass(frozen=True)
class ExplainedDistribution:
    """A parse distribution, each class's paraphrase, the two heaviest explained (or None)."""

    distribution: ParseDistribution
    paraphrases: list[str]
    explanation: Explanation | None


@dataclass(frozen=True)
class CandidateScore:
    text: str
    min_prob: float
    min_prob_renorm: float
    sum_logprob: float
    mean_logprob: float
    tokens: list[str] = field(default_factory=list)
    token_probs: list[float] = field(default_factory=list)
    end_logprob: float | None = None


@dataclass(frozen=True)
class Scores:
    scores: list[CandidateScore]    # same order as the candidates
    model_id: str


@dataclass(frozen=True)
class Equivalence:
    verdict: str                    # EQUIVALENT | NOT_EQUIVALENT | UNKNOWN
    a_entails_b: bool | None
    b_entails_a: bool | None
    witness: Any                    # parsed witness JSON, or None
    canonical_a: str
    canonical_b: str


@dataclass(frozen=True)
class Interpretation:
    label: str
    text: str
    verdict: str                    # CONSISTENT | INCONSISTENT | UNKNOWN
    relation: str
    explanation: str


@dataclass(frozen=True)
class RaddVerdict:
    interpretations: list[Interpretation]
    answer: str                     # label of the consistent option; "" if none / several
    derivation: list[str]
    details: Any


@dataclass(frozen=True)
class ModelInfo:
    model_id: str
    device: str
    dtype: str
    vocab_size: int
    formats: list[str]
    model_loaded: bool
    max_batch: int
    server_id: str
    version: str
    limits: dict[str, int]
    kind: str = ""                  # causal | seq2seq | masked ("" from an older server)
    remote: dict | None = None      # a model served elsewhere: base_url, model, capabilities, counters


@dataclass(frozen=True)
class Stats:
    server_id: str
    requests: dict[str, int]        # per RPC name
    errors: dict[str, int]
    model_batches: int
    model_jobs: int
    uptime_seconds: float


def _candidate(c) -> LFCandidate:
    err = c.parse_error.message if c.HasField("parse_error") else ""
    return LFCandidate(text=c.text, logprob=c.logprob, min_prob=c.min_prob, probability=c.probability,
                       parse_status=_PARSE_STATUS.get(c.parse_status, str(c.parse_status)),
                       canonical=c.canonical, meaning_class=c.meaning_class, tokens=list(c.tokens),
                       token_probs=list(c.token_probs), parse_error=err)


def _score(s) -> CandidateScore:
    return CandidateScore(text=s.text, min_prob=s.min_prob, min_prob_renorm=s.min_prob_renorm,
                          sum_logprob=s.sum_logprob, mean_logprob=s.mean_logprob,
                          tokens=list(s.tokens), token_probs=list(s.token_probs),
                          end_logprob=s.end_logprob if s.HasField("end_logprob") else None)


def _json_or_none(text: str) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _equivalence(r) -> Equivalence:
    witness = _json_or_none(r.witness_json)
    if witness is None and r.HasField("witness"):  # a server that sends the typed witness alone
        witness = witness_dict(r.witness)
    return Equivalence(verdict=_VERDICTS.get(r.verdict, str(r.verdict)),
                       a_entails_b=r.a_entails_b if r.HasField("a_entails_b") else None,
                       b_entails_a=r.b_entails_a if r.HasField("b_entails_a") else None,
                       witness=witness,
                       canonical_a=r.canonical_a, canonical_b=r.canonical_b)


def proof_steps(proof) -> list[dict]:
    """A Proof's steps as the witness JSON writes them (`from`: a premise index or the clause's origin)."""
    out = []
    for s in proof.steps:
        step: dict[str, Any] = {"step": s.step}
        if s.step != "start" or s.depth:
            step["depth"] = s.depth
        if s.clause:
            step["clause"] = s.clause
        origin = s.premise_index if s.HasField("premise_index") else s.source
        if origin != "":
            step["from"] = origin
        if s.literal:
            step["literal"] = s.literal
        step.update({key: list(getattr(s, key)) for key in ("literals", "uses") if getattr(s, key)})
        out.append(step)
    return out


def model_dict(m) -> dict:
    """A Model (or FiniteModel) as the witness JSON writes it."""
    out: dict[str, Any] = {"domain": list(m.domain), "constants": dict(m.constants), "true_atoms": list(m.true_atoms)}
    if m.functions:
        out["functions"] = dict(m.functions)
    if m.extensions:
        out["extensions"] = {e.predicate: [list(t.elements) for t in e.tuples] for e in m.extensions}
    return out


def witness_dict(w) -> dict:
    """The typed EquivalenceWitness as the witness JSON dict (what witness_json held)."""
    out: dict[str, Any] = {}
    for key in ("method", "method_a_entails_b", "method_b_entails_a", "direction", "true_in_model",
                "false_in_model", "reason"):
        if getattr(w, key):
            out[key] = getattr(w, key)
    for key in ("proof_a_entails_b", "proof_b_entails_a"):
        if w.HasField(key):
            out[key] = proof_steps(getattr(w, key))
    if w.HasField("model"):
        out["model"] = model_dict(w.model)
    if w.HasField("checked"):
        out["checked"] = w.checked
    if w.answered_by:
        out["answered_by"] = dict(w.answered_by)
    if w.reading_json:
        out["reading"] = _json_or_none(w.reading_json)
    return out
