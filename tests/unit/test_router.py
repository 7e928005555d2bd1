"""Intent and calculator routing, table-driven, English and Chinese."""

from __future__ import annotations

import pytest

from assistant.router import Context, Intent, Router
from assistant.slots import SlotExtractor
from knowledge.catalog import default_catalog
from knowledge.names import NameIndex

ROUTER = Router(extractor=SlotExtractor(NameIndex(default_catalog())))

CASES: list[tuple[str, Intent, list[str]]] = [
    ("Hello!", Intent.GREETING, []),
    ("你好", Intent.GREETING, []),
    ("What can you do?", Intent.GREETING, []),
    ("你能做什么？", Intent.GREETING, []),
    ("用A100训练一个70B模型、2T token，需要多少GPU小时？", Intent.CALCULATION, ["training_compute"]),
    ("部署Llama 3 70B，32路并发，8张H100显存够吗？", Intent.CALCULATION, ["inference_memory"]),
    ("What's the weather in Paris tomorrow?", Intent.OUT_OF_SCOPE, []),
    ("写一首关于春天的诗", Intent.OUT_OF_SCOPE, []),
    ("Which stocks should I buy this week?", Intent.OUT_OF_SCOPE, []),
    ("推荐一家北京的火锅店", Intent.OUT_OF_SCOPE, []),
    ("Please give me a lasagna recipe", Intent.OUT_OF_SCOPE, []),
    ("What does artificial intelligence mean for society?", Intent.OUT_OF_SCOPE, []),
    ("64张H100用5年，每卡时2美元上云，5年TCO哪个划算？", Intent.CALCULATION, ["tco"]),
    ("上云要花多少钱？训练13B模型、1T token", Intent.CALCULATION, ["training_compute", "cloud_cost"]),
    ("What is NVLink?", Intent.KNOWLEDGE, []),
    ("NVMe和SATA SSD有什么区别？", Intent.KNOWLEDGE, []),
    ("Why is host RAM usually 1-2x GPU memory?", Intent.KNOWLEDGE, []),
    ("Kubernetes还是Slurm更适合管理训练集群？", Intent.KNOWLEDGE, []),
    ("What is the H200's memory bandwidth?", Intent.BOTH, ["gpu_spec"]),  # the catalog's figure
    (
        "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？",
        Intent.CALCULATION,
        ["training_compute"],
    ),
    (
        "How many days to train a 70B model on 2T tokens with 512 H100s?",
        Intent.CALCULATION,
        ["training_compute"],
    ),
    (
        "How many GPUs do I need to train a 13B model on 1T tokens within 30 days?",
        Intent.CALCULATION,
        ["gpus_for_deadline"],
    ),
    ("一个月内训完70B模型、2T token，需要多少张H100？", Intent.CALCULATION, ["gpus_for_deadline"]),
    ("Does a 7B full fine-tune fit on one A100 40GB?", Intent.CALCULATION, ["training_memory"]),
    ("8卡H100跑13B全参微调，ZeRO-2，显存够吗？", Intent.CALCULATION, ["training_memory"]),
    ("预算300万元，一个月内训完一个70B模型、2T token，选什么卡？", Intent.CALCULATION, ["cluster_plan"]),
    (
        "Which GPU should we buy for a 34B model on 1T tokens with a $2M budget?",
        Intent.CALCULATION,
        ["cluster_plan"],
    ),
    ("How much storage for training a 70B model on 2T tokens?", Intent.CALCULATION, ["storage"]),
    ("电价0.6元/度，8卡H100一年电费多少？", Intent.CALCULATION, ["power_cost"]),
    ("3-year TCO of 64 H100s at 70% utilization: buy or cloud?", Intent.CALCULATION, ["tco"]),
    (
        "Serving Llama 2 70B with 32k context on 4x H100: how much KV cache?",
        Intent.CALCULATION,
        ["inference_memory"],
    ),
    ("Compare H100, H200 and MI300X", Intent.CALCULATION, ["gpu_compare"]),
    ("MI300X和H100对比", Intent.CALCULATION, ["gpu_compare"]),
    (
        "We measure 3500 tokens/s per GPU on 64 H100 for a 7B model: what MFU is that?",
        Intent.CALCULATION,
        ["throughput_calibration"],
    ),
    (
        "Why does a 70B model need so many GPUs, and how many for 2T tokens in 30 days?",
        Intent.BOTH,
        ["gpus_for_deadline"],
    ),
]


@pytest.mark.parametrize(("message", "intent", "tools"), CASES, ids=[c[0][:40] for c in CASES])
def test_route(message: str, intent: Intent, tools: list[str]) -> None:
    route = ROUTER.route(message)
    assert route.intent == intent
    for tool in tools:
        assert tool in route.tools, route.tools
    if intent in {Intent.GREETING, Intent.OUT_OF_SCOPE, Intent.KNOWLEDGE}:
        assert route.tools == []


