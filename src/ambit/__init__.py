"""ambit: what a language model thinks an ambiguous sentence means, checked by logic.

The public API (all else is private): the local checker's `parse`, `equivalent`, `entails`,
`decide` and `canonical_form` (as in `ambit.logic`) and `Client`, for a running server
(`ambit.client`); each is imported on first use, and neither imports torch.

    >>> import ambit
    >>> ambit.equivalent("exists x . man(x)", "exists y . man(y)").verdict
    'EQUIVALENT'
"""

import importlib as _importlib

_DISTRIBUTION = "ambit-semantics"  # pip install ambit-semantics; the import name stays `ambit`

_PUBLIC = {
    "parse": "ambit.logic",
    "equivalent": "ambit.logic",
    "entails": "ambit.logic",
    "decide": "ambit.logic",
    "canonical_form": "ambit.logic",
    "Client": "ambit.client",
}

__all__ = ["__version__", *_PUBLIC]


def _version() -> str:
    """The installed distribution's version, or an uninstalled checkout's pyproject.toml's."""
    from importlib import metadata

    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        from ambit import _paths

        if _paths.CHECKOUT is None:
            raise
        import tomllib

        from ambit import _files

        return tomllib.loads(_files.read_text(_paths.CHECKOUT / "pyproject.toml"))["project"]["version"]


def __getattr__(name: str):
    if name == "__version__":
        value = globals()["__version__"] = _version()
        return value
    if name in _PUBLIC:
        value = globals()[name] = getattr(_importlib.import_module(_PUBLIC[name]), name)
        return value
    raise AttributeError(f"module 'ambit' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (and the module's dunders), not the helpers this module imports."""
    return sorted({n for n in globals() if n.startswith("__") and n.endswith("__")} | set(__all__))
