"""The model family of a config: `causal`, `seq2seq` or `masked`, each with its own scorer
(`scorer.py`, `seq2seq.py`, `masked.py`); only causal models decode LFs."""

from __future__ import annotations

KINDS = ("causal", "seq2seq", "masked")


def model_kind(config) -> str:
    """`seq2seq`, `masked` (a masked-LM head by architecture or type mapping), else `causal`."""
    if getattr(config, "is_encoder_decoder", False):
        return "seq2seq"
    archs = getattr(config, "architectures", None) or []
    if any(a.endswith("ForMaskedLM") for a in archs):
        return "masked"
    if any(a.endswith(("ForCausalLM", "LMHeadModel")) for a in archs):
        return "causal"
    from transformers.models.auto.modeling_auto import (MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
                                                        MODEL_FOR_MASKED_LM_MAPPING_NAMES)

    mtype = getattr(config, "model_type", "")
    if mtype in MODEL_FOR_MASKED_LM_MAPPING_NAMES and mtype not in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
        return "masked"
    return "causal"


def auto_class(kind: str):
    """The transformers Auto class that loads a model of `kind`."""
    import transformers

    names = {"causal": "AutoModelForCausalLM", "seq2seq": "AutoModelForSeq2SeqLM", "masked": "AutoModelForMaskedLM"}
    try:
        return getattr(transformers, names[kind])
    except KeyError:
        raise ValueError(f"unknown model kind {kind!r}: expected one of {', '.join(KINDS)}") from None
