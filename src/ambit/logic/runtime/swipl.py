"""Where SWI-Prolog lives (`locate_swipl`, for pyswip) and how the worker thread shuts its
engine down at exit (`halt_prolog`)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path


def locate_swipl() -> None:
    """Tell pyswip where SWI-Prolog lives, cached (else pyswip runs `swipl` in every process)."""
    if os.environ.get("LIBSWIPL_PATH") and os.environ.get("SWI_HOME_DIR"):
        return
    try:
        exe = os.path.realpath(shutil.which("swipl") or "")
        st = os.stat(exe)
        key = f"{exe}|{st.st_size}|{st.st_mtime_ns}"
        cache = Path(os.environ.get("AMBIT_CACHE") or Path.home() / ".cache" / "ambit") / "swipl.json"
        try:
            found = json.loads(cache.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            found = {}
        if found.get("key") != key or not os.path.exists(found.get("LIBSWIPL_PATH", "")):
            out = subprocess.run([exe, "--dump-runtime-variables"], capture_output=True, text=True, timeout=30).stdout
            dump = dict(re.findall(r'^(\w+)="(.*)";$', out, re.M))
            found = {"key": key, "LIBSWIPL_PATH": dump["PLLIBSWIPL"], "SWI_HOME_DIR": dump["PLBASE"]}
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(found), encoding="utf-8")
            os.replace(tmp, cache)
    except Exception:  # noqa: BLE001 - an older swipl (no PLLIBSWIPL), no cache folder: pyswip looks itself
        return
    os.environ.setdefault("LIBSWIPL_PATH", found["LIBSWIPL_PATH"])
    os.environ.setdefault("SWI_HOME_DIR", found["SWI_HOME_DIR"])


def halt_prolog() -> None:
    """On the worker thread: shut Prolog down, or release this thread's engine if not its main."""
    try:
        import ctypes

        from pyswip import core

        if not core.PL_is_initialised(None, None):
            return
        if core.PL_thread_self() == 1:
            core.PL_cleanup(0)
        else:
            core._lib.PL_thread_destroy_engine.restype = ctypes.c_int
            core._lib.PL_thread_destroy_engine()
    except Exception:  # pragma: no cover - a different libswipl: exit is only slower
        pass
