"""Reports: Markdown tables in the papers' layouts, matplotlib PNG plots (Agg), an HTML
token-confidence page (AmP Fig. 4). Pure functions of summaries and records.

What every report shares (number formats, Markdown tables, atomic writes, the figure conventions)
is in ``report_common``; each suite's sections are in a module of their own; all are re-exported
here:
``amp/report.py`` (AmP zero-shot and few-shot), ``implicature/report.py`` and ``report_tokens.py``
(the token-confidence page, AmP Fig. 4)."""

from __future__ import annotations

from ambit.client.eval.report_common import (  # noqa: F401 (re-exported: callers use client.eval.report.<name>)
    MARKERS, MIN_HISTOGRAM_ITEMS, Patch, TYPES, Z95, _offsets, _ordered, _save, labelled_bars, md_table, num, pct, plt, wilson_interval, write_json, write_text,
    coverage_line, coverage_markdown, nothing_matched,
)

# --- the suites' sections: each in its own module, which uses report_common's helpers; re-exported
# here, where callers find them (client.eval.report.zeroshot_markdown, ...)

from ambit.client.eval.amp.report import (  # noqa: F401
    fewshot_markdown, plot_fewshot_accuracy, plot_p_lf0_distribution, plot_zeroshot_accuracy, zeroshot_markdown,
)
from ambit.client.eval.implicature.report import (  # noqa: F401
    IMPLICATURE_REFERENCE, IMPLICATURE_TYPES, implicature_by_type_markdown, implicature_generate_markdown,
    implicature_markdown, plot_implicature_by_type, plot_implicature_vs_k,
)
from ambit.client.eval.report_tokens import fig4_section_html, token_confidence_html  # noqa: F401
