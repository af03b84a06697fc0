"""Reports: Markdown tables in the papers' layouts, matplotlib PNG plots (Agg), an HTML
token-confidence page (AmP Fig. 4). Pure functions of summaries and records; ``report_common``
and each suite's sections (``amp/report.py``, ``implicature/report.py``, ``report_tokens.py``) are
re-exported here."""

from __future__ import annotations

from ambit.client.eval.report_common import (  # noqa: F401 (re-exported: callers use client.eval.report.<name>)
    MARKERS, MIN_HISTOGRAM_ITEMS, Patch, TYPES, Z95, _offsets, _ordered, _save, labelled_bars, md_table, num, pct, plt, wilson_interval, write_json, write_text,
    coverage_line, coverage_markdown, nothing_matched,
)

from ambit.client.eval.amp.report import (  # noqa: F401
    fewshot_markdown, plot_fewshot_accuracy, plot_p_lf0_distribution, plot_zeroshot_accuracy, zeroshot_markdown,
)
from ambit.client.eval.implicature.report import (  # noqa: F401
    IMPLICATURE_REFERENCE, IMPLICATURE_TYPES, implicature_by_type_markdown, implicature_generate_markdown,
    implicature_markdown, plot_implicature_by_type, plot_implicature_vs_k,
)
from ambit.client.eval.report_tokens import fig4_section_html, token_confidence_html  # noqa: F401
