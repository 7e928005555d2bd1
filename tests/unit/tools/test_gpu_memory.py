"""Training memory against published figures (sources named per test) and its own invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.common import CalculatorInputError
from tools.gpu_memory import (
    TrainingMemoryInput,
    TrainingMemoryOutput,
    activation_bytes_per_layer,
    training_memory,
)

CATALOG = default_catalog()


def run(**kwargs: object) -> TrainingMemoryOutput:
    return training_memory(TrainingMemoryInput.model_validate(kwargs), CATALOG)


def states_gb(out: TrainingMemoryOutput) -> float:
    b = out.per_gpu
    return b.weights_gb + b.gradients_gb + b.optimizer_states_gb


@pytest.mark.parametrize(
    ("stage", "published_gb"),
    # Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models" (2019),
    # Figure 1 / Table 1: 7.5B parameters, Nd = 64, K = 12 (mixed-precision Adam): 120, 31.4, 16.6, 1.88 GB
    [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.88)],
)
def test_zero_paper_table_1(stage: int, published_gb: float) -> None:
    out = run(params_b=7.5, gpus=64, zero_stage=stage)
    assert states_gb(out) == pytest.approx(published_gb, rel=0.005)
    assert out.model_state_bytes_per_param == 16


def test_zero_divides_by_the_data_parallel_degree_not_the_gpu_count() -> None:
    # DOMAIN-PITFALLS sizing 9: with t=8 on 64 GPUs, ZeRO-3 shards over DP = 8, not 64
    out = run(params_b=7.5, gpus=64, zero_stage=3, tensor_parallel=8, attention_heads=32, hidden_size=4096)
    assert out.data_parallel == 8
    assert states_gb(out) == pytest.approx(16 * 7.5 / 8 / 8, rel=1e-9)


@pytest.mark.parametrize(
    ("t", "sp", "recompute", "expected_factor"),
    # Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models" (2022), Table 2,
    # per-layer activation bytes divided by s·b·h, for GPT-3 175B: a = 96, h = 12288, s = 2048, t = 8
    [
        (1, False, "none", 34 + 5 * 96 * 2048 / 12288),  # no parallelism
        (8, False, "none", 10 + 24 / 8 + 5 * 96 * 2048 / 12288 / 8),  # tensor parallel
        (8, True, "none", 34 / 8 + 5 * 96 * 2048 / 12288 / 8),  # tensor + sequence parallel
        (8, False, "selective", 10 + 24 / 8),  # tensor parallel + selective recompute
        (8, True, "selective", 34 / 8),  # tensor + sequence parallel + selective recompute
        (8, True, "full", 2 / 8),  # full recompute keeps each layer's input (split by SP)
        (1, False, "full", 2),
    ],
)
def test_korthikanti_table_2(t: int, sp: bool, recompute: str, expected_factor: float) -> None:
    sbh = 2048 * 1 * 12288
    got = activation_bytes_per_layer(
        seq=2048, batch=1, hidden=12288, heads=96, tp=t, sp=sp, recompute=recompute, flash=False
    )
    assert got == pytest.approx(sbh * expected_factor, rel=1e-12)


def test_korthikanti_sequence_parallel_plus_selective_saves_5x() -> None:
    # Korthikanti et al. (2022) abstract and §5: the two techniques together cut activation memory ~5x
    # against tensor parallelism alone for GPT-3 175B at t = 8
    kw = {"seq": 2048, "batch": 1, "hidden": 12288, "heads": 96, "tp": 8, "flash": False}
    baseline = activation_bytes_per_layer(sp=False, recompute="none", **kw)  # type: ignore[arg-type]
    both = activation_bytes_per_layer(sp=True, recompute="selective", **kw)  # type: ignore[arg-type]
    assert baseline / both == pytest.approx(5.4, abs=0.1)


def test_flash_attention_drops_the_attention_score_term() -> None:
    kw = {"seq": 8192, "batch": 1, "hidden": 4096, "heads": 32, "tp": 1, "sp": False, "recompute": "none"}
    with_flash = activation_bytes_per_layer(flash=True, **kw)  # type: ignore[arg-type]
    assert with_flash == pytest.approx(8192 * 4096 * 34)


def test_moe_activations_count_the_top_k_experts_a_token_passes_through() -> None:
    # Jiang et al., "Mixtral of Experts" (arXiv:2401.04088), Table 1: 32 layers, dim 4,096, SwiGLU experts of
    # 14,336, top-2 of 8. With Korthikanti et al. (2022) Table 2 at 4k context, batch 1, selective recomputation:
    # s·b·h·L·(15 + 3 + 6 x 2 x 14,336 / 4,096) = 32.2 GB; one expert's width alone gave 20.9 GB.
    out = run(model="mixtral-8x7b", seq_len=4096, micro_batch=1)
    expected = 4096 * 1 * 4096 * 32 * (15 + 3 + 6 * 2 * 14336 / 4096) / 1e9
    assert out.per_gpu.activations_gb == pytest.approx(expected, rel=1e-9)
    assert out.per_gpu.activations_gb == pytest.approx(32.2, abs=0.1)
    assert out.architecture.mlp_width == 2 * 14336
    assert any("2 routed + 0 shared experts of 14336" in a for a in out.assumptions)


def test_a_shared_expert_is_counted_with_the_routed_ones() -> None:
    # DeepSeek-AI, DeepSeek-V3 (arXiv:2412.19437) and its config.json: 8 routed + 1 shared expert of 2,048 per
    # token; the first 3 dense layers' intermediate_size is 18,432 = (8 + 1) x 2,048
    moe = run(model="deepseek-v3", gpus=8, tensor_parallel=8, seq_len=4096)
    assert moe.architecture.mlp_width == 18432
    dense = activation_bytes_per_layer(
        seq=4096, batch=1, hidden=7168, heads=128, tp=8, sp=True, recompute="selective", flash=True,
        mlp_ratio=18432 / 7168, gated=True,
    )  # fmt: skip
    assert moe.per_gpu.activations_gb == pytest.approx(61 * dense / 1e9, rel=1e-9)


def test_a_dense_model_passes_through_its_one_mlp() -> None:
    out = run(model="llama-2-7b", seq_len=4096)
    assert out.architecture.mlp_width == out.architecture.ffn_hidden_size == 11008
    assert not any(a.startswith("MoE activations") for a in out.assumptions)


def test_a_7b_full_finetune_does_not_fit_one_80gb_gpu_and_the_fix_is_named() -> None:
    # 7B x 16 bytes = 112 GB of states (Rajbhandari et al. 2019, §3.1 convention)
    out = run(model="llama-2-7b", gpus=1, gpu="H100", seq_len=4096)
    assert out.fits is False
    assert out.per_gpu.total_gb > 112
    assert out.suggestion is not None
    assert out.suggestion.total_gb <= 80


def test_qlora_65b_fits_a_48gb_gpu() -> None:
    # Dettmers et al., "QLoRA" (2023), abstract: "finetune a 65B parameter model on a single 48GB GPU"
    # (with gradient checkpointing, i.e. full recomputation, and a short sequence)
    out = run(params_b=65, finetune="qlora", recompute="full", seq_len=512, gpu_memory_gb=48, overhead_gb=1)
    assert out.fits is True
    assert out.per_gpu.weights_gb == pytest.approx(65 * (4 + 0.127) / 8, rel=0.02)


def test_lora_trains_a_small_share_of_parameters() -> None:
    out = run(model="llama-2-7b", finetune="lora", lora_rank=16)
    assert 0.001 < out.trainable_params_b / out.architecture.params_b < 0.01


def test_offload_moves_optimizer_states_to_host_ram() -> None:
    on = run(params_b=7.5, gpus=8, zero_stage=2, offload_optimizer=True)
    off = run(params_b=7.5, gpus=8, zero_stage=2)
    assert on.per_gpu.optimizer_states_gb == 0
    assert on.host_ram_for_offload_gb_per_gpu == pytest.approx((12 + 4) * 7.5 / 8 * 1.5, rel=1e-9)
    assert on.per_gpu.total_gb < off.per_gpu.total_gb


def test_user_bytes_per_param_convention_is_used_and_shown() -> None:
    out = run(params_b=10, bytes_per_param=18)  # Megatron/HF convention (DOMAIN-PITFALLS sizing 8)
    assert states_gb(out) == pytest.approx(180)
    assert any("18 bytes per parameter" in a for a in out.assumptions)


def test_gib_and_gb_are_both_reported() -> None:
    out = run(params_b=7.5)
    assert out.per_gpu.total_gib == pytest.approx(out.per_gpu.total_gb * 1e9 / 2**30)


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"model": "gpt-3", "tensor_parallel": 5, "gpus": 5}, "tensor_parallel", "does not divide the 96"),
        ({"params_b": 7, "gpu": "H10O"}, "gpu", "h100-sxm"),
        ({"model": "llama-9"}, "model", "unknown model"),
        ({}, "params_b", "model size"),
    ],
)
def test_impossible_inputs_name_the_field(kwargs: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(CalculatorInputError, match=message) as info:
        run(**kwargs)
    assert info.value.field == field


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"params_b": -1}, "params_b"),
        ({"params_b": 7, "gpus": 0}, "gpus"),
        ({"params_b": 7, "zero_stage": 4}, "zero_stage"),
    ],
)
def test_out_of_range_values_are_validation_errors(kwargs: dict[str, object], field: str) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=field):
        TrainingMemoryInput.model_validate(kwargs)


def test_gpus_must_divide_by_the_model_parallel_group() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=r"multiple of tensor x pipeline"):
        TrainingMemoryInput(params_b=7, gpus=12, tensor_parallel=8)


@settings(max_examples=60, deadline=None)
@given(
    params=st.floats(min_value=0.1, max_value=1000),
    gpus_exp=st.integers(min_value=0, max_value=12),
)
def test_more_gpus_never_raise_zero3_state_memory(params: float, gpus_exp: int) -> None:
    fewer = run(params_b=params, gpus=2**gpus_exp, zero_stage=3)
    more = run(params_b=params, gpus=2 ** (gpus_exp + 1), zero_stage=3)
    assert states_gb(more) <= states_gb(fewer)


@settings(max_examples=60, deadline=None)
@given(params=st.floats(min_value=0.1, max_value=1000), stage=st.integers(min_value=0, max_value=2))
def test_a_higher_zero_stage_never_uses_more_memory(params: float, stage: int) -> None:
    low = run(params_b=params, gpus=16, zero_stage=stage)
    high = run(params_b=params, gpus=16, zero_stage=stage + 1)
    assert high.per_gpu.total_gb <= low.per_gpu.total_gb


@settings(max_examples=40, deadline=None)
@given(params=st.floats(min_value=0.1, max_value=500))
def test_model_states_are_linear_in_parameters(params: float) -> None:
    assert states_gb(run(params_b=2 * params)) == pytest.approx(2 * states_gb(run(params_b=params)), rel=1e-9)


def test_a_kept_setting_is_never_the_suggested_fix() -> None:
    """QLoRA of a 70B model at 16,384 tokens on an 80 GB card: shortening the sequences would fit, but a
    sequence length the user's data needs is kept, so the fix is another one."""
    free = training_memory(
        TrainingMemoryInput(model="llama-3-70b", finetune="qlora", seq_len=16384, gpu="a100-80gb-sxm"),
        CATALOG,
    )
    kept = training_memory(
        TrainingMemoryInput(
            model="llama-3-70b", finetune="qlora", seq_len=16384, gpu="a100-80gb-sxm", keep=["seq_len"]
        ),
        CATALOG,
    )
    assert free.suggestion is not None
    assert "shorten sequences" in free.suggestion.change
    assert kept.suggestion is not None
    assert "shorten" not in kept.suggestion.change


