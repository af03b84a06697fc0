"""The E prover (`eprover`) as a member of the portfolio (portfolio.py): TPTP in, SZS status
and TSTP derivation out.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from typing import Callable, Sequence

from ambit.logic.syntax.ast import Formula
from ambit.logic.syntax.full_render import render_dialect

EXECUTABLE = "eprover"
# SZS statuses with a conjecture: Theorem, CounterSatisfiable; without: (Un)Satisfiable
PROVED = ("Theorem", "Unsatisfiable", "ContradictoryAxioms")
REFUTED = ("CounterSatisfiable", "Satisfiable")


def available() -> bool:
    """Whether `eprover` is on PATH."""
    return shutil.which(EXECUTABLE) is not None


def problem(axioms: Sequence[Formula], conjecture: Formula | None) -> str:
    """A TPTP problem: one `fof(aN, axiom, ...)` line per axiom, then the conjecture, if any."""
    return Problem(axiom_lines(axioms), conjecture).text()


# axioms written between two looks at `check` (axiom_lines): a few milliseconds of work
CHECK_EVERY = 500
# a problem text longer than this goes to E as a file (faster: 11 s, not 28 s, for 150,000 axioms)
FILE_FROM_CHARS = 1 << 20


def axiom_lines(axioms: Sequence[Formula], check: Callable[[], None] | None = None) -> list[str]:
    """One `fof(aN, axiom, ...)` line per axiom; `check` (raising to stop) every CHECK_EVERY."""
    out = []
    for i, a in enumerate(axioms):
        if check is not None and i % CHECK_EVERY == 0:
            check()
        out.append(f"fof(a{i}, axiom, {render_dialect(a, 'tptp')}).")
    return out


@dataclass(frozen=True)
class Problem:
    """A TPTP problem as E gets it: the axioms' lines (axiom_lines) and the conjecture, if any."""

    lines: list[str]
    conjecture: Formula | None

    def text(self) -> str:
        goal = [f"fof(goal, conjecture, {render_dialect(self.conjecture, 'tptp')})."] if self.conjecture is not None else []
        return "\n".join([*self.lines, *goal]) + "\n"

    def start(self, time_limit: float, proof_object: bool = True) -> "EProcess":
        """E started on the problem: through its input, or from FILE_FROM_CHARS as a file."""
        text = self.text()
        if len(text) < FILE_FROM_CHARS:
            return EProcess(text, time_limit, proof_object)
        f = tempfile.NamedTemporaryFile("w", suffix=".p", prefix="ambit-e-", delete=False, encoding="utf-8")
        try:
            with f:
                f.write(text)
            return EProcess(None, time_limit, proof_object, path=f.name, remove=True)
        except BaseException:
            os.unlink(f.name)
            raise


@dataclass(frozen=True)
class EResult:
    """E's answer: the SZS `status` word (None: none printed) and its proof output (`tstp`)."""

    status: str | None
    tstp: str | None = None
    output: str | None = None

    @property
    def proved(self) -> bool | None:
        return True if self.status in PROVED else False if self.status in REFUTED else None


def parse_output(out: str) -> EResult:
    """The SZS status and the TSTP derivation (if any) from E's standard output."""
    status = kind = None
    proof: list[str] | None = None
    kept: str | None = None
    for line in out.splitlines():
        if line.startswith("# SZS status "):
            status = line.split()[3]
        elif line.startswith("# SZS output start"):
            proof, kind = [], line.split()[4] if len(line.split()) > 4 else None
        elif line.startswith("# SZS output end"):
            kept, proof = "\n".join(proof or []) + "\n", None
        elif proof is not None:
            proof.append(line)
    return EResult(status, kept, kind)


def axioms_used(tstp: str) -> list[int]:
    """The indices N of the `aN` axioms (as `problem` names them) that a TSTP derivation cites."""
    return sorted({int(n) for n in re.findall(r"^fof\(a(\d+), axiom,", tstp, re.M)})


def _split_top(text: str) -> list[str]:
    """`text` cut at the commas outside parentheses, brackets and quotes."""
    out, depth, cur, quote = [], 0, [], None
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur).strip())
    return out


