"""Model shapes for the calculators: a catalog preset by name, or a shape derived from a parameter count."""

from __future__ import annotations

from pydantic import BaseModel, Field

from knowledge.catalog import Catalog, UnknownItemError
from tools.common import CalculatorInputError, did_you_mean
from tools.messages import Message, Said

_UNKNOWN_MODEL = Message(
    "architecture.unknown_model",
    en="unknown model {name}{hint}",
    zh="目录中没有名为 {name} 的模型预设{hint}",
)
_NO_SIZE = Message(
    "architecture.no_size",
    en="give the model size in billions of parameters, or a model preset",
    zh="请给出模型参数量（以十亿为单位），或一个模型预设",
)
_HEADS_NOT_MULTIPLE = Message(
    "architecture.heads_not_multiple",
    en="{heads} attention heads are not a multiple of {kv} KV heads",
    zh="{heads} 个注意力头不是 {kv} 个 KV 头的整数倍",
)
_ACTIVE_ABOVE_TOTAL = Message(
    "architecture.active_above_total",
    en="active parameters cannot exceed total parameters",
    zh="激活参数量不能超过总参数量",
)
_ACTIVE = Message("architecture.active", en=", {active}B active", zh="，激活 {active}B")
_SHAPE = "{params}B parameters{active}; {layers} layers, hidden {hidden}, {heads} heads ({kv} KV), MLP {ffn}, vocab {vocab}"
_SHAPE_ZH = "{params}B 参数{active}；{layers} 层，隐藏维度 {hidden}，{heads} 个注意力头（{kv} 个 KV 头），MLP {ffn}，词表 {vocab}"
_PRESET_MODEL = Message(
    "architecture.preset_model",
    en="model: {name}, " + _SHAPE + " [catalog preset]",
    zh="模型：{name}（目录预设），" + _SHAPE_ZH,
)
_DERIVED_MODEL = Message(
    "architecture.derived_model",
    en="model: {params}B (derived shape), "
    + _SHAPE
    + " [derived from the parameter count (GPT-like proportions)]",
    zh="模型结构按参数量推算（类 GPT 比例）：" + _SHAPE_ZH,
)


class Architecture(BaseModel):
    """The numbers the memory and FLOP formulas need."""

    name: str
    params_b: float = Field(description="Total parameters, billions (memory counts all of them).")
    active_params_b: float = Field(description="Parameters used per token, billions (FLOPs count these).")
    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int
    head_dim: int = Field(description="Per-head size (the value head's under MLA).")
    qk_head_dim: int = Field(description="Query/key head size; head_dim except under MLA (DeepSeek-V3: 192).")
    ffn_hidden_size: int = Field(description="MLP intermediate size; per expert for MoE.")
    experts_per_token: int | None = Field(default=None, description="MoE: routed experts per token (top-k).")
    shared_experts: int = Field(default=0, description="MoE: experts every token passes through as well.")
    vocab_size: int
    activation: str
    max_context: int
    context_window: int = Field(description="Longest context the released model supports natively, tokens.")
    derived: bool = Field(description="True when the shape was derived from the parameter count.")

    @property
    def mlp_width(self) -> int:
        """MLP width one token passes through: for MoE, one expert's width x (top-k routed + shared experts)."""
        if self.experts_per_token is None:
            return self.ffn_hidden_size
        return self.ffn_hidden_size * (self.experts_per_token + self.shared_experts)


class ArchitectureFields(BaseModel):
    """Input fields shared by calculators that need a model: a preset name, a size, or both."""

    model: str | None = Field(
        default=None, description="A catalog model preset, e.g. 'llama-2-70b', 'GPT-3', 'DeepSeek-V3'."
    )
    params_b: float | None = Field(
        default=None, gt=0, le=100_000, description="Total parameters in billions (overrides the preset's)."
    )
    active_params_b: float | None = Field(
        default=None, gt=0, le=100_000, description="MoE: parameters active per token, billions."
    )
    layers: int | None = Field(default=None, ge=1, le=1000, description="Transformer layers.")
    hidden_size: int | None = Field(default=None, ge=64, le=131_072, description="Model (hidden) dimension.")
    attention_heads: int | None = Field(default=None, ge=1, le=1024, description="Attention heads.")
    kv_heads: int | None = Field(default=None, ge=1, le=1024, description="Key/value heads (GQA/MQA).")
    vocab_size: int | None = Field(default=None, ge=256, le=2_000_000, description="Vocabulary size.")