def test_the_suggested_fix_leaves_a_margin_when_one_exists() -> None:
    """30B on 16 H200s: ZeRO-2 would fill 98% of each card; the fix offered is the first one that leaves
    5% free (the allocator and NCCL take the last few %)."""
    out = training_memory(TrainingMemoryInput(params_b=30, gpus=16, gpu="h200"), CATALOG)
    assert out.suggestion is not None
    assert out.suggestion.total_gb <= 0.95 * 141


def test_settings_on_the_same_cards_come_before_more_cards_and_pcie_tensor_parallelism() -> None:
    """A 7B full fine-tune on four 48 GB RTX 6000 Ada (PCIe, no NVLink): ZeRO with full recomputation on the
    same four cards fits, so that is the fix, not doubling the GPUs nor tensor parallelism over PCIe."""
    out = training_memory(
        TrainingMemoryInput(params_b=7, gpus=4, gpu="rtx-6000-ada", finetune="full"), CATALOG
    )
    assert out.suggestion is not None
    assert out.suggestion.gpus == 4
    assert "tensor parallelism" not in out.suggestion.change
    assert "ZeRO" in out.suggestion.change


def test_a_suggestion_carries_the_plan_it_recommends_and_the_job_keeps_its_own_layout() -> None:
    """70B full fine-tune, ZeRO-3 over 8 x 80 GB: 1,120 GB of states (16 B/param, ZeRO paper) do not fit
    640 GB. The suggestion's breakdown and settings are those of the changed job, re-computed; the
    assumptions still describe the job as given (t=1), not the tensor parallelism of the count search."""
    out = run(params_b=70, gpus=8, gpu="H800", zero_stage=3, seq_len=4096)
    assert out.fits is False
    assert out.suggestion is not None
    assert out.min_gpus is not None
    fix = out.suggestion
    assert fix.per_gpu is not None
    assert fix.settings is not None
    assert fix.per_gpu.total_gb == pytest.approx(fix.total_gb, abs=0.01)
    assert fix.total_gb <= 80
    redo = run(params_b=70, gpus=fix.gpus, gpu="H800", seq_len=4096, **fix.settings.model_dump(
        include={"zero_stage", "tensor_parallel", "pipeline_parallel", "recompute", "micro_batch", "offload_optimizer"}
    ))  # fmt: skip
    assert redo.per_gpu.total_gb == pytest.approx(fix.total_gb, abs=0.01)
    assert fix.settings.offload_optimizer is True
    assert fix.host_ram_gb == pytest.approx(redo.host_ram_for_offload_gb_per_gpu * 8, rel=0.01)
    assert out.min_gpus.settings is not None
    assert out.min_gpus.settings.tensor_parallel > 1
    assert any("8 GPUs / (t=1 x" in a for a in out.assumptions), out.assumptions


