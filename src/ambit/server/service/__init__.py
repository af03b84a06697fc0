"""The service core of ambit's server: every operation of AmbitService on plain values, with
failures as `ServiceError`s. No gRPC here; `server.servicer` and `server.convert` are the edge."""

from .core import DEFAULT_PROLOG_SECONDS, VERSION, AmbitCore, CanonicalQuery, ModelCounters, ServerInfo
from .deadline import Deadline
from .distribution import Candidate, Distribution, MeaningClass
from .entailment import EntailmentQuery
from .equivalence import EquivalenceAnswer, EquivalenceQuery
from .explain import ExplainQuery
from .generation import GenerateQuery
from .errors import (
    Cancelled, DeadlineExceeded, InvalidField, MalformedLF, ModelUnavailable, Overloaded, ServiceError,
)
from .prompting import DecodingOptions, ParseQuery, PromptSpec, Vocabulary
from .radd import RaddAnswer, RaddQuery
from .scoring import ScoreQuery

__all__ = [
    "DEFAULT_PROLOG_SECONDS", "VERSION", "AmbitCore", "Cancelled", "CanonicalQuery", "Candidate", "Deadline",
    "DeadlineExceeded", "DecodingOptions", "Distribution", "EntailmentQuery", "EquivalenceAnswer", "EquivalenceQuery",
    "ExplainQuery", "GenerateQuery", "InvalidField", "MalformedLF", "MeaningClass", "ModelCounters", "ModelUnavailable",
    "Overloaded",
    "ParseQuery", "PromptSpec", "RaddAnswer", "RaddQuery", "ScoreQuery", "ServerInfo", "ServiceError",
    "Vocabulary",
]
