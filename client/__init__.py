"""ambit client: a typed wrapper over the gRPC stubs (:class:`Client`), the
``python -m client`` command line and ``client eval`` (evaluation runners, metrics, reports)."""

from __future__ import annotations

__all__ = ["AmbitError", "CandidateScore", "Client", "Entailment", "Equivalence", "LFCandidate", "MeaningClass",
           "ModelInfo", "ParseDistribution", "RaddVerdict", "Scores", "Stats"]


def __getattr__(name: str):
    # Lazy: `client.eval.metrics` etc. stay importable without grpc/protobuf loaded.
    if name in __all__:
        from client import api
        return getattr(api, name)
    raise AttributeError(name)
