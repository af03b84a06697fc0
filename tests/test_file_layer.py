"""Every file ambit reads or writes goes through its one file layer, `ambit._files` (issue 45):
no code outside it calls `open`, `Path.read_text`/`write_text`/`read_bytes`/`write_bytes`,
`os.replace`/`os.rename`, or imports `pickle`, `shelve`, `marshal` or `diskcache`.

Checked on the source (AST), as test_layering.py checks imports. A call on a name the file
imports (a module such as `R.write_text` of report_common, or `_files.read_text`) is not a raw
call. What is left is listed in EXCEPTIONS, file by file, each with why; a listed file that no
longer needs its exception fails the test too, so the list only shrinks."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import SRC

RAW_ATTRS = {"read_text", "write_text", "read_bytes", "write_bytes"}
RAW_OS = {"replace", "rename"}
FORBIDDEN_MODULES = {"pickle", "shelve", "marshal", "diskcache", "dill", "cloudpickle"}
LAYER = "_files.py"

PACKAGE_DATA = "reads a file shipped inside the installed package (ambit's own data at a fixed path, no user input)"
OWN_OUTPUT = "writes generated benchmark data into the folder its user names (a generator, not a run folder)"
OTHERS = "in a folder another change is rewriting now (issue 46/47/49); to move onto ambit._files with it"
EXCEPTIONS: dict[str, str] = {
    # ambit's own package data
    "generators/implicature/templates.py": PACKAGE_DATA,
    "generators/radd/generate.py": PACKAGE_DATA,
    "logic/radd/phrasings.py": PACKAGE_DATA,
    "logic/syntax/dialect.py": PACKAGE_DATA + " (the dialects' Lark grammars)",
    "logic/decode/folio.py": PACKAGE_DATA + " (the FOLIO grammar)",
    "logic/explain/read.py": PACKAGE_DATA + " (the explanation grammar)",
    "web/app.py": PACKAGE_DATA + " (the playground's static page)",
    "logic/runtime/swipl.py": "caches SWI-Prolog's own path in a private cache file it writes and reads itself",
    "proto/build.py": "a build step that regenerates the protobuf modules in the source tree (developers only)",
    # model weights and local servers, in the user's model cache
    "server/lm/loading.py": "downloads and unpacks model weights into the model cache (Hugging Face's layout)",
    "server/remote/local_vllm.py": "writes the converted model and a vLLM log into its own private scratch folder",
    # generators write datasets
    "generators/amp/cli.py": OWN_OUTPUT,
    "generators/amp/spec.py": "reads a spec file the user names for the AmP generator",
    "generators/amp/splits.py": OWN_OUTPUT,
    "generators/implicature/cli.py": OWN_OUTPUT,
    "generators/implicature/data.py": "reads a dataset file the user names for the implicature generator",
    "generators/radd/cli.py": OWN_OUTPUT,
    # evaluation suites another change is rewriting now
    "client/eval/compare/runs.py": OTHERS,
    "client/eval/folio/data.py": OTHERS,
    "client/eval/implicature/types.py": OTHERS,
}


def _imported_names(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def raw_uses(path: Path) -> list[str]:
    """`line: what` for every raw file call or forbidden import in one source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    imported = _imported_names(tree)
    found = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Call):
            fn = node.func
            on_module = isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id in imported
            if isinstance(fn, ast.Name) and fn.id == "open":
                what = "open()"
            elif isinstance(fn, ast.Attribute) and fn.attr in RAW_ATTRS and not on_module:
                what = f".{fn.attr}()"
            elif isinstance(fn, ast.Attribute) and fn.attr in RAW_OS and isinstance(fn.value, ast.Name) and fn.value.id == "os":
                what = f"os.{fn.attr}()"
            elif isinstance(fn, ast.Attribute) and fn.attr == "open" and not on_module:
                what = ".open()"  # Path.open, gzip-style module opens are named imports and pass
            elif isinstance(fn, ast.Attribute) and fn.attr == "open" and isinstance(fn.value, ast.Name) \
                    and fn.value.id in {"io", "codecs", "gzip", "bz2", "lzma", "tarfile", "zipfile"}:
                what = f"{fn.value.id}.open()"
        elif isinstance(node, ast.Import):
            bad = [a.name for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
            what = f"import {', '.join(bad)}" if bad else None
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in FORBIDDEN_MODULES:
            what = f"from {node.module} import"
        if what:
            found.append(f"{node.lineno}: {what}")
    return found


def _scan() -> dict[str, list[str]]:
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel != LAYER and (uses := raw_uses(path)):
            out[rel] = uses
    return out


def test_no_file_is_opened_outside_the_file_layer():
    found = _scan()
    unlisted = {rel: uses for rel, uses in found.items() if rel not in EXCEPTIONS}
    assert not unlisted, ("raw file access outside ambit._files (use its read_text / read_bytes / "
                          "iter_jsonl_lines / write_atomic / open_append / open_lock / read_secret, or list the "
                          f"file in EXCEPTIONS with why): {unlisted}")


def test_every_exception_is_still_needed():
    found = _scan()
    stale = sorted(rel for rel in EXCEPTIONS if rel not in found)
    assert not stale, f"these files no longer touch files directly: remove them from EXCEPTIONS: {stale}"


def test_no_module_may_load_pickle_shelve_or_diskcache_even_as_an_exception():
    for rel, uses in _scan().items():
        assert not any("import" in u for u in uses), f"{rel}: {uses} (no exception allows these)"


def test_the_scanner_sees_each_kind_of_raw_access(tmp_path):
    """The check can fail: each forbidden form in a sample file is found, a module call is not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os, pickle\nfrom pathlib import Path\nfrom ambit import _files\nimport diskcache.core\n"
        "open('x')\nPath('x').read_text()\nPath('x').write_bytes(b'')\nos.replace('a', 'b')\n"
        "Path('x').open()\n_files.read_text('x')\nfrom shelve import open as o\n")
    uses = raw_uses(sample)
    assert sorted(u.split(": ", 1)[1] for u in uses) == sorted([
        "import pickle", "import diskcache.core", "open()", ".read_text()", ".write_bytes()", "os.replace()",
        ".open()", "from shelve import"])
