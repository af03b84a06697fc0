"""ambit: what a language model thinks an ambiguous sentence means, checked by logic.

The public API (everything else is private and may change without notice):

- the checker, local and without a model: `parse`, `equivalent`, `entails`, `decide` and
  `canonical_form`, the same names as in `ambit.logic`;
- `Client`, a typed client for a running ambit server (`ambit.client`).

    >>> import ambit
    >>> ambit.equivalent("exists x . man(x)", "exists y . man(y)").verdict
    'EQUIVALENT'

Importing ambit loads nothing heavy: each name is imported on first use, and neither the
checker nor the client ever imports torch.
"""

from __future__ import annotations

import importlib

__version__ = "0.2.0"

_PUBLIC = {
    "parse": "ambit.logic",
    "equivalent": "ambit.logic",
    "entails": "ambit.logic",
    "decide": "ambit.logic",
    "canonical_form": "ambit.logic",
    "Client": "ambit.client",
}

__all__ = ["__version__", *_PUBLIC]


def __getattr__(name: str):
    if name in _PUBLIC:
        value = getattr(importlib.import_module(_PUBLIC[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ambit' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
