"""A parse request's prompt (literal, AmP, or the default few-shot mix) and its decoding options."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from ambit import logic
from ambit.logic.syntax.dialect import FOL, dialect

from ambit.server.guard.limits import Limits
from ambit.server.model import DecodeParams
from ambit.server.service import validate
from ambit.server.service.errors import InvalidField


@dataclass(frozen=True)
class PromptSpec:
    """An AmP prompt the server builds (setting zeroshot | fewshot; shots 0: the default)."""

    setting: str
    type: str
    ratio: float = 0.0
    seed: int = 0
    shots: int = 0


@dataclass(frozen=True)
class Vocabulary:
    """A closed vocabulary for decoding; all lists empty means the AmP lexicon."""

    unary: tuple[str, ...] = ()
    binary: tuple[str, ...] = ()
    constants: tuple[str, ...] = ()
    variables: tuple[str, ...] = ()


@dataclass(frozen=True)
class DecodingOptions:
    """Decoding as requested: 0 means the default for every number."""

    strategy: str = "beam"  # beam | sample
    beam_size: int = 0
    num_samples: int = 0
    temperature: float = 0.0
    top_p: float = 0.0
    max_tokens: int = 0
    seed: int = 0
    vocabulary: Vocabulary | None = None  # None: open grammar


@dataclass(frozen=True)
class ParseQuery:
    """What to parse: utterance, prompt (`prompt` or `spec`), format, decoding, and `explain`."""

    utterance: str = ""
    prompt: str | None = None
    spec: PromptSpec | None = None
    fmt: str = FOL
    decoding: DecodingOptions = field(default_factory=DecodingOptions)
    explain: bool = False
    time_limit_s: float = 0.0  # Prolog budget per call; 0: the server default


def prompt(query: ParseQuery, limits: Limits) -> str:
    """The prompt text the model continues."""
    utterance = validate.text(query.utterance, "utterance", limits.max_prompt_chars, allow_empty=True)
    if not dialect(query.fmt).amp and query.prompt is None:  # AmP's prompts are written in fol / lisp
        raise InvalidField("prompt", f"the {query.fmt} format needs a literal prompt (the default prompt and "
                           "prompt_spec build AmP prompts in fol or lisp)", reason="EMPTY")
    if query.prompt is not None:
        validate.text(query.prompt, "prompt", limits.max_prompt_chars)
        text = query.prompt.replace("{utterance}", utterance)
    elif query.spec is not None:
        validate.text(utterance, "utterance", limits.max_prompt_chars)
        text = spec_prompt(query.spec, utterance, query.fmt)
    elif utterance:
        text = default_prompt(utterance, query.fmt)
    else:
        raise InvalidField("utterance", "set an utterance (parsed with the default prompt), "
                           "a prompt or a prompt_spec", reason="EMPTY")
    return validate.text(text, "prompt", limits.max_prompt_chars)


DEFAULT_SHOTS_PER_TYPE = 2  # the default prompt shows each AmP type once with LF0, once with LF1


def default_prompt(utterance: str, fmt: str) -> str:
    """The prompt for an utterance alone: two examples of each AmP type, one with LF0 and one with
    LF1 so no reading is favoured, in a fixed shuffled order (the same bytes on every call)."""
    from ambit.generators import amp

    return amp.prompt_text(_default_demos(fmt), utterance)


@functools.cache
def _default_demos(fmt: str) -> tuple[tuple[str, str], ...]:
    import random

    from ambit.generators import amp

    demos = []
    for t in amp.AMBIGUOUS_TYPES:
        pool = amp.pairs(t)
        picked = random.Random(f"ambit-default-prompt:{t}").sample(range(len(pool)), DEFAULT_SHOTS_PER_TYPE)
        demos += [(pool[j]["surface"], amp.render_lf(pool[j][f"lf{i % 2}"], fmt, True))
                  for i, j in enumerate(picked)]
    random.Random("ambit-default-prompt:order").shuffle(demos)
    return tuple(demos)


def spec_prompt(spec: PromptSpec, utterance: str, fmt: str) -> str:
    """The AmP prompt (generators.amp) of `spec` with `utterance` as its test sentence."""
    from ambit.generators import amp

    if not spec.type:
        raise InvalidField("prompt_spec.type", "an ambiguity type is needed (e.g. scope, pp, conj)", reason="EMPTY")
    if not (0.0 <= spec.ratio <= 1.0):
        raise InvalidField("prompt_spec.ratio", f"{spec.ratio} is outside [0, 1]", reason="OUT_OF_RANGE")
    try:
        return amp.prompt_for_utterance(
            utterance, setting=spec.setting, type=spec.type, ratio=spec.ratio, seed=spec.seed, fmt=fmt,
            shots=spec.shots or None)
    except (ValueError, KeyError) as e:
        raise InvalidField("prompt_spec.type", f"{spec.type!r}: {e}", reason="BAD_PROMPT_SPEC") from None


def decoding(d: DecodingOptions, fmt: str, limits: Limits) -> tuple[DecodeParams, str | None]:
    """Decoding parameters with defaults applied, and the grammar to decode under (None: open)."""
    beam = d.strategy == "beam"
    k = (d.beam_size or 5) if beam else (d.num_samples or 10)
    if k > limits.max_beam:
        raise InvalidField("decoding.beam_size" if beam else "decoding.num_samples",
                           f"{k}; the limit is {limits.max_beam}", reason="TOO_LARGE")
    temperature = d.temperature or 1.0
    top_p = d.top_p or 1.0
    if not (0.0 < temperature <= 100.0) or math.isnan(temperature):
        raise InvalidField("decoding.temperature", f"{d.temperature} is outside (0, 100]", reason="OUT_OF_RANGE")
    if not (0.0 < top_p <= 1.0):
        raise InvalidField("decoding.top_p", f"{d.top_p} is outside (0, 1]", reason="OUT_OF_RANGE")
    max_tokens = d.max_tokens or 128
    if max_tokens > limits.max_tokens:
        raise InvalidField("decoding.max_tokens", f"{max_tokens}; the limit is {limits.max_tokens}", reason="TOO_LARGE")
    lf = dialect(fmt)
    if lf.full:  # a full dialect's formulas (FOLIO's): open over names, so no closed vocabulary
        if d.vocabulary is not None:
            raise InvalidField("decoding.closed_vocabulary", f"the {fmt} format decodes under its own open grammar "
                               f"(logic/grammars/{lf.decode_grammar}.lark); leave closed_vocabulary unset",
                               reason="NOT_SUPPORTED")
        grammar: str | None = lf.decode_grammar_text()
    else:
        grammar = None if d.vocabulary is None else closed_grammar(d.vocabulary, fmt)
    return DecodeParams(d.strategy, k, float(temperature), float(top_p), int(max_tokens),
                        int(d.seed)), grammar


def closed_grammar(v: Vocabulary, fmt: str) -> str:
    """The grammar of LFs over `v` (the AmP lexicon when its word lists are empty)."""
    words = {"unary": list(v.unary), "binary": list(v.binary), "constants": list(v.constants)}
    if not any(words.values()):
        words = _amp_vocabulary()
    try:
        return logic.closed_grammar(fmt, words["unary"], words["binary"], words["constants"],
                                    list(v.variables) or logic.decode.vocab.DEFAULT_VARIABLES)
    except ValueError as e:
        raise InvalidField("decoding.vocabulary", str(e), reason="BAD_VOCABULARY") from None


@functools.cache
def _amp_vocabulary() -> dict[str, list[str]]:
    from ambit.generators import amp

    return amp.vocabulary()