def _source(src: str) -> tuple[str, list[str]]:
    """An annotation's rule (`input` for an input) and every leaf parent it uses."""
    src = src.strip()
    if src.startswith("inference("):
        rule, _, parents = _split_top(src[len("inference("):-1])[:3]
        leaves: list[str] = []
        for p in _split_top(parents.strip()[1:-1]) if parents.strip() not in ("[]", "") else []:
            leaves.extend(_source(p)[1] if p.startswith("inference(") else [p])
        return rule, leaves
    if src.startswith("file("):
        return "input", []
    return src, []


def steps(tstp: str) -> list[dict]:
    """E's TSTP derivation as steps in the shape of Prolog's proofs (the wire's ProofStep)."""
    out: list[dict] = []
    number: dict[str, int] = {}
    for line in tstp.splitlines():
        m = re.match(r"^(fof|cnf|tff)\((.*)\)\.\s*$", line.strip())
        if not m:
            continue
        fields = _split_top(m.group(2))
        if len(fields) < 3:
            continue
        name, role, text = fields[:3]
        rule, parents = _source(fields[3]) if len(fields) > 3 else ("input", [])
        number[name] = len(out) + 1
        step: dict = {"step": rule, "clause": number[name], "name": name, "role": role, "literals": [text]}
        if uses := [number[p] for p in parents if p in number]:
            step["uses"] = uses
        if rule == "input":
            step["from"] = "conjecture" if role == "conjecture" else int(name[1:]) if re.fullmatch(r"a\d+", name) else name
        out.append(step)
    return out


class EProcess:
    """One running `eprover` on a problem text (stdin) or file (`path`); `stop()` ends it early."""

    def __init__(self, text: str | None, time_limit: float, proof_object: bool = True, path: str | None = None,
                 remove: bool = False, steps: int | None = None) -> None:
        args = [EXECUTABLE, "--auto", "-s", f"--cpu-limit={max(1, math.ceil(time_limit))}"]
        if steps is not None:  # E's main loop run at most `steps` times: the same answer on a busy machine
            args.append(f"--processed-clauses-limit={int(steps)}")
        if proof_object:
            args.append("--proof-object")
        if path is not None:
            args.append(path)
        self.time_limit = time_limit
        self._stopped = threading.Event()
        self._remove = path if remove else None  # a temporary problem file, removed once E is done
        try:
            self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.DEVNULL, text=True)
        except BaseException:
            self._cleanup()
            raise
        self._text = text

    def _cleanup(self) -> None:
        if self._remove is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._remove)
            self._remove = None

    def result(self) -> EResult:
        """E's answer once it exits: EResult(None) if stopped, ("Timeout") past `time_limit` by the
        wall clock (E's own limit counts CPU seconds)."""
        try:
            out, _ = self._proc.communicate(self._text or "", timeout=self.time_limit)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.communicate()
            return EResult("Timeout")
        except (BrokenPipeError, ValueError):  # stopped while its input was being written
            self._proc.wait()
            return EResult(None)
        finally:
            self._cleanup()
        if self._stopped.is_set():
            return EResult(None)
        return parse_output(out)

    def stop(self) -> None:
        """End E now (from any thread); `result()` then returns EResult(None)."""
        self._stopped.set()
        if self._proc.poll() is None:
            self._proc.kill()


def prove(axioms: Sequence[Formula], conjecture: Formula | None, time_limit: float,
          proof_object: bool = True, steps: int | None = None) -> EResult:
    """E's answer for axioms ⊢ conjecture; `steps` bounds E's main loop (then: ResourceOut)."""
    return EProcess(problem(axioms, conjecture), time_limit, proof_object, steps=steps).result()


def prove_file(path: str, time_limit: float, proof_object: bool = False) -> EResult:
    """E's answer for a TPTP problem file as it is (roles, comments and all)."""
    return EProcess(None, time_limit, proof_object, path=path).result()


__all__ = ["axioms_used", "axiom_lines", "steps", "EProcess", "EResult", "PROVED", "Problem", "REFUTED", "available",
           "parse_output", "problem", "prove", "prove_file"]
