"""AmP (Stengel-Eskin et al. 2023): ambiguous utterances with their two LFs, generated from
`lexicon.yaml` and `templates/*.yaml` (docs/generators.md), and the prompts built from them.
Per type as many as AmP's own generate_pairs.py: pp 3,536, scope 4,000, revscope 4,000,
bound 1,680, conj 10,080."""

from ambit.generators.amp.generate import FORMATS, family_rows, generate, pairs, render_lf, vocabulary
from ambit.generators.amp.prompts import AMBIGUOUS_TYPES, INGREDIENTS, fewshot_item_prompts, fewshot_prompts, prompt_text
from ambit.generators.amp.prompts import zeroshot_item_prompt, zeroshot_prompts
from ambit.generators.amp.prompts import prompt_for_utterance
from ambit.generators.amp.spec import Family, Lexicon, SpecError, Template, families, lexicon, load_family

__all__ = [
    "AMBIGUOUS_TYPES", "FORMATS", "INGREDIENTS", "Family", "Lexicon", "SpecError", "Template", "families",
    "fewshot_item_prompts", "zeroshot_item_prompt",
    "family_rows", "fewshot_prompts", "generate", "lexicon", "load_family", "pairs",
    "prompt_text", "render_lf", "vocabulary", "zeroshot_prompts",
]
