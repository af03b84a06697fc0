"""ambit in place of NLTK's Prover9: `Prover` (a subclass of `nltk.Prover9`, so whatever NLTK
builds around Prover9 takes it) and `ProverCommand`, answering and raising as Prover9 does through
NLTK. One check answers, `decide(assumptions + [-goal], ⊥)`, so the whole time limit goes to it;
a proof is replayed in Prolog and a countermodel checked before either is returned."""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from nltk.inference.prover9 import Prover9, Prover9Command, Prover9FatalException, Prover9LimitExceededException

from ambit.logic import decide_batch
from ambit.logic.engine.budget import DEFAULT_INFERENCES, DEFAULT_MAX_DOMAIN, DEFAULT_TIME_LIMIT
from ambit.logic.engine.verdict import Decision
from ambit.logic.errors import LFParseError
from ambit.logic.syntax.ast import Eq, Formula, Not, Quant, Var
from ambit.logic.syntax.dialect import dialect
from ambit.logic.syntax.reading import ArityError, check_arities
from ambit.nltk.expressions import DIALECT, read_expression

# ⊥, what the assumptions and the denied goal are asked to entail, written with no constant (its
# negation, ∀x x = x, is all the search sees beside them: no element of a model goes to a name)
FALSE = Not(Quant("forall", "x", Eq(Var("x"), Var("x"))))
NO_LIMIT = 24 * 3600.0  # seconds: Prover9's timeout 0 ("no limit"), kept finite as ambit's engine needs
# Prover9's exit codes (nltk.inference.prover9.p9_return_codes) for a budget that ran out
_LIMIT_CODES = {"time_limit": 4, "memory_limit": 3}
_OTHER_LIMIT = 5  # MAX_GIVEN: ambit's inference and model-size budgets, Prover9's search limits


class ProblemError(Prover9FatalException, ValueError):
    """A problem Prover9 refuses (exit 1) and ambit too: a symbol with two arities or kinds, or a
    formula outside the nltk dialect (`cause`: ambit's error)."""

    def __init__(self, cause: Exception) -> None:
        self.cause = cause
        super().__init__(1, f"%%ERROR: {cause}")


class LimitExceeded(Prover9LimitExceededException):
    """Neither proof nor countermodel within budget (Prover9's exits 3 to 5), with `decision`."""

    def __init__(self, decision: Decision, message: str) -> None:
        self.decision = decision
        super().__init__(_LIMIT_CODES.get(decision.reason or "", _OTHER_LIMIT), message)


class Answer(str):
    """A proof's or search's text (`proof()`), with its `decision` and the `formulas` it numbers."""

    decision: Decision
    formulas: tuple[Formula, ...]

    def __new__(cls, text: str, decision: Decision, formulas: Sequence[Formula] = ()) -> "Answer":
        out = super().__new__(cls, text)
        out.decision, out.formulas = decision, tuple(formulas)
        return out


@dataclasses.dataclass(frozen=True)
class Problem:
    """One question's formulas (assumptions, then any denied goal) and the texts `proof()` shows."""

    formulas: tuple[Formula, ...]
    shown: tuple[str, ...]
    goal: bool

    def labels(self) -> list[str]:
        """What errors call each formula: `assumptions[i]`, and `goal`."""
        n = len(self.formulas) - self.goal
        return [f"assumptions[{i}]" for i in range(n)] + (["goal"] if self.goal else [])


def read_problem(goal: Any, assumptions: Sequence[Any] | None, free_variables: str | None = None) -> Problem:
    """NLTK's goal and assumptions read in the nltk dialect; the denied goal is the last formula."""
    d = dialect(DIALECT, free_variables)
    formulas, shown = [], []
    try:
        for a in assumptions or ():
            formulas.append(read_expression(a, d)[0])
            shown.append(str(a))
        if goal is not None:
            formulas.append(Not(read_expression(goal, d)[0]))
            shown.append(f"-({goal})")
    except LFParseError as e:
        raise ProblemError(e) from None
    return Problem(tuple(formulas), tuple(shown), goal is not None)


class Prover(Prover9):
    """ambit's prover as `nltk.Prover9(timeout)` (0: no limit); `inferences` defaults to ambit's,
    scaled with the timeout beyond 5 s; undecided raises LimitExceeded (`unknown=False`: False)."""

    def __init__(self, timeout: float = 60, *, prover: str = "prolog", inferences: int | None = None,
                 max_domain: int = DEFAULT_MAX_DOMAIN, unknown: str | bool = "raise",
                 free_variables: str | None = None, symbols: str | None = None) -> None:
        if unknown not in ("raise", False):
            raise ValueError(f"unknown must be 'raise' or False, not {unknown!r}")
        self._timeout = timeout
        self.prover, self.max_domain, self.unknown = prover, max_domain, unknown
        self.free_variables, self.symbols = free_variables, symbols
        self.inferences = inferences

    @property
    def time_limit(self) -> float:
        """Seconds one question may take (Prover9's timeout; 0 is NO_LIMIT)."""
        if isinstance(self._timeout, bool) or not isinstance(self._timeout, (int, float)) or self._timeout < 0:
            raise ValueError(f"timeout must be a non-negative number of seconds, got {self._timeout!r}")
        return float(self._timeout) or NO_LIMIT

    def budget(self) -> dict:
        """The keywords of ambit's `decide` for one question under this prover's limits."""
        limit = self.time_limit
        inferences = self.inferences or int(DEFAULT_INFERENCES * max(1.0, min(limit, 600.0) / DEFAULT_TIME_LIMIT))
        return {"time_limit": limit, "inferences": inferences, "max_domain": self.max_domain}

    def decide(self, goal: Any = None, assumptions: Sequence[Any] | None = None) -> Answer:
        """Whether the assumptions and the denied goal are inconsistent (the text; `.decision`)."""
        return self.decide_problem(read_problem(goal, assumptions, self.free_variables))

    def decide_problem(self, problem: Problem) -> Answer:
        if not problem.formulas:
            return Answer("% nothing to prove: no goal and no assumptions\n", Decision("UNCERTAIN", entailed=False))
        try:  # named as NLTK's caller knows them: the assumptions by index, the goal
            check_arities([(label, f, None) for label, f in zip(problem.labels(), problem.formulas)],
                          dialect(DIALECT, symbols=self.symbols).symbols)
            d = decide_batch([(list(problem.formulas), FALSE)], DIALECT, prover=self.prover, symbols=self.symbols,
                             **self.budget())[0]
        except ArityError as e:
            raise ProblemError(e) from None
        return Answer(proof_text(problem, d), d, problem.formulas)

    def _prove(self, goal: Any = None, assumptions: Sequence[Any] | None = None, verbose: bool = False):
        answer = self.decide(goal, assumptions)
        if verbose:
            print(answer)
        d = answer.decision
        if d.entailed is None and self.unknown == "raise":
            raise LimitExceeded(d, answer)
        return d.entailed is True, answer

    def _call_prooftrans(self, input_str: str, args: Sequence[str] = (), verbose: bool = False):
        """Prover9's `prooftrans`: ambit's text is the proof, as it is."""
        return input_str, 0

    def _call_prover9(self, input_str: str, args: Sequence[str] = (), verbose: bool = False):
        raise NotImplementedError("ambit.nltk.Prover does not run Prover9: use prove() or decide()")