@pytest.mark.parametrize(
    ("first", "follow_up", "changed"),
    [
        (
            "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？",
            "换成A100呢？",
            {"gpu": "a100-80gb-sxm"},
        ),
        ("Does a 13B full fine-tune fit on 8 H100s?", "and with ZeRO-3 over 8 GPUs?", {"zero_stage": 3}),
        (
            "How many days to train 70B on 2T tokens with 512 H100s?",
            "what about 1024 GPUs?",
            {"gpu_count": 1024},
        ),
        ("训练70B模型、2T token，用512张H100要多少天？", "MFU 改成 50% 呢？", {"mfu": 0.5}),
    ],
)
def test_follow_ups_reuse_the_calculation_with_the_changed_input(
    first: str, follow_up: str, changed: dict[str, object]
) -> None:
    one = ROUTER.route(first)
    two = ROUTER.route(follow_up, earlier=one.context())
    assert two.follow_up
    assert two.tools == one.tools
    for key, value in changed.items():
        assert getattr(two.slots, key) == value
    kept = {k: v for k, v in one.slots.stated().items() if k not in changed}
    assert {k: getattr(two.slots, k) for k in kept} == kept


def test_language_follows_the_message() -> None:
    assert ROUTER.route("H100的功耗是多少？").language == "zh"
    assert ROUTER.route("What is the H100's TDP?").language == "en"


@pytest.mark.parametrize(
    ("message", "language"),
    [
        # Chinese sentences carrying English terms are Chinese: their grammar is
        ("我们想 serve Llama 3 70B，用 H20 还是 A100?", "zh"),
        ("LoRA finetune 70B model 要多少 VRAM", "zh"),
        ("用 vLLM serve Qwen2.5-72B, 64 concurrency 够吗", "zh"),
        # English sentences quoting a Chinese term or amount are English
        ("What does 显存 mean?", "en"),
        ("we pay 0.6元/kWh, what is the yearly bill for 64 H100s", "en"),
    ],
)
def test_mixed_language_goes_to_the_sentences_grammar(message: str, language: str) -> None:
    assert ROUTER.route(message).language == language


@pytest.mark.parametrize(
    ("earlier", "message", "kept"),
    [
        ("FP8 training 现在算 production ready 吗? H100 上开 Transformer Engine 会不会 loss 炸", "那 A100 能用吗 我们库存还有", "FP8"),
        ("is ZeRO-3 with bf16 on 16x A100 going to be slow?", "and what about on our H100 boxes instead?", "ZeRO-3"),
    ],
)  # fmt: skip
def test_a_follow_up_borrows_the_topic_not_the_figures(earlier: str, message: str, kept: str) -> None:
    """The earlier question lends its topic to a follow-up that names only a card: a number format or a ZeRO
    stage is that topic (a word with a digit in it), the cards and counts are the earlier question's own."""
    route = ROUTER.route(message, earlier=Context(question=earlier, led="zh/faq#earlier"))
    assert kept in route.query, route.query
    assert "16x" not in route.query
    assert "H100 上开" not in route.query


@pytest.mark.parametrize(
    ("message", "counted"),
    [
        ("what switch do we need for 64 H100s at 400G per GPU?", True),
        ("which leaf switch for 16 nodes?", True),
        # the verb: moving to another platform, not the network's switches
        ("we run 16 H100s today; what would break in our PyTorch stack if we switch?", False),
        ("do we need to switch drivers on 16 H100 nodes?", False),
    ],
)
def test_a_switch_is_the_networks_only_as_a_noun(message: str, counted: bool) -> None:
    assert ("fabric" in ROUTER.route(message).tools) is counted


def test_a_first_message_is_understood_once_and_a_copy_given_out() -> None:
    extractor = SlotExtractor(NameIndex(default_catalog()))
    reads: list[str] = []
    read = extractor.read

    def counted(text: str):  # type: ignore[no-untyped-def]
        reads.append(text)
        return read(text)

    extractor.read = counted  # type: ignore[method-assign]
    router = Router(extractor=extractor)
    message = "how many H100s to train a 70B model on 2T tokens in 30 days?"
    first = router.route(message)
    assert len(reads) == 1
    first.tools.clear()  # a caller changing what it was given
    first.slots.gpu = "mi300x"
    again = router.route(message, earlier=Context())
    assert len(reads) == 1  # understood once
    assert again.tools == ["gpus_for_deadline"]
    assert again.slots.gpu == "h100-sxm"
    # with something said before it, a message is understood in that context, every time
    router.route(message, earlier=Context(question="what is NVLink?"))
    assert len(reads) == 2
