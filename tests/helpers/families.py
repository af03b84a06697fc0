"""Tiny random-weight encoder-decoder (T5) and masked (BERT) models for the model-family tests,
built from configs, with word-level tokenizers written into a temp folder (no downloads).
`save` writes a model as a transformers folder, so `load_model(<folder>)` and
`random:<folder>` read it like any other."""

from __future__ import annotations

from pathlib import Path

import torch

from ambit.server.lm.loading import LoadedModel, set_cpu_threads

WORDS = ("yes no question response implicature meaning means asked and responded the a is it "
         "did you do i have not will be there to of in at go come eat like want know . , : ? ! \" '").split()


def word_tokenizer(folder: Path, specials: tuple[str, ...], eos: str | None, mask: str | None = None):
    """A lower-casing word-level fast tokenizer over WORDS (unknown words read `[UNK]`); with
    `eos`, every encoded text ends with it (as T5's tokenizer does), with `mask` (BERT) it reads
    `[CLS] text [SEP]`."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    vocab = {w: i for i, w in enumerate((*specials, *WORDS))}
    tk = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tk.normalizer = normalizers.Lowercase()
    tk.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()])
    if mask:
        tk.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    if eos:
        tk.post_processor = processors.TemplateProcessing(single=f"$A {eos}", special_tokens=[(eos, vocab[eos])])
    kw = dict(unk_token="[UNK]", pad_token="[PAD]", eos_token=eos, mask_token=mask,
              cls_token="[CLS]" if mask else None, sep_token="[SEP]" if mask else None)
    tok = PreTrainedTokenizerFast(tokenizer_object=tk, **{k: v for k, v in kw.items() if v})
    folder.mkdir(parents=True, exist_ok=True)
    tok.save_pretrained(str(folder))
    return tok


def tiny_t5(folder: Path, seed: int = 0) -> LoadedModel:
    """A random 2-layer T5 (encoder-decoder); decoding starts from `[PAD]` (id 0), as in T5."""
    from transformers import T5Config, T5ForConditionalGeneration

    tok = word_tokenizer(folder, ("[PAD]", "</s>", "[UNK]"), eos="</s>")
    set_cpu_threads()
    torch.manual_seed(seed)
    cfg = T5Config(vocab_size=len(tok), d_model=32, d_kv=8, d_ff=64, num_layers=2, num_heads=4,
                   decoder_start_token_id=0, pad_token_id=0, eos_token_id=1)
    model = T5ForConditionalGeneration(cfg).eval()
    with torch.no_grad():  # peaked distributions, so greedy decoding and rankings are not ties
        model.lm_head.weight.normal_(0, 2.0)
    return LoadedModel(model, tok, torch.device("cpu"), torch.float32, "tiny-t5", cfg.vocab_size, kind="seq2seq")


def tiny_bert(folder: Path, seed: int = 0) -> LoadedModel:
    """A random 2-layer BERT with a masked-LM head."""
    from transformers import BertConfig, BertForMaskedLM

    tok = word_tokenizer(folder, ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"), eos=None, mask="[MASK]")
    set_cpu_threads()
    torch.manual_seed(seed)
    cfg = BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=64, max_position_embeddings=1024, pad_token_id=0)
    model = BertForMaskedLM(cfg).eval()
    return LoadedModel(model, tok, torch.device("cpu"), torch.float32, "tiny-bert", cfg.vocab_size, kind="masked")


def save(lm: LoadedModel, folder: Path) -> Path:
    """`lm` as a transformers folder (config with its architectures, weights, tokenizer)."""
    lm.model.save_pretrained(str(folder))
    lm.tokenizer.save_pretrained(str(folder))
    return folder