def test_the_states_floor_is_the_model_states_over_one_cards_memory() -> None:
    # ZeRO (Rajbhandari et al. 2019): 16 bytes per parameter with mixed-precision Adam, so 405B holds
    # 405e9 x 16 = 6,480 GB; on 80 GB H100s that is ceil(6,480 / 80) = 81 cards before any activation
    out = run(params_b=405, gpus=1, zero_stage=3, gpu="h100-sxm")
    assert out.states_floor_gpus == 81
    # a 141 GB H200 holds more: ceil(6,480 / 141) = 46
    assert run(params_b=405, gpus=1, zero_stage=3, gpu="h200").states_floor_gpus == 46
    # no card, or a LoRA job whose frozen base needs no optimizer: no floor to state
    assert run(params_b=405, gpus=1, zero_stage=3).states_floor_gpus is None
    assert run(params_b=70, gpus=1, finetune="lora", gpu="h100-sxm").states_floor_gpus is None


def test_fsdp_qlora_puts_a_70b_on_two_24gb_cards_with_the_shards_in_cpu_ram() -> None:
    """Answer.AI (2024-03-06) fine-tunes a 70B with FSDP + QLoRA on two 24 GB cards, the shards offloaded to CPU:
    NF4 weights of Llama 3 70B are 70.6e9 x 4.127 / 8 = 36.4 GB, half of it per rank in host RAM; on the card two
    layers' worth at a time (2 x 36.4 / 80 = 0.9 GB) beside the adapters' states and activations."""
    inp = TrainingMemoryInput(
        model="llama-3-70b", gpus=2, finetune="qlora", seq_len=2048, recompute="full", gpu="rtx-4090"
    )
    out = training_memory(inp, CATALOG)
    assert out.fits is False
    fix = out.suggestion
    assert fix is not None
    assert fix.settings is not None
    assert fix.settings.offload_params
    assert fix.gpus == 2
    assert fix.per_gpu is not None
    assert fix.per_gpu.weights_gb == pytest.approx(0.92, rel=0.02)
    assert fix.host_ram_gb == pytest.approx(36.8, rel=0.02)


