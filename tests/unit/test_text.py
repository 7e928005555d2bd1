from __future__ import annotations

import json
from pathlib import Path

import pytest

import knowledge.text as text_module
from knowledge.text import detect_language, load_tokens, save_tokens, slugify, tokenize


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("How much host RAM does a DGX H100 have?", "en"),
        ("MI300X和H100的显存带宽分别是多少？", "zh"),
        # an English error pasted into a Chinese question
        (
            'docker run --gpus all 报错 could not select device driver "" with capabilities: [[gpu]]，咋整',
            "zh",
        ),
        ("用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？", "zh"),
        ("What does 显存 mean for an H100?", "en"),
        ("训练 70B model 需要多少 GPU 和多大的内存", "zh"),
        ("NVLink", "en"),
        ("显存", "zh"),
        ("对比H100和MI300X", "zh"),  # model names are not English words
        ("H100 vs MI300X", "en"),
        # English terms around a Chinese noun, and no English sentence: Chinese
        ("NVIDIA H100 SXM5 80GB nvlink带宽", "zh"),
        ("Llama 3 70B LoRA 显存", "zh"),
        ("A100 PCIe nvlink带宽", "zh"),
        ("H100 vs 910B 功耗", "zh"),
        ("how much 显存 for Llama 3 70B LoRA", "en"),
        # a Chinese sentence around pasted output: its conjunctions and particles are the reader's
        ("HGX H100 装完驱动 nvidia-smi 正常 但 torch.cuda.is_available() 是 False，error 802", "zh"),
        ("What does 显存的带宽 mean for an H100?", "en"),  # 的 inside a quoted term
    ],
)
def test_detect_language_goes_to_the_majority(text: str, expected: str) -> None:
    assert detect_language(text) == expected


def test_tokenize_segments_chinese_and_keeps_model_names() -> None:
    tokens = tokenize("MI300X和H100的显存带宽分别是多少？")
    assert {"mi300x", "h100", "显存", "带宽"} <= set(tokens)
    assert "的" not in tokens
    assert "？" not in tokens


def test_tokenize_folds_case_plurals_and_drops_stopwords() -> None:
    assert tokenize("The GPUs and their Checkpoints") == ["gpu", "checkpoint"]


def test_slugify_is_stable_and_keeps_chinese() -> None:
    assert slugify("Checkpoint size & frequency") == "checkpoint-size-frequency"
    assert slugify("检查点 大小") == "检查点-大小"
    assert slugify("!!!") == "section"


def test_british_and_american_spellings_are_one_keyword() -> None:
    assert tokenize("rail-optimised utilisation") == tokenize("rail-optimized utilization")
    assert "optimized" in tokenize("Rail-optimised fat-tree topology")


def test_saved_tokens_are_read_only_under_this_tokenizer(tmp_path: Path) -> None:
    text = "一句只在这个测试里出现的话 about saved tokens"
    path = tmp_path / "tokens.json"
    try:
        save_tokens(path, [text])
        assert load_tokens(path) == {text}
        # what a start reads is what it uses: a saved list stands in for segmenting the text again
        body = json.loads(path.read_text(encoding="utf-8"))
        body["tokens"][text] = ["from", "the", "file"]
        path.write_text(json.dumps(body), encoding="utf-8")
        load_tokens(path)
        assert tokenize(text) == ["from", "the", "file"]
        # another fingerprint (the stopwords or the code changed since), a torn file, no file: nothing read
        body["version"] = "another"
        path.write_text(json.dumps(body), encoding="utf-8")
        assert load_tokens(path) == set()
        path.write_text('{"version": "', encoding="utf-8")
        assert load_tokens(path) == set()
        assert load_tokens(tmp_path / "missing.json") == set()
    finally:
        text_module._saved.pop(text, None)
    assert tokenize(text) != ["from", "the", "file"]