class ProverCommand(Prover9Command):
    """NLTK's Prover9Command with ambit's Prover; `decision()` is the last `prove()`'s."""

    def __init__(self, goal: Any = None, assumptions: Sequence[Any] | None = None, timeout: float = 60,
                 prover: Prover | None = None) -> None:
        super().__init__(goal, assumptions, timeout, prover if prover is not None else Prover(timeout))

    def decision(self) -> Decision:
        """ambit's Decision behind the last `prove()` (LookupError before one)."""
        if self._result is None or not isinstance(self._proof, Answer):
            raise LookupError("You have to call prove() first to get a decision!")
        return self._proof.decision


# --------------------------------------------------------------------------- the text of a proof


def _source(x: Any, problem: Problem) -> str:
    if isinstance(x, int):
        if problem.goal and x == len(problem.formulas) - 1:
            return f"{x + 1} (the denied goal)"
        return str(x + 1)
    return str(x)


def _step(s: dict, problem: Problem) -> str:
    parts = [s.get("step", "?")]
    if "depth" in s:
        parts.append(f"depth {s['depth']}")
    if "literals" in s:
        parts.append(" | ".join(s["literals"]))
    if "literal" in s:
        parts.append(s["literal"])
    if "clause" in s:
        parts.append(f"clause {s['clause']}")
    if "from" in s:
        parts.append(f"from {_source(s['from'], problem)}")
    if s.get("uses"):
        parts.append("uses " + ", ".join(str(u) for u in s["uses"]))
    return "  " + ", ".join(str(p) for p in parts)


def _formula_lines(problem: Problem, used: Sequence[int] | None = None) -> list[str]:
    last = len(problem.shown) - 1
    return [f"{i + 1} {text}.  [{'goal, denied' if problem.goal and i == last else 'assumption'}]."
            for i, text in enumerate(problem.shown) if used is None or i in used]


def model_lines(model: dict) -> list[str]:
    """A model as ambit reports it (domain, constants, functions, true atoms), one fact a line."""
    lines = [f"% domain: {', '.join(model['domain'])}"]
    lines += [f"{c} = {e}." for c, e in sorted(model.get("constants", {}).items())]
    lines += [f"{t} = {e}." for t, e in model.get("functions", {}).items()]
    lines += [f"{a}." for a in model.get("true_atoms", [])]
    lines.append("% every other atom is false")
    return lines


def proof_text(problem: Problem, d: Decision) -> str:
    """The text `proof()` returns (a proof, a countermodel, or why neither) in Prover9's layout."""
    bar = "=" * 30
    if d.entailed:
        used = sorted(set(d.premises_used))
        lines = [f"{bar} PROOF {bar}", "",
                 "% ambit: a proof, replayed in SWI-Prolog before it was returned",
                 f"% Formulas used: {', '.join(str(i + 1) for i in used) or 'none'}.", ""]
        lines += _formula_lines(problem, used) + [""] + [_step(s, problem) for s in d.proof or []]
        lines += ["", "THEOREM PROVED" if problem.goal else "THE ASSUMPTIONS ARE INCONSISTENT", "",
                  f"{bar} end of proof {bar}"]
    elif d.entailed is False:
        what = "a countermodel: the assumptions true, the goal false" if problem.goal else "a model of the assumptions"
        lines = [f"{bar} MODEL {bar}", "", f"% ambit: no proof; {what} (checked before it was returned)", ""]
        lines += _formula_lines(problem) + [""] + model_lines(d.countermodel or {"domain": []})
        lines += ["", "SEARCH FAILED" if problem.goal else "NO CONTRADICTION", "", f"{bar} end of model {bar}"]
    else:
        lines = [f"{bar} UNKNOWN {bar}", "",
                 f"% ambit: neither a proof nor a countermodel within the budget ({d.reason})", ""]
        lines += _formula_lines(problem) + ["", f"{bar} end of search {bar}"]
    return "\n".join(lines) + "\n"


__all__ = ["Answer", "LimitExceeded", "Problem", "ProblemError", "Prover", "ProverCommand", "model_lines",
           "proof_text", "read_problem"]
