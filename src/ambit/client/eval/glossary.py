"""The short glossary at the top of every ``summary.md``: what each figure of that suite means
(the metrics, P, ±, n), so that a report can be read without the papers."""

from __future__ import annotations

_LF = ("- **LF0 / LF1**: the two readings (logical forms) of an ambiguous sentence, numbered as AmP's "
       "released data numbers them (`template_idx` 0 and 1).")
_P = ("- **P(LF0), P(LF1)** (P): the model's forced-decode probability of each LF taken at its least likely "
      "token (min-prob), renormalised over the two LFs so that P(LF0) + P(LF1) = 1. The least likely token "
      "decides: when both LFs' least likely token is one they share, both show 0.500 however much their own "
      "tokens differ (fig4_tokens.html shows every token's p).")
_N = "- **n**: the number of items behind a figure; every bar and point in the plots carries its n."
_MATCH = ("- **accuracy LF0 / LF1**: % of items whose top-1 prediction is that LF (Prolog equivalence, or "
          "canonical string match where the table says so).")

GLOSSARIES: dict[str, list[str]] = {
    "amp-zeroshot": [
        _LF, _MATCH,
        "- **ZM_k**: % of items with both LFs among the model's top k predictions (k = 5: ZM_5).",
        _P, _N,
    ],
    "amp-fewshot": [
        _LF,
        "- **r**: the share of LF0 among the prompt's demonstrations (r = 0: all show LF1).",
        "- **LF0 accuracy at r**: % of items whose top-1 prediction is LF0.",
        "- **FDM** (0–2, lower is better): mean over r of |p̂0 − r| + |p̂1 − (1 − r)|, with p̂0, p̂1 the "
        "shares of top-1 predictions that are LF0, LF1; predictions that are neither count against it.",
        "- **FIM** (0–1, lower is better): mean over r of the mean (P(LF0) − r)². It is computed from the "
        "forced-decode P(LF0), not from the predictions, so it varies even where every accuracy is 0.",
        _P, _N,
    ],
    "implicature": [
        "- **accuracy**: % of (utterance, response) pairs whose implied yes/no the model gets right.",
        "- **k**: in-context examples in the prompt; **T1…T6**: the six prompt templates.",
        "- **mean ± std**: the mean accuracy over templates ± its standard deviation over templates "
        "(not a confidence interval; the plot's band is a 95% Wilson interval over examples).",
        "- **n**: examples ((utterance, response) pairs) per k; **answers**: n × templates (each "
        "template sees the same examples, so its answers to one example are not independent).",
    ],
    "radd": [
        "- **de dicto / de re**: the two readings of the ambiguous description (the relation at the "
        "sentence's date, or the current one); the label is the one consistent with the regularity.",
        "- **P / R / F1**: precision, recall and F1 of each class; **Table 3** means them over the property "
        "pairs, the pooled table counts all instances at once.",
        "- **both consistent**: the premises leave both readings open; **neither**: no usable answer.",
        "- **property pair** `P159_P206`: two Wikidata ids (the relation that changes, the property that "
        "does not), named beside each id.",
        "- **n**: instances behind a figure.",
    ],
    "all": [
        "- Each suite's own summary.md has its glossary; the headlines below use the same terms.",
        "- **LF0 / LF1**, **ZM5**: AmP readings and both-in-top-5 rate; **FDM**, **FIM**: few-shot "
        "distribution and probability mismatch (lower is better).",
        "- **±** (implicature): standard deviation of the accuracy over prompt templates.",
        "- **n**: items behind a figure.",
    ],
}


def glossary(suite: str) -> str:
    """The Markdown glossary block of `suite` (KeyError for a suite without one)."""
    return "\n".join(["**Glossary**", "", *GLOSSARIES[suite], ""]) + "\n"
