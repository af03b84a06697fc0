"""The LM engine: model loading, forced-decode scoring, grammar-constrained decoding.

No gRPC here: the servicers call these classes.
"""

from .decoder import DecodeCancelled, Decoded, Decoder, DecodeStats, Hypothesis
from .loading import LoadedModel, ModelLoadError, load_model
from .scorer import CandidateScore, Scorer

__all__ = [
    "CandidateScore", "DecodeCancelled", "Decoded", "Decoder", "DecodeStats", "Hypothesis", "LoadedModel", "ModelLoadError", "Scorer",
    "load_model",
]
