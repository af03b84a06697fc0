"""Protobuf messages to the core's values and back (every name importable here); the only errors
raised are unknown enum values, every other check is the core's."""

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
