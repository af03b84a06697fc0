"""The layers of the package import downwards only: `ambit.logic` nothing from
`ambit.generators`, `ambit.server`, `ambit.client` or the command line (`ambit.cli`);
`ambit.generators` nothing from `ambit.server`, `ambit.client` or `ambit.cli`; the client,
`eval` included, nothing of the model engine (`ambit.server.lm`: it embeds a server through
`ambit.server`'s surface); `ambit.server.lm` nothing from `ambit.proto` or `grpc` (the engine
knows no RPC). The light core (`ambit.logic`, `ambit.client` without its `eval` runner) never
loads torch, transformers or matplotlib, and the remote backend no torch.

Checked three ways, because each misses what the others see:
- in a fresh interpreter, importing the package and every submodule (walked with pkgutil) leaves
  no module of a forbidden package in `sys.modules` (this sees imports made through third
  packages);
- no import statement in the package's source names a forbidden package, including imports
  inside functions, which `sys.modules` shows only once the function has run;
- for the two bottom layers (`REACH`), no chain of ambit imports from any of their modules,
  `__main__` included, reaches a forbidden one through a module outside them (an entry point
  routed through `ambit.cli`, a shared module such as `ambit._extras` that reaches the server).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

ENGINE = "ambit.server.lm"  # the model engine (torch, the weights)
LAYERS = {  # package -> the modules (and their submodules) it must not import
    "ambit.logic": ("ambit.generators", "ambit.server", "ambit.client", "ambit.cli", "torch", "transformers",
                    "matplotlib"),
    "ambit.generators": ("ambit.server", "ambit.client", "ambit.cli"),
    "ambit.server.lm": ("ambit.proto", "grpc"),
    "ambit.server.remote": ("torch", "transformers", ENGINE),
    # the client (not its eval runner, which draws plots); the embedded server is loaded on demand
    "ambit.client": ("torch", "transformers", "matplotlib", ENGINE),
    "ambit.client.eval": ("torch", "transformers", ENGINE),
    # the web pages sit on a service core of their own, in a process of their own, never on the gRPC
    # server's code; they reach that server as a client for the model (web.upstream: grpc and the
    # proto) and read the same token file (server.guard.auth's store)
    "ambit.web": ("ambit.server.app", "ambit.server.servicer",
                  "ambit.server.guard.security", "torch", "transformers", "matplotlib"),
}
# package -> the module or subpackage its walk leaves out, as allowed to import more
SKIP = {
    "ambit.client": "ambit.client.eval",  # the evaluation runner draws plots (ambit[eval])
    "ambit.server.remote": "ambit.server.remote.local_vllm",  # converts the default GGUF for vLLM (ambit[local])
}


def _forbidden(module: str, forbidden: tuple[str, ...]) -> bool:
    return any(module == f or module.startswith(f + ".") for f in forbidden)


# Run with the repository as the working directory, so `python -c` imports this checkout.
_IMPORT_ALL = """
import importlib, json, pkgutil, sys
package = importlib.import_module(sys.argv[1])
skip = sys.argv[2] if len(sys.argv) > 2 else None
names = [package.__name__] + [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
                              if not (skip and (m.name == skip or m.name.startswith(skip + ".")))]
for name in names:
    importlib.import_module(name)
