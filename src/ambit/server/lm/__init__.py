"""The LM engine: model loading, forced-decode scoring, grammar-constrained decoding (no gRPC)."""

from ambit.server.lm.decoder import DecodeCancelled, Decoded, Decoder, DecodeStats, Hypothesis
from ambit.server.lm.loading import LoadedModel, ModelLoadError, load_model
from ambit.server.lm.scorer import CandidateScore, Scorer

__all__ = ["CandidateScore", "DecodeCancelled", "Decoded", "Decoder", "DecodeStats", "Hypothesis",
           "LoadedModel", "ModelLoadError", "Scorer", "load_model"]