def resolve_architecture(catalog: Catalog, fields: ArchitectureFields) -> Architecture:
    """The preset named in ``fields.model`` with any overrides applied, or a shape derived from ``params_b``.

    A derived shape follows GPT-3 and Llama proportions: N ≈ 12·L·h², h/L ≈ 128 (h a multiple of 1024), head size 128,
    MLP width 4h, vocabulary 32,000 (Kaplan et al. 2020; Brown et al. 2020).
    """
    if fields.model:
        try:
            preset = catalog.model(fields.model)
        except UnknownItemError as exc:
            message = _UNKNOWN_MODEL(name=repr(fields.model), hint=did_you_mean(exc.suggestions))
            raise CalculatorInputError("model", message, exc.suggestions) from exc
        hidden = fields.hidden_size or preset.hidden_size
        heads = fields.attention_heads or preset.attention_heads
        params = fields.params_b or preset.params_b
        arch = Architecture(
            name=preset.name,
            params_b=params,
            active_params_b=fields.active_params_b or preset.active_params_b or params,
            layers=fields.layers or preset.layers,
            hidden_size=hidden,
            attention_heads=heads,
            kv_heads=fields.kv_heads or preset.kv_heads,
            head_dim=preset.head_dim or hidden // heads,
            qk_head_dim=preset.qk_head_dim or preset.head_dim or hidden // heads,
            ffn_hidden_size=preset.ffn_hidden_size,
            experts_per_token=preset.experts_per_token,
            shared_experts=preset.shared_experts or 0,
            vocab_size=fields.vocab_size or preset.vocab_size,
            activation=preset.activation,
            max_context=preset.max_context,
            context_window=preset.context_window or preset.max_context,
            derived=False,
        )
    elif fields.params_b:
        arch = _derive(fields)
    else:
        raise CalculatorInputError("params_b", _NO_SIZE())
    if arch.attention_heads % arch.kv_heads:
        raise CalculatorInputError(
            "kv_heads",
            _HEADS_NOT_MULTIPLE(heads=arch.attention_heads, kv=arch.kv_heads),
        )
    if arch.active_params_b > arch.params_b:
        raise CalculatorInputError("active_params_b", _ACTIVE_ABOVE_TOTAL())
    return arch


def _derive(fields: ArchitectureFields) -> Architecture:
    assert fields.params_b is not None
    params = fields.params_b * 1e9
    # a multiple of 1024 keeps the head count (h/128) divisible by 8 for tensor parallelism
    hidden = fields.hidden_size or max(1024, round((128 * params / 12) ** (1 / 3) / 1024) * 1024)
    layers = fields.layers or max(1, round(params / (12 * hidden * hidden)))
    heads = fields.attention_heads or max(1, hidden // 128)
    return Architecture(
        name=f"{fields.params_b:g}B (derived shape)",
        params_b=fields.params_b,
        active_params_b=fields.active_params_b or fields.params_b,
        layers=layers,
        hidden_size=hidden,
        attention_heads=heads,
        kv_heads=fields.kv_heads or heads,
        head_dim=hidden // heads,
        qk_head_dim=hidden // heads,
        ffn_hidden_size=4 * hidden,
        vocab_size=fields.vocab_size or 32_000,
        activation="gelu",
        max_context=4096,
        context_window=4096,
        derived=True,
    )


def describe(arch: Architecture) -> Said:
    """One line naming the shape, for the assumptions list."""
    shape = {
        "params": f"{arch.params_b:g}",
        "active": _ACTIVE(active=f"{arch.active_params_b:g}") if arch.active_params_b < arch.params_b else "",
        "layers": arch.layers,
        "hidden": arch.hidden_size,
        "heads": arch.attention_heads,
        "kv": arch.kv_heads,
        "ffn": arch.ffn_hidden_size,
        "vocab": arch.vocab_size,
    }
    if arch.derived:  # named "<params>B (derived shape)" by _derive
        return _DERIVED_MODEL(**shape)
    return _PRESET_MODEL(name=arch.name, **shape)
