"""The decoding-constraint interface and its null version. A state after a prefix is an immutable
value, so beams fork by keeping values; constrained and unconstrained decoding share the loops."""

from __future__ import annotations

from typing import Protocol, Sequence

import torch


class PartialParse(Protocol):
    """The constraint's state after a prefix of tokens (immutable)."""

    def can_end(self) -> bool:
        """True when the output may end after this prefix."""
        ...

    def is_stopped(self) -> bool:
        """True when no token may follow this prefix."""
        ...

    def append(self, token: int) -> PartialParse | None:
        """The state after `token`, or None when the token may not follow this prefix."""
        ...


class Constraint(Protocol):
    """A rule set over token sequences: where decoding starts, and masks for many states at once."""

    def start(self) -> PartialParse:
        """The state of the empty prefix."""
        ...

    def allowed_next(self, parses: Sequence[PartialParse], vocab: int, device: torch.device) -> torch.Tensor | None:
        """Bool [len(parses), vocab] on `device`: what each state may take next (None: anything)."""
        ...


class NullPartialParse:
    """The state of the null constraint: every prefix may end and go on."""

    def can_end(self) -> bool:
        return True

    def is_stopped(self) -> bool:
        return False

    def append(self, token: int) -> NullPartialParse:
        return self


class NullConstraint:
    """No constraint: plain decoding (the benchmarks' baseline)."""

    _STATE = NullPartialParse()

    def start(self) -> NullPartialParse:
        return self._STATE

    def allowed_next(self, parses: Sequence[PartialParse], vocab: int, device: torch.device) -> None:
        return None
