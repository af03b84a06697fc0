"""Print the requirements of ambit's core and of the given extras, one per line, from pyproject.toml
(self-references such as `ambit-semantics[server]` resolved). The image build installs them in a layer of
their own, before the sources: a change to the sources alone then reuses the installed packages.

    python deploy/pyproject_deps.py pyproject.toml local,eval
"""

from __future__ import annotations

import re
import sys
import tomllib


def requirements(project: dict, extras: list[str]) -> list[str]:
    name = project["name"]
    optional = project.get("optional-dependencies", {})
    out: list[str] = list(project.get("dependencies", []))
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        if extra not in optional:
            raise SystemExit(f"unknown extra {extra!r}; pyproject.toml has {', '.join(sorted(optional))}")
        seen.add(extra)
        for req in optional[extra]:
            own = re.fullmatch(rf"{re.escape(name)}\[([\w,\s-]+)\]", req.strip())
            if own:
                todo += [e.strip() for e in own.group(1).split(",")]
            else:
                out.append(req)
    return sorted(set(out))


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as fh:
        project = tomllib.load(fh)["project"]
    extras = [e for e in (sys.argv[2] if len(sys.argv) > 2 else "").split(",") if e]
    print("\n".join(requirements(project, extras)))
