"""RADD in the logic layer: the instance types (`instance.py`), the prompt wordings
(`phrasings.py`, `pairs.yaml`), reading a prompt into an instance (`parse.py`) and verifying an
instance's readings in SWI-Prolog (`verify.py`, over `logic/engine/prolog/radd.pl`).

The verifier's names are re-exported here (`from ambit.logic import radd; radd.verify(...)`).
"""

from ambit.logic.radd.verify import (
    CHUNK,
    PROGRAM,
    READINGS,
    InterpretationVerdict,
    RaddVerdict,
    prolog_input,
    verify,
    verify_batch,
    verify_text,
)

__all__ = [
    "CHUNK",
    "PROGRAM",
    "READINGS",
    "InterpretationVerdict",
    "RaddVerdict",
    "prolog_input",
    "verify",
    "verify_batch",
    "verify_text",
]
