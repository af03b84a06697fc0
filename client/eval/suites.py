"""The registry: every suite of ``python -m client eval``, by name, and what ``all`` runs.

Adding a suite: implement :class:`client.eval.suite.Suite` in a module of its own and list
an instance here (and in ``ALL`` when ``client eval all`` should run it).
"""

from __future__ import annotations

from client.eval.amp import FewShotSuite, ZeroShotSuite
from client.eval.folio import FolioSuite
from client.eval.implicature import ImplicatureSuite
from client.eval.radd_suite import RaddSuite
from client.eval.suite import Suite

SUITES: dict[str, Suite] = {s.name: s for s in (ZeroShotSuite(), FewShotSuite(), RaddSuite(),
                                                 ImplicatureSuite())}
SUITES["folio"] = FolioSuite()  # not in ALL: it loads its own model in process (README, "FOLIO")

# (output sub-directory, suite) in the order `client eval all` runs them
ALL: tuple[tuple[str, Suite], ...] = (
    ("amp-zeroshot", SUITES["amp-zeroshot"]),
    ("amp-fewshot", SUITES["amp-fewshot"]),
    ("implicature", SUITES["implicature"]),
    ("radd", RaddSuite("prolog")),
    ("radd-model", RaddSuite("model")),
)
