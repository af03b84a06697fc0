"""The registry: every suite of ``ambit eval``, by name, and what ``all`` runs (a new suite
implements :class:`client.eval.suite.Suite` and is listed here)."""

from __future__ import annotations

from ambit.client.eval.amp.suite import FewShotSuite, ZeroShotSuite
from ambit.client.eval.folio.suite import FolioSuite
from ambit.client.eval.implicature.suite import ImplicatureSuite
from ambit.client.eval.radd.runner import RaddSuite
from ambit.client.eval.suite import Suite

SUITES: dict[str, Suite] = {s.name: s for s in (ZeroShotSuite(), FewShotSuite(), RaddSuite(),
                                                 ImplicatureSuite())}
SUITES["folio"] = FolioSuite()  # not in ALL: it loads its own model in process (docs/folio.md)

# (output sub-directory, suite) in the order `ambit eval all` runs them
ALL: tuple[tuple[str, Suite], ...] = (
    ("amp-zeroshot", SUITES["amp-zeroshot"]),
    ("amp-fewshot", SUITES["amp-fewshot"]),
    ("implicature", SUITES["implicature"]),
    ("radd", RaddSuite("prolog")),
    ("radd-model", RaddSuite("model")),
)
