"""The one budget of the engine, whatever the question or dialect, and its one set of defaults.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

DEFAULT_INFERENCES = 2_000_000  # per stage and check (the full proof stage: prove.pl's proof_factor/1 times it)
DEFAULT_MAX_DOMAIN = 8  # the largest model the finite-model search tries
DEFAULT_TIME_LIMIT = 5.0  # seconds per item, kept by Prolog (call_with_time_limit/2 per item)


@dataclass(frozen=True)
class Budget:
    """What every prover gets: seconds per item (to `deadline` once a race set it), Prolog's
    inferences per stage, `max_domain` (0: no model search) and `proof_object` (E's proof)."""

    time_limit: float = DEFAULT_TIME_LIMIT
    inferences: int = DEFAULT_INFERENCES
    max_domain: int = DEFAULT_MAX_DOMAIN
    proof_object: bool = True
    deadline: float | None = None

    def __post_init__(self) -> None:
        if not self.time_limit > 0:
            raise ValueError(f"time_limit must be > 0 seconds, not {self.time_limit!r}")
        if int(self.inferences) < 1:
            raise ValueError(f"inferences must be >= 1, not {self.inferences!r}")
        if int(self.max_domain) < 0:
            raise ValueError(f"max_domain must be >= 0, not {self.max_domain!r}")

    @classmethod
    def of(cls, **options: object) -> "Budget":
        """The budget of an entry point's keywords (None: the default); others are a TypeError."""
        if unknown := set(options) - {"time_limit", "inferences", "max_domain", "proof_object"}:
            raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
        return cls(**{k: v for k, v in options.items() if v is not None})  # type: ignore[arg-type]

    def left(self) -> float:
        """Seconds left to the deadline (a floor of 10 ms), or the whole time limit before a race."""
        if self.deadline is None:
            return self.time_limit
        return max(0.01, self.deadline - time.monotonic())

    def prolog(self) -> str:
        """The term prove.pl and equivalence.pl read: budget(Inferences, MaxDomain, Seconds)."""
        return f"budget({int(self.inferences)},{int(self.max_domain)},{float(self.time_limit):.6f})"


def backstop(items: int, time_limit: float) -> float:
    """When a round trip of `items` items is stopped from outside: limit + 10% + 0.1 s each."""
    return items * (time_limit * 1.1 + 0.1)


__all__ = ["Budget", "DEFAULT_INFERENCES", "DEFAULT_MAX_DOMAIN", "DEFAULT_TIME_LIMIT", "backstop"]
