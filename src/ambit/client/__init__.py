"""ambit client: a typed wrapper over the gRPC stubs (:class:`Client`), the
``ambit`` command line and ``ambit eval`` (evaluation runners, metrics, reports)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for type checkers and the API docs; at run time the names load lazily below
    from ambit.client.api import (AmbitError, CandidateScore, Client, Entailment, Equivalence, LFCandidate,
                                  MeaningClass, ModelInfo, ParseDistribution, RaddVerdict, Scores, Stats)

__all__ = ["AmbitError", "CandidateScore", "Client", "Entailment", "Equivalence", "LFCandidate", "MeaningClass",
           "ModelInfo", "ParseDistribution", "RaddVerdict", "Scores", "Stats"]


def __getattr__(name: str):
    # Lazy: `client.eval.metrics` etc. stay importable without grpc/protobuf loaded.
    if name in __all__:
        from ambit.client import api
        return getattr(api, name)
    raise AttributeError(name)
