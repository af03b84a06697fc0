"""The six prompt templates of `prompt_templates.txt`, read from the file, never retyped: a header
of `;`-separated keys, then one template per line. Templates 2, 5 and 6 hold unescaped quotes,
which a CSV reader mangles, so each value is taken from its first to its last quote.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ambit.generators.implicature.data import ImplicatureDataError

KEYS = ("example_template_text", "phrase_to_split_on_for_bias_prediction", "phrase_to_put_mask",
        "example_instruction_text", "prompt_instruction_text")
FINAL_SLOT = " %s"  # every template ends with its yes/no slot, after one space
MASK_SLOT = "<mask>"  # where a masked model's mask goes; server/lm/masked.py reads the same text


@dataclass(frozen=True)
class Template:
    """One prompt template; `index` is 1-based (its line number after the header)."""

    index: int
    example_template_text: str
    phrase_to_split_on_for_bias_prediction: str
    phrase_to_put_mask: str
    example_instruction_text: str
    prompt_instruction_text: str

    def stem(self, utterance: str, response: str) -> str:
        """The filled template up to (not including) the space before the yes/no word."""
        return self.example_template_text[: -len(FINAL_SLOT)] % (utterance, response)

    def masked(self, utterance: str, response: str, slot: str = MASK_SLOT) -> str:
        """The filled template with `slot` in the yes/no word's place, as the paper masks it."""
        phrase = self.phrase_to_put_mask
        head, _, tail = self.example_template_text.rpartition(phrase)
        return (head % (utterance, response)) + phrase.replace("%s", slot) + tail

    def fill(self, utterance: str, response: str, label: str) -> str:
        """The filled template; equal to `example_template_text % (utterance, response, label)`."""
        return f"{self.stem(utterance, response)} {label}"


def _values(line: str, where: str) -> list[str]:
    values = []
    for field in line.split(";"):
        first, last = field.find('"'), field.rfind('"')
        if first == -1 or first == last:
            raise ImplicatureDataError(f"{where}: field {field!r} is not in double quotes")
        values.append(field[first + 1 : last].replace("\\n", "\n"))
    return values


def _check(template: Template, where: str) -> None:
    text = template.example_template_text
    if text.count("%s") != 3 or text.replace("%s", "").count("%") or not text.endswith(FINAL_SLOT):
        raise ImplicatureDataError(f"{where}: example_template_text {text!r} needs exactly three "
                                   "%s, the last at the end")
    if template.phrase_to_put_mask not in text or template.phrase_to_put_mask.count("%s") != 1:
        raise ImplicatureDataError(f"{where}: phrase_to_put_mask {template.phrase_to_put_mask!r} "
                                   "is not in the template with one %s (the yes/no slot)")


def load_templates(path: str | Path) -> list[Template]:
    """All templates of a do-pigs-fly template file, in file order (index 1, 2, ...)."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        raise ImplicatureDataError(f"{path}: empty file")
    keys = tuple(key.strip() for key in lines[0].split(";"))
    if keys != KEYS:
        raise ImplicatureDataError(f"{path}: line 1: header keys {keys!r}, expected {KEYS!r}")
    templates = []
    for line_number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        where = f"{path}: line {line_number} (template {len(templates) + 1})"
        values = _values(line, where)
        if len(values) != len(KEYS):
            raise ImplicatureDataError(f"{where}: {len(values)} fields, expected {len(KEYS)}")
        template = Template(len(templates) + 1, **dict(zip(KEYS, values)))
        _check(template, where)
        templates.append(template)
    if not templates:
        raise ImplicatureDataError(f"{path}: no templates after the header")
    return templates
