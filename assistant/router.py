"""The router: language, intent, slots and which calculators a message needs.

Rules, not a model: each calculator has the words (English and Chinese) that ask for its result, and
a calculation needs either such a word or a slot that only makes sense as an input ("MFU 45%").
Follow-ups inherit the conversation's slots and, when they only change an input ("换成A100呢？",
"and with ZeRO-3?"), the calculators of the previous turn.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, Field

from assistant.calculators import CALCULATORS
from assistant.calculators.common import words
from assistant.slots import SlotExtractor, Slots
from knowledge.text import Language, detect_language

# slot filling and routing read at most this much of a message: its start and its end, where questions
# state their numbers and ask; the whole message is still searched in the knowledge base
READ_HEAD, READ_TAIL = 1500, 500
_SPACES = re.compile(r"\s+")


def readable(message: str) -> str:
    """The part of ``message`` the router reads: whitespace runs collapsed, at most
    ``READ_HEAD + READ_TAIL`` characters."""
    text = _SPACES.sub(" ", message).strip()
    if len(text) <= READ_HEAD + READ_TAIL:
        return text
    return f"{text[:READ_HEAD]} … {text[-READ_TAIL:]}"


class Intent(StrEnum):
    KNOWLEDGE = "knowledge"
    CALCULATION = "calculation"
    BOTH = "both"
    GREETING = "greeting"
    OUT_OF_SCOPE = "out_of_scope"


class Route(BaseModel):
    """What the assistant will do with one message."""

    language: Language
    intent: Intent
    slots: Slots = Field(description="This message's slots over the conversation's.")
    stated: dict[str, object] = Field(description="Slots this message stated itself.")
    tools: list[str] = Field(default_factory=list, description="Calculators to run, in order.")
    query: str = Field(description="What to search the knowledge base for.")
    follow_up: bool = Field(
        default=False, description="The message only changes inputs of the previous turn."
    )

    @property
    def needs_knowledge(self) -> bool:
        return self.intent in {Intent.KNOWLEDGE, Intent.BOTH, Intent.CALCULATION}


_GREETING = words(
    r"^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening)|thanks|thank you)\b",
    r"^\s*(?:你好|您好|嗨|谢谢|哈喽)",
    r"what can you do",
    r"\bhelp\b",
    r"你能做什么",
    r"你是谁",
    r"怎么用",
    r"使用说明",
)
_DOMAIN = words(
    # short terms must be whole words ("please" is not "lease", "intelligence" is not "intel")
    r"\b(?:gpu|cpu|tpu|amd|intel|gaudi|cuda|rocm|nccl|ram|ssd|hdd|pue|cost|rent|lease|rack|zero|fsdp|bf16|fp8"
    r"|fp16|mfu|llm|hbm|vram|nvme|pcie|roce|model|token|power)s?\b",
    # stems may continue ("training", "servers", "fine-tuning")
    r"\b(?:nvidia|nvlink|infiniband|server|cluster|train|fine[- ]?tun|inference|memory|storage|checkpoint"
    r"|cooling|budget|cloud|slurm|kubernetes|docker|flops|parallel|bandwidth|network|datacenter|data cent"
    r"|accelerator|interconnect|throughput|scal)",
    r"显卡",
    r"显存",
    r"内存",
    r"服务器",
    r"集群",
    r"训练",
    r"微调",
    r"推理",
    r"模型",
    r"存储",
    r"硬盘",
    r"网络",
    r"带宽",
    r"功耗",
    r"散热",
    r"液冷",
    r"电费",
    r"预算",
    r"成本",
    r"租",
    r"采购",
    r"算力",
    r"加速卡",
    r"芯片",
    r"机房",
    r"互联",
    r"并行",
    r"精度",
    r"驱动",
    r"扩展",
    r"升级",
    r"选型",
    r"配置",
    r"上下文",
    r"序列",
    r"并发",
    r"检查点",
    r"卡时",
)
# a follow-up that only changes an input: "换成A100呢？", "and with ZeRO-3 over 8 GPUs?", "what about 128 GPUs"
_FOLLOW_UP = words(
    r"^\s*(?:and|what about|how about|what if|now|then|instead)\b",
    r"换成",
    r"改成",
    r"如果.*呢",
    r"呢[？?]?\s*$",
    r"^\s*(?:用|那)",
    r"instead\??\s*$",
)
# slots that only make sense as calculator inputs
_CALC_SLOTS = {
    "params_b",
    "tokens_b",
    "gpu_count",
    "mfu",
    "budget",
    "deadline_days",
    "zero_stage",
    "seq_len",
    "micro_batch",
    "tensor_parallel",
    "pipeline_parallel",
    "tokens_per_second_per_gpu",
    "model",
}
_TRAINING = words(r"\btrain", r"fine[- ]?tun", r"\blora\b", r"训练", r"微调", r"预训练")
_EXPLAIN = words(
    r"\bwhy\b",
    r"\bexplain\b",
    r"\bwhat is\b",
    r"\bwhat are\b",
    r"how does",
    r"为什么",
    r"是什么",
    r"原理",
    r"解释",
)


class Router:
    """Routes a message, given the slots and calculators of the conversation so far."""

    def __init__(self, *, extractor: SlotExtractor) -> None:
        self._extract = extractor.extract

    def route(
        self, message: str, *, earlier: Slots | None = None, earlier_tools: list[str] | None = None
    ) -> Route:
        query = message
        message = readable(message)
        language = detect_language(message)
        stated_slots = self._extract(message)
        stated = stated_slots.stated()
        slots = stated_slots.merged_over(earlier) if earlier else stated_slots
        triggered = [name for name, calculator in CALCULATORS.items() if calculator.triggers.search(message)]
        if "inference_memory" in triggered and not _TRAINING.search(message):
            # "部署…显存够吗": whether memory suffices for serving, not for training
            triggered = [name for name in triggered if name != "training_memory"]
        follow_up = (
            bool(earlier_tools)
            and not triggered
            and bool(stated)
            and bool(_FOLLOW_UP.search(message) or len(message) < 40)
        )
        tools = list(earlier_tools or []) if follow_up else _refine(triggered, slots, stated)
        has_domain = bool(_DOMAIN.search(message)) or bool(stated)
        if _GREETING.search(message) and not tools and not (has_domain and len(message) > 25):
            intent = Intent.GREETING
        elif not has_domain and not follow_up:
            intent = Intent.OUT_OF_SCOPE
        elif tools:
            intent = Intent.BOTH if _EXPLAIN.search(message) else Intent.CALCULATION
        else:
            intent = Intent.KNOWLEDGE
        return Route(
            language=language,
            intent=intent,
            slots=slots,
            stated=stated,
            tools=tools,
            query=query,
            follow_up=follow_up,
        )


def _refine(tools: list[str], slots: Slots, stated: dict[str, object]) -> list[str]:
    """Adjust the triggered calculators to what the slots can feed."""
    chosen = list(dict.fromkeys(tools))
    if "gpus_for_deadline" in chosen and not slots.deadline_days:
        chosen.remove("gpus_for_deadline")
        if slots.budget or not chosen:
            chosen.append("cluster_plan")
    if (
        slots.deadline_days
        and (slots.params_b or slots.model)
        and not slots.gpu_count
        and "cluster_plan" not in chosen
    ):
        if "gpus_for_deadline" not in chosen:
            chosen.insert(0, "gpus_for_deadline")
        if "training_compute" in chosen:
            chosen.remove("training_compute")  # the deadline answer already gives the days at that count
    if "gpu_compare" in chosen and not slots.other_gpus:
        chosen.remove("gpu_compare")
    if "throughput_calibration" in chosen and not slots.tokens_per_second_per_gpu:
        chosen.remove("throughput_calibration")
    if "cloud_cost" in chosen and "tco" in chosen:
        chosen.remove("cloud_cost")
    if "cloud_cost" in chosen and not (slots.params_b or slots.model or slots.gpu):
        chosen.remove("cloud_cost")
    if "network" in chosen and not (slots.params_b or slots.model):
        chosen.remove("network")
    if not chosen and (slots.params_b or slots.model) and (slots.tokens_b or slots.mfu) and slots.gpu_count:
        chosen.append("training_compute")
    if (
        "cloud_cost" in chosen
        and "training_compute" not in chosen
        and not (slots.gpu_count and slots.deadline_days)
        and (slots.params_b or slots.model)
    ):
        # cloud cost of a training run: price the GPU-hours the compute calculator works out
        chosen.insert(chosen.index("cloud_cost"), "training_compute")
    if "training_compute" in chosen and "cloud_cost" in chosen:
        chosen.remove("cloud_cost")
        chosen.append("cloud_cost")
    if not stated.keys() & _CALC_SLOTS and not (slots.params_b or slots.model or slots.gpu):
        # "how much memory does training need?" with no model at all: explain instead of computing
        chosen = [
            t for t in chosen if t in {"gpu_compare", "host_ram", "power_cost", "storage"} and slots.gpu
        ]
    return chosen
