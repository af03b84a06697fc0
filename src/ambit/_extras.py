"""What each optional part of ambit needs installed, and the one line that says which extra brings it.

A command checks what it needs before it starts (`require`), so a missing extra is one line and
exit status 2, never a traceback or a server that said "listening" first.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable

DISTRIBUTION = "ambit-semantics"  # the name on the package index: pip install ambit-semantics

# extra -> the top-level modules it installs that ambit imports
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "server": ("grpc_health", "grpc_reflection"),
    "local": ("torch", "transformers", "accelerate", "llguidance", "gguf", "numpy"),
    "remote": ("httpx",),
    "eval": ("matplotlib", "tqdm", "numpy"),
    "provers": ("z3",),
    "web": ("starlette", "uvicorn"),
}
# a missing top-level module -> the extra that installs it (numpy: `eval`, the lighter extra that has it)
EXTRAS: dict[str, str] = {m: extra for extra, mods in EXTRA_MODULES.items() for m in mods}


class MissingExtra(RuntimeError):
    """A command needs a module that is not installed; the message is the one line to print."""


def install_line(extra: str) -> str:
    """`pip install 'ambit-semantics[EXTRA]'`."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def message(module: str, extra: str, instead: str | None = None) -> str:
    """The one line for a missing module: what is missing, the extra that brings it, what else to use."""
    line = f"error: this command needs {module!r}, which is not installed: {install_line(extra)}"
    return f"{line}; or use {instead}" if instead else line


def for_module(name: str | None, instead: str | None = None) -> str | None:
    """The one line for a ModuleNotFoundError's module (`err.name`), or None when no extra brings it."""
    top = (name or "").split(".")[0]
    return message(top, EXTRAS[top], instead) if top in EXTRAS else None


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken or blocked install counts as missing
        return False


def require(extras: Iterable[str], instead: str | None = None) -> None:
    """Raise MissingExtra for the first module of `extras` not installed (imports nothing)."""
    for extra in extras:
        for module in EXTRA_MODULES[extra]:
            if not _installed(module):
                raise MissingExtra(message(module, extra, instead))