def test_parameter_offload_needs_zero_stage_3() -> None:
    with pytest.raises(ValidationError, match="set zero_stage 3"):
        TrainingMemoryInput(params_b=7, gpus=2, offload_params=True)


def test_a_fit_with_less_than_the_planning_headroom_is_flagged_as_tight() -> None:
    """LoRA on Qwen2.5-14B at 512 tokens fills 38.3 of an A100 40GB's 40 GB (4% free): it fits, with less room
    than the 10% a plan keeps for fragmentation and longer batches, so the answer says so; at 256 tokens (10% free)
    it does not."""
    tight = training_memory(
        TrainingMemoryInput(model="qwen2.5-14b", gpus=1, finetune="lora", gpu="a100-40gb-sxm", seq_len=512),
        CATALOG,
    )
    assert tight.fits
    assert tight.headroom_pct is not None
    assert 0 < tight.headroom_pct < 10
    assert any(w.startswith(f"only {tight.headroom_pct:.0f}% of the card stays free") for w in tight.warnings)
    roomy = training_memory(
        TrainingMemoryInput(model="qwen2.5-14b", gpus=1, finetune="lora", gpu="a100-40gb-sxm", seq_len=256),
        CATALOG,
    )
    assert roomy.fits
    assert not any("stays free" in w for w in roomy.warnings)
