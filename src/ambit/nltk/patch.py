"""NLTK's own `Prover9` and `Mace` replaced by ambit's in every nltk module inside a `with` block,
for NLTK code that makes its own (`Expression.equiv`, ...). Not thread-safe."""

from __future__ import annotations

import contextlib
import importlib
import sys
from typing import Iterator

import nltk
from nltk.inference.mace import Mace
from nltk.inference.prover9 import Prover9

from ambit.nltk.models import ModelBuilder
from ambit.nltk.provers import Prover

# the modules that name NLTK's classes, loaded before the replacement so that none is missed
_USERS = ("nltk.inference", "nltk.inference.prover9", "nltk.inference.mace", "nltk.inference.nonmonotonic",
          "nltk.inference.discourse")


@contextlib.contextmanager
def patched(prover: type[Prover9] = Prover, model_builder: type[Mace] = ModelBuilder) -> Iterator[None]:
    """NLTK's `Prover9` and `Mace` are `prover` and `model_builder` while the block runs."""
    for name in _USERS:
        importlib.import_module(name)
    swaps = {Prover9: prover, Mace: model_builder}
    changed: list[tuple[object, str, object]] = []
    try:
        for name, module in list(sys.modules.items()):
            if module is None or not (name == nltk.__name__ or name.startswith(nltk.__name__ + ".")):
                continue
            for attr in ("Prover9", "Mace"):
                old = getattr(module, attr, None)
                if old in swaps:
                    setattr(module, attr, swaps[old])
                    changed.append((module, attr, old))
        yield
    finally:
        for module, attr, old in reversed(changed):
            setattr(module, attr, old)


__all__ = ["patched"]