print(json.dumps({"imported": names, "loaded": sorted(sys.modules)}))
"""


def _import_all(package: str) -> tuple[list[str], list[str]]:
    """(the package's modules, every module in sys.modules afterwards) from a fresh interpreter."""
    skip = [SKIP[package]] if package in SKIP else []
    proc = subprocess.run([sys.executable, "-c", _IMPORT_ALL, package, *skip], cwd=REPO, capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.splitlines()[-1])
    return out["imported"], out["loaded"]


def _import_statements(path: Path) -> list[tuple[str, int]]:
    """(absolute module name, line) of every import statement in a file, at any depth."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, node.lineno))
    return found


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_importing_a_layer_loads_nothing_from_the_layers_above(package: str) -> None:
    imported, loaded = _import_all(package)
    assert len(imported) > 1, f"pkgutil found no submodules of {package}"
    forbidden = LAYERS[package]
    leaked = [m for m in loaded if _forbidden(m, forbidden)]
    assert not leaked, f"importing {package} and its submodules loads {leaked}"


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_no_import_statement_reaches_the_layers_above(package: str) -> None:
    skip = REPO / "src" / SKIP[package].replace(".", "/") if package in SKIP else None
    files = sorted(p for p in (REPO / "src" / package.replace(".", "/")).rglob("*.py")
                   if skip is None or not (p.with_suffix("") == skip or skip in p.parents))
    assert files, f"no source files for {package}"
    forbidden = LAYERS[package]
    offending = [
        f"{path.relative_to(REPO)}:{line} imports {name}"
        for path in files
        for name, line in _import_statements(path)
        if _forbidden(name, forbidden)
    ]
    assert not offending, "\n".join(offending)


# package -> what no chain of ambit imports from it may reach (through modules of other packages)
REACH = {"ambit.logic": ("ambit.cli", "ambit.server", "ambit.client"),
         "ambit.generators": ("ambit.cli", "ambit.server", "ambit.client")}


def _chains(graph: dict[str, set[str]], package: str, forbidden: tuple[str, ...]) -> list[str]:
    """Each forbidden module reachable from `package`'s modules, as the chain of imports that reaches it."""
    came_from: dict[str, str | None] = {m: None for m in graph if _forbidden(m, (package,))}
    queue, found = list(came_from), []
    while queue:
        module = queue.pop(0)
        if _forbidden(module, forbidden):
            chain = [module]
            while (before := came_from[chain[-1]]) is not None:
                chain.append(before)
            found.append(" -> ".join(reversed(chain)))
            continue
        for target in sorted(graph[module]):
            if target not in came_from:
                came_from[target] = module
                queue.append(target)
    return found


def test_the_chain_finder_finds_a_chain_through_another_package() -> None:
    graph = {"a.main": {"top"}, "top": {"b.x"}, "b.x": set(), "a.y": set()}
    assert _chains(graph, "a", ("b",)) == ["a.main -> top -> b.x"]
    assert _chains(graph, "a", ("c",)) == []


@pytest.mark.parametrize("package", sorted(REACH))
def test_no_chain_of_imports_leads_a_bottom_layer_up(package: str) -> None:
    found = _chains(_module_graph(), package, REACH[package])
    assert not found, f"{package} reaches the layers above:\n" + "\n".join(found)


# --- the shape of the package: small folders, no import cycle -------------------------------

MAX_MODULES = 13  # per folder: modules other than __init__ and __main__ ("about 12")


def test_nothing_imports_the_web_pages() -> None:
    """`ambit.web` is the top of the layers: `ambit serve --http` loads it by name, no module imports it."""
    src = REPO / "src" / "ambit"
    offending = [f"{path.relative_to(REPO)}:{line} imports {name}"
                 for path in sorted(src.rglob("*.py")) if src / "web" not in path.parents
                 for name, line in _import_statements(path) if _forbidden(name, ("ambit.web",))]
    assert not offending, "\n".join(offending)


def test_one_folder_is_named_engine() -> None:
    """`logic/engine` is the prover; the language model is `server/lm` (a package named for what it holds)."""
    src = REPO / "src"
    engines = sorted(p.parent.relative_to(src).as_posix() for p in src.joinpath("ambit").rglob("engine/__init__.py"))
    assert engines == ["ambit/logic/engine"], engines


def test_no_folder_holds_more_than_about_twelve_modules() -> None:
    crowded = []
    for folder in sorted(p for p in (REPO / "src" / "ambit").rglob("*") if p.is_dir() and p.name != "__pycache__"):
        modules = [p.name for p in folder.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
        if folder.name == "v1" and folder.parent.name == "proto":
            continue  # generated stubs
        if len(modules) > MAX_MODULES:
            crowded.append(f"{folder.relative_to(REPO)}: {len(modules)} modules")
    assert not crowded, "split these folders into subpackages:\n" + "\n".join(crowded)


def _module_graph() -> dict[str, set[str]]:
    """ambit module -> the ambit modules it imports (any import statement, at any depth, TYPE_CHECKING
    blocks included; an import of one's own ancestor package is not an edge: it is loaded anyway)."""
    src = REPO / "src"
    modules: dict[str, Path] = {}
    for path in src.joinpath("ambit").rglob("*.py"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        if module.startswith("ambit.proto.v1"):
            continue
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                    base = ".".join(parts + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for target in targets:
                found = owner(target)
                if found and found != module and found.startswith("ambit") and not module.startswith(found + "."):
                    graph[module].add(found)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_ambit_modules() -> None:
    cycles = _cycles(_module_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)
