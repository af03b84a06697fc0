"""Protobuf messages to the service core's values and back. Enum values the proto does not
define are the only errors raised here (INVALID_ARGUMENT, reason UNKNOWN_ENUM); every other
check belongs to the core.

The conversions are grouped by RPC family: ``convert.logic`` (equivalence, canonical forms, RADD,
explanations, entailment), ``convert.model`` (scoring, parsing, generation, model info and
stats), and what they share in ``convert.common``; every name is importable from here.
"""

from __future__ import annotations

from ambit.server.convert.common import FORMATS, batch_result, enum, read_items  # noqa: F401
from ambit.server.convert.logic import (  # noqa: F401
    CONSISTENCY, ENTAILMENT_FORMATS, ENTAILMENT_VERDICTS, EQUIVALENCE_FORMATS, FOL_DIALECTS, FORMAT_ENUM,
    VAR_NAMINGS, VERDICTS, canonical_query, canonical_response, entailment_query, entailment_response,
    equivalence_query, equivalence_response, explain_query, explain_response, explanation_message, finite_model, proof_step,
    radd_query, radd_response,
)
from ambit.server.convert.model import (  # noqa: F401
    PARSE_STATUSES, SETTINGS, STRATEGIES, decoding_options, distribution_response, generate_query,
    generate_response, model_info_response, parse_query, score_query, score_response,
    stats_response,
)
