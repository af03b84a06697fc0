"""RADD in the logic layer: the instance types, the prompt wordings, reading a prompt into an
instance and verifying an instance's readings in SWI-Prolog (`verify.py`, re-exported here)."""

from ambit.logic.radd.verify import (CHUNK, PROGRAM, READINGS, InterpretationVerdict, RaddVerdict,
                                     prolog_input, verify, verify_batch, verify_text)

__all__ = ["CHUNK", "PROGRAM", "READINGS", "InterpretationVerdict", "RaddVerdict", "prolog_input",
           "verify", "verify_batch", "verify_text"]
