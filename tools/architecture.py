"""Model shapes for the calculators: a catalog preset by name, or a shape derived from a parameter count."""

from __future__ import annotations

from pydantic import BaseModel, Field

from knowledge.catalog import Catalog, UnknownItemError
from tools.common import CalculatorInputError


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
            hint = f"; did you mean {', '.join(exc.suggestions)}?" if exc.suggestions else ""
            raise CalculatorInputError(
                "model", f"unknown model {fields.model!r}{hint}", exc.suggestions
            ) from exc
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
        raise CalculatorInputError(
            "params_b", "give the model size in billions of parameters, or a model preset"
        )
    if arch.attention_heads % arch.kv_heads:
        raise CalculatorInputError(
            "kv_heads",
            f"{arch.attention_heads} attention heads are not a multiple of {arch.kv_heads} KV heads",
        )
    if arch.active_params_b > arch.params_b:
        raise CalculatorInputError("active_params_b", "active parameters cannot exceed total parameters")
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


def describe(arch: Architecture) -> str:
    """One line naming the shape, for the assumptions list."""
    origin = "derived from the parameter count (GPT-like proportions)" if arch.derived else "catalog preset"
    moe = f", {arch.active_params_b:g}B active" if arch.active_params_b < arch.params_b else ""
    return (
        f"model: {arch.name}, {arch.params_b:g}B parameters{moe}; {arch.layers} layers, hidden {arch.hidden_size}, "
        f"{arch.attention_heads} heads ({arch.kv_heads} KV), MLP {arch.ffn_hidden_size}, vocab {arch.vocab_size} "
        f"[{origin}]"
    )
