"""The RADD instance types, defined in `logic/radd/instance.py` (the logic layer reads RADD
prompts and must not import generators) and re-exported here for the generators' callers."""

from ambit.logic.radd.instance import (MONTHS, READINGS, MonthDate, Option, PropertyFact,
                                       RaddInstance, RaddParseError, RelationSpan)

__all__ = ["MONTHS", "READINGS", "MonthDate", "Option", "PropertyFact", "RaddInstance", "RaddParseError", "RelationSpan"]
