"""Language detection and keyword tokenisation for mixed Chinese and English text."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from knowledge.files import write_aside

Language = Literal["en", "zh"]
log = logging.getLogger(__name__)

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# product names such as H100 or MI300X are not English words: only letters-only words count
_LATIN_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+(?![A-Za-z0-9])")
_TOKEN = re.compile(r"[\w.+]+", re.UNICODE)

# Function words that carry no topic; kept short on purpose, BM25's idf handles the rest.
_STOPWORDS = frozenset(
    (
        "a an and are as at be by can do does for from how i in is it its me my of on or our so that the "
        "their them there these this to was we what when where which who why will with you your should "
        "would could much many need needs about into than then also if not no yes any "
        "的 了 和 与 及 或 是 在 有 为 对 要 把 被 吗 呢 吧 啊 么 什么 怎么 怎样 如何 多少 哪些 哪个 一个 "
        "我 我们 你 你们 他 她 它 这 那 这个 那个 就 都 也 还 而 并 但 等 中 上 下 之 个 些 能 会 可以 需要 "
        # chat's fillers, which name no topic ("RoCE 要调啥参数 听说很坑", "honestly, is ROCm ready yet")
        "啥 咋 听说 有人 还是 只是 到底 真的 现在 一下 问下 请问 大家 靠 谱 "
        "honestly actually just like kinda really pls please ok okay guys thing stuff"
    ).split()
)


def detect_language(text: str) -> Language:
    """ "zh" when the sentence is Chinese, else "en".

    Chinese engineers write Chinese sentences full of English terms ("用 vLLM serve Qwen2.5-72B，64 并发够吗"):
    a message whose Chinese holds the grammar of a sentence (question words, particles, verbs like 用/要)
    is Chinese however many Latin words it carries. Otherwise the majority decides, a Chinese word being
    about 1.5 characters.
    """
    cjk = len(_CJK.findall(text))
    latin = len(_LATIN_WORD.findall(text))
    if cjk >= 2 and _CHINESE_GRAMMAR.search(text):
        return "zh"
    if cjk >= 4 and _CHINESE_PARTICLES.search(text):
        # "HGX H100 装完驱动 nvidia-smi 正常 但 torch.cuda.is_available() 是 False": a Chinese sentence around pasted
        # output, its particles the Chinese reader's
        return "zh"
    if cjk >= 2 and not _ENGLISH_GRAMMAR.search(text):
        # "NVIDIA H100 SXM5 nvlink带宽", "Llama 3 70B LoRA 显存": English terms around a Chinese noun, no
        # English sentence to speak of
        return "zh"
    return "zh" if cjk / 1.5 > latin or (cjk and not latin) else "en"


# function words and question words: present when the Chinese is the sentence, not a quoted term
_CHINESE_GRAMMAR = re.compile(
    r"[吗呢吧嘛啊]|多少|多大|多久|几[张台个块天]|怎么|怎样|什么|啥|哪[个些种款]|还是|能不能|可不可以|够不够|够[吗用]|需要|"
    r"我们|我想|想[要用]|如果|要[用多跑]|用[什哪几]|是否|为什么|请问|有没有|可以|应该|的话"
    # "报错 could not select device driver …，咋整": an error pasted into a Chinese question
    r"|咋[整办回弄样]|报错|怎么办|咋"
)

# particles and conjunctions that only a Chinese sentence carries, with enough Chinese around them
# ("显存的带宽" is a noun phrase, so 的 is not among them)
_CHINESE_PARTICLES = re.compile(r"但是?|[了就都也却]|是(?=\s*[A-Za-z0-9])|(?<=[A-Za-z0-9\s])是")

# English function words: present when the English is the sentence ("What does 显存 mean for an H100?")
_ENGLISH_GRAMMAR = re.compile(
    r"(?<![A-Za-z0-9])(?:a|an|the|is|are|was|do|does|did|how|what|whats|which|why|when|where|who|can|could|"
    r"should|would|will|we|i|you|our|my|of|for|to|in|on|with|and|or|vs|versus|mean|means|much|many)(?![A-Za-z0-9])",
    re.IGNORECASE,
)


@cache
def _jieba() -> object:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


# "-ise", "-ised", "-ising", "-isation" endings of words of six letters or more, spelled with a z
_BRITISH = re.compile(r"(?<=[a-z]{3})is(e|ed|ing|ation)(?![a-z])")


def american(text: str) -> str:
    """British spellings as American, in lower-case text: "rail-optimised" -> "rail-optimized",
    "utilisation" -> "utilization" (keywords and headings compare as one word)."""
    return _BRITISH.sub(lambda m: "iz" + m.group(1), text)


def tokenize(text: str) -> list[str]:
    """Keyword tokens for BM25: jieba search-mode segmentation, lower case, no stopwords or punctuation."""
    if not text:
        return []
    known = _saved.get(text)
    return list(known if known is not None else _tokens(text))


# tokens of the index's sentences as an earlier process segmented them (load_tokens): a start reads them
# instead of segmenting every sentence again, which took most of a start's own time
_saved: dict[str, tuple[str, ...]] = {}


@cache
def tokenizer_version() -> str:
    """A fingerprint of everything that makes the tokens (the code below, the stopwords, jieba's version):
    tokens saved under another fingerprint are never read."""
    import hashlib
    import inspect

    import jieba

    try:
        parts = [inspect.getsource(_tokens), inspect.getsource(american)]
    except (OSError, TypeError):  # installed without its sources: the compiled code stands in for them
        parts = [repr(_tokens.__wrapped__.__code__.co_code), repr(american.__code__.co_code)]
    parts += [_TOKEN.pattern, _BRITISH.pattern]
    parts += [" ".join(sorted(_STOPWORDS)), str(jieba.__version__)]
    return hashlib.sha1("\n".join(parts).encode("utf-8")).hexdigest()[:12]


def load_tokens(path: Path) -> set[str]:
    """Remember the tokens saved in ``path`` by ``save_tokens`` (under this tokenizer's fingerprint) and
    say whose they are; none when there is nothing to read (no file, another fingerprint, a torn file)."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(saved, dict) or saved.get("version") != tokenizer_version():
            return set()
        tokens = {str(text): tuple(map(str, words)) for text, words in saved["tokens"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return set()
    _saved.update(tokens)
    return set(tokens)


def save_tokens(path: Path, texts: Iterable[str]) -> None:
    """Save the tokens of ``texts`` for the next start, written aside and renamed (a crash mid-write leaves
    the previous file whole); a folder that cannot be written to only costs the next start some time."""
    tokens = {text: list(_saved.get(text) or _tokens(text)) for text in texts}
    body = json.dumps({"version": tokenizer_version(), "tokens": tokens}, ensure_ascii=False).encode("utf-8")
    try:
        write_aside(path, lambda out: out.write(body))
    except OSError as exc:
        log.warning("could not save keyword tokens to %s: %s", path, exc)


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[str, ...]:
    # a turn tokenizes the same passages, headings and sentences as the turn before it (a quarter of a
    # turn's time went to segmenting them again): each distinct text is segmented once per process
    jieba = _jieba()
    tokens: list[str] = []
    for raw in jieba.lcut_for_search(text.lower()):  # type: ignore[attr-defined]
        for token in _TOKEN.findall(raw):
            token = token.strip(".+")
            if not token or token in _STOPWORDS:
                continue
            if len(token) > 3 and token.isascii() and token.endswith("s") and not token.endswith("ss"):
                token = token[:-1]  # "gpus" -> "gpu", "checkpoints" -> "checkpoint"
            if len(token) > 5 and token.isascii():
                token = american(token)  # "optimised" and "optimized" are one keyword
            tokens.append(token)
    return tuple(tokens)


def slugify(text: str, max_length: int = 80) -> str:
    """A stable, readable id fragment; keeps CJK characters."""
    slug = re.sub(r"[^\w]+", "-", text.strip().lower(), flags=re.UNICODE).strip("-")
    return slug[:max_length] or "section"


# a sentence, up to and with its closing marks; a decimal point ("2.5 TB") ends none
_SENTENCE = re.compile(r"[^.!?。！？]+(?:[.!?。！？]+|$)")


def sentences_of(message: str) -> list[str]:
    """The message's sentences, stripped, in order ("We have 2.5 TB. Is it enough?" -> two); none for an empty one."""
    text = re.sub(r"(?<=\d)\.(?=\d)", "\u2024", message.strip())
    return [s.strip().replace("\u2024", ".") for s in _SENTENCE.findall(text) if s.strip()]
