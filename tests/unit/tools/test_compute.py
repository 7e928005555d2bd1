"""Compute and time against published training runs (sources named per test) and invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.compute import (
    GpusForDeadlineInput,
    ThroughputCalibrationInput,
    TrainingComputeInput,
    gpus_for_deadline,
    throughput_calibration,
    training_compute,
)

CATALOG = default_catalog()


def compute(**kwargs: object):  # type: ignore[no-untyped-def]
    return training_compute(TrainingComputeInput.model_validate(kwargs), CATALOG)


def test_gpt3_training_flops() -> None:
    # Brown et al., "Language Models are Few-Shot Learners" (2020), Table D.1: 3.14e23 FLOPs for 175B x 300B
    out = compute(model="gpt-3", tokens_b=300, gpu="A100")
    assert out.workload.training_flops == pytest.approx(3.14e23, rel=0.01)


def test_chinchilla_training_flops_and_tokens() -> None:
    # Hoffmann et al., "Training Compute-Optimal LLMs" (2022): Chinchilla 70B on 1.4T tokens, 5.76e23 FLOPs
    out = compute(params_b=70, gpu="A100")
    assert out.workload.tokens_b == pytest.approx(1400)
    assert out.workload.training_flops == pytest.approx(5.76e23, rel=0.03)


def test_deepseek_v3_counts_active_parameters() -> None:
    # DeepSeek-AI, "DeepSeek-V3 Technical Report" (2024): 37B active of 671B, 14.8T tokens
    # DOMAIN-PITFALLS sizing 4: 6 x 37B x 14.8T = 3.29e24, not 6 x 671B x 14.8T = 5.96e25
    out = compute(params_b=671, active_params_b=37, tokens_b=14_800, gpu="H800")
    assert out.workload.training_flops == pytest.approx(3.29e24, rel=0.01)


@pytest.mark.parametrize(
    ("params_b", "published_gpu_hours"),
    # Touvron et al., "Llama 2" (2023), Table 2: A100-80GB GPU-hours for 2T tokens
    [(7, 184_320), (13, 368_640), (70, 1_720_320)],
)
def test_llama2_gpu_hours_at_a_stated_mfu(params_b: float, published_gpu_hours: float) -> None:
    # At 40% MFU of the A100's 312 dense BF16 TFLOP/s, 6ND reproduces the published hours within 10%
    # (implied MFU: 7B 40.6%, 13B 37.7%, 70B 43.5%; the hours include restarts and evaluation).
    out = compute(params_b=params_b, tokens_b=2000, gpu="A100", mfu=0.40)
    assert out.gpu_hours.expected == pytest.approx(published_gpu_hours, rel=0.10)


def test_llama31_405b_gpu_hours_at_a_stated_mfu() -> None:
    # Meta, "The Llama 3 Herd of Models" (2024) and the Llama 3.1 model card: 30.84M H100-80GB GPU-hours,
    # 15.6T tokens; at 35% MFU (DOMAIN-PITFALLS sizing 7: implied MFU 30-35% incl. overheads) within 5%
    out = compute(params_b=405, tokens_b=15_600, gpu="H100", mfu=0.35)
    assert out.gpu_hours.expected == pytest.approx(30.84e6, rel=0.05)
    assert out.workload.training_flops == pytest.approx(3.8e25, rel=0.01)


def test_attention_term_adds_about_three_percent_for_gpt3() -> None:
    # DOMAIN-PITFALLS sizing 5 / PaLM Appendix B: 12·L·H·Q adds ~2.8% to 6N for GPT-3 at s = 2048
    base = compute(model="gpt-3", tokens_b=300, gpu="A100")
    full = compute(model="gpt-3", tokens_b=300, gpu="A100", include_attention=True)
    assert full.workload.training_flops / base.workload.training_flops - 1 == pytest.approx(0.028, abs=0.002)


@pytest.mark.parametrize(("include_attention", "published_mfu"), [(True, 0.462), (False, 0.457)])
def test_palm_540b_mfu_with_and_without_self_attention(include_attention: bool, published_mfu: float) -> None:
    # Chowdhery et al., "PaLM" (2022), Table 3 and Appendix B: 238.3K tokens/s on 6,144 TPU v4 chips (275 TFLOP/s
    # BF16 peak) is 46.2% MFU counting self-attention (12·L·H·Q·T with 48 heads of 256, not d_model 18,432) and
    # 45.7% without; the hidden size in place of H·Q would give 46.5%.
    out = throughput_calibration(
        ThroughputCalibrationInput(
            model="palm-540b", peak_tflops=275, gpus=6144, tokens_per_second=238.3e3,
            include_attention=include_attention, seq_len=2048, tokens_b=780,
        ),
        CATALOG,
    )  # fmt: skip
    assert out.implied_mfu == pytest.approx(published_mfu, abs=0.0006)


def test_the_attention_term_counts_heads_times_head_size_under_gqa() -> None:
    # Qwen Team, Qwen3 Technical Report (arXiv:2505.09388) and Qwen/Qwen3-235B-A22B config.json: 94 layers, 64
    # query heads of 128 (8,192) over a hidden size of 4,096. At s = 32,768 the attention term is
    # 12 x 94 x 64 x 128 x 32,768 = 3.03e11 FLOPs per token; 12·L·h·s gave half that, a total 35% low.
    out = compute(model="qwen3-235b-a22b", tokens_b=100, gpu="H100", include_attention=True, seq_len=32768)
    attention = 12 * 94 * 64 * 128 * 32768
    assert out.workload.flops_per_token == pytest.approx(6 * 22.19e9 + attention, rel=1e-9)
    hidden_size_version = 6 * 22.19e9 + 12 * 94 * 4096 * 32768
    assert 1 - hidden_size_version / out.workload.flops_per_token == pytest.approx(0.35, abs=0.01)
    assert any("6 x 94 x 64 x (128 + 128) x 32768 = 3.03e+11" in a for a in out.assumptions)


def test_the_attention_term_uses_mla_head_sizes() -> None:
    # DeepSeek-AI, DeepSeek-V3 (arXiv:2412.19437) §2.1 and config.json: 61 layers, 128 heads, query/key heads of
    # 192 (128 + 64 RoPE), value heads of 128: Q·Kᵀ and A·V cost 6 x 61 x 128 x (192 + 128) FLOPs per token per
    # token of context, 2.86x the 12 x 61 x 7,168 that the hidden size gives.
    base = compute(model="deepseek-v3", tokens_b=100, gpu="H800", seq_len=4096)
    full = compute(model="deepseek-v3", tokens_b=100, gpu="H800", seq_len=4096, include_attention=True)
    attention = full.workload.flops_per_token - base.workload.flops_per_token
    assert attention == pytest.approx(6 * 61 * 128 * (192 + 128) * 4096, rel=1e-9)
    assert attention / (12 * 61 * 7168 * 4096) == pytest.approx(2.86, abs=0.01)


def test_opt_175b_implied_mfu_from_measured_throughput() -> None:
    # Zhang et al., "OPT" (2022), §2.4: 147 TFLOP/s per A100-80GB. Per GPU that is 147e12 / (6 x 175e9)
    # tokens/s; against the 312 dense BF16 peak the implied MFU is 147 / 312 = 47%.
    tps = 147e12 / (6 * 175e9)
    out = throughput_calibration(
        ThroughputCalibrationInput(
            params_b=175, tokens_b=180, gpu="A100", gpus=992, tokens_per_second_per_gpu=tps
        ),
        CATALOG,
    )
    assert out.implied_mfu == pytest.approx(147 / 312, rel=1e-3)
    assert out.achieved_tflops_per_gpu == pytest.approx(147, rel=1e-3)


def test_opt_175b_gpus_for_a_deadline_at_the_measured_rate() -> None:
    """OPT's 147 TFLOP/s per A100 (Zhang et al. 2022, §2.4) is 140 tokens/s per GPU on 175B; the 180B tokens
    in 33 days then take 1.8e11 / (140 x 33 x 86,400) = 450.9 -> 451 GPUs (the paper used 992 and took longer,
    with restarts)."""
    tps = 147e12 / (6 * 175e9)
    out = throughput_calibration(
        ThroughputCalibrationInput(
            params_b=175, tokens_b=180, gpu="A100", gpus=992, tokens_per_second_per_gpu=tps, deadline_days=33
        ),
        CATALOG,
    )
    assert out.deadline_gpus == math.ceil(180e9 / (tps * 33 * 86_400))
    assert out.deadline_gpus == 451


def test_fp8_peak_halves_the_reported_mfu() -> None:
    # DOMAIN-PITFALLS sizing 3: the same run reads as half the MFU against the FP8 peak
    kw = {"params_b": 37, "tokens_b": 1000, "gpu": "H800", "gpus": 8, "tokens_per_second_per_gpu": 3000.0}
    bf16 = throughput_calibration(ThroughputCalibrationInput(**kw), CATALOG)  # type: ignore[arg-type]
    fp8 = throughput_calibration(ThroughputCalibrationInput(precision="fp8", **kw), CATALOG)  # type: ignore[arg-type]
    assert fp8.implied_mfu == pytest.approx(bf16.implied_mfu / 2, rel=1e-3)
    assert fp8.warnings


def test_days_follow_from_gpu_count() -> None:
    out = compute(params_b=34, tokens_b=1500, gpu="H100", gpus=256, mfu=0.45)
    flops = 6 * 34e9 * 1500e9
    expected_days = flops / (256 * 989.4e12 * 0.45) / 86_400
    assert out.days is not None
    assert out.days.expected == pytest.approx(expected_days, rel=1e-3)
    assert out.days.low < out.days.expected < out.days.high


def test_gpus_for_a_deadline_round_up_to_servers() -> None:
    out = gpus_for_deadline(
        GpusForDeadlineInput(params_b=70, tokens_b=2000, gpu="H100", deadline_days=30), CATALOG
    )
    exact = 6 * 70e9 * 2000e9 / (989.4e12 * 0.40 * 30 * 86_400)
    assert out.exact_gpus == pytest.approx(exact, rel=1e-3)
    assert out.gpus % 8 == 0
    assert out.gpus - 8 < exact <= out.gpus
    assert out.days_at_gpus <= 30


def test_a_chip_rented_by_the_instance_rounds_to_whole_instances() -> None:
    """Trainium2 is rented as trn2.48xlarge instances of 16 chips (AWS EC2 Trn2 instance types; the catalog's
    entry): 7B on 500B tokens in 14 days at 35% MFU of 667 dense BF16 TFLOP/s needs 74.4 chips, so 5 instances
    (80 chips), not 10 servers of 8. A per-node count the user gives still wins."""
    inp = {"params_b": 7, "tokens_b": 500, "gpu": "trainium2", "deadline_days": 14, "mfu": 0.35}
    out = gpus_for_deadline(GpusForDeadlineInput(**inp), CATALOG)
    exact = 6 * 7e9 * 500e9 / (667e12 * 0.35 * 14 * 86_400)
    assert out.exact_gpus == pytest.approx(exact, rel=0.01)
    assert (out.instance, out.per_node, out.nodes, out.gpus) == ("trn2.48xlarge", 16, 5, 80)
    given = gpus_for_deadline(GpusForDeadlineInput(**inp, gpus_per_node=8), CATALOG)
    assert (given.instance, given.per_node, given.gpus) == (None, 8, 80)


def test_goodput_shortens_the_training_time_a_deadline_leaves() -> None:
    """Llama 3's 405B run kept about 90% effective training time through 419 interruptions in 54 days (Dubey et
    al. 2024, section 3.3.4): at 90% goodput, 45 days of wall clock train for 40.5. 30B x 1.2T tokens x 6 =
    2.16e23 FLOPs / (989.4 TFLOPS x 38% x 40.5 x 86,400 s) = 164.3 GPUs: 168 in 8-GPU servers (152 at 100%)."""

    def run(goodput: float) -> tuple[float, int, float]:
        out = gpus_for_deadline(
            GpusForDeadlineInput(
                params_b=30, tokens_b=1200, gpu="H100", mfu=0.38, deadline_days=45, goodput=goodput
            ),
            CATALOG,
        )
        return out.exact_gpus, out.gpus, out.days_at_gpus

    exact = 6 * 30e9 * 1200e9 / (989.4e12 * 0.38 * 45 * 0.9 * 86_400)
    assert run(0.9)[:2] == (pytest.approx(exact, rel=1e-3), 168)
    assert run(1.0)[1] == 152
    assert run(0.9)[2] <= 45  # wall-clock days, restarts included


def test_gpu_counts_are_never_fractional_and_near_misses_warn() -> None:
    # DOMAIN-PITFALLS sizing 12: 13.04 GPUs is 14, and a result just under a boundary gets a warning
    exact_8 = 6 * 7e9 * 100e9 / (989.4e12 * 0.4 * 86_400)  # GPUs for 7B x 100B tokens in one day
    out = gpus_for_deadline(
        GpusForDeadlineInput(
            params_b=7, tokens_b=100, gpu="H100", deadline_days=exact_8 / 7.98, gpus_per_node=1
        ),
        CATALOG,
    )
    assert out.gpus == 8
    assert out.warnings


def test_unknown_gpu_suggests_catalog_names() -> None:
    from tools.common import CalculatorInputError

    with pytest.raises(CalculatorInputError, match="did you mean") as info:
        compute(params_b=7, gpu="H1000")
    assert info.value.field == "gpu"
    assert info.value.suggestions


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"params_b": 7, "mfu": 0}, "mfu"),
        ({"params_b": 7, "mfu": 0.6}, "within mfu_low..mfu_high"),
        ({"params_b": 7, "tokens_b": -5}, "tokens_b"),
    ],
)
def test_bad_values_are_validation_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        TrainingComputeInput.model_validate(kwargs)


def test_calibration_needs_exactly_one_throughput() -> None:
    with pytest.raises(ValidationError, match="exactly one"):
        ThroughputCalibrationInput(params_b=7, gpus=8)


@settings(max_examples=60, deadline=None)
@given(params=st.floats(min_value=0.1, max_value=2000), tokens=st.floats(min_value=1, max_value=50_000))
def test_doubling_tokens_doubles_flops(params: float, tokens: float) -> None:
    one = compute(params_b=params, tokens_b=tokens)
    two = compute(params_b=params, tokens_b=2 * tokens)
    assert two.workload.training_flops == pytest.approx(2 * one.workload.training_flops, rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(gpus=st.integers(min_value=1, max_value=100_000))
def test_more_gpus_never_take_longer(gpus: int) -> None:
    few = compute(params_b=13, tokens_b=1000, gpus=gpus)
    many = compute(params_b=13, tokens_b=1000, gpus=gpus + 1)
    assert few.days is not None
    assert many.days is not None
    assert many.days.expected <= few.days.expected


def test_a_gpu_without_bf16_falls_back_to_its_fp16_peak_unless_bf16_was_asked_for() -> None:
    # NVIDIA V100 datasheet: 125 TFLOPS FP16 tensor, no BF16 (the catalog has bf16_dense_tflops: null)
    from tools.common import CalculatorInputError

    out = compute(params_b=7, tokens_b=1000, gpu="v100-sxm2-32gb", gpus=64)
    assert out.workload.peak_tflops_per_gpu == 125
    assert any("125 dense FP16 TFLOP/s per GPU (catalog) (it has no BF16)" in a for a in out.assumptions)
    with pytest.raises(CalculatorInputError, match="no dense BF16 figure"):
        compute(params_b=7, tokens_b=1000, gpu="v100-sxm2-32gb", gpus=64, precision="bf16")


@pytest.mark.parametrize("kind", ["lora", "qlora"])
def test_adapter_fine_tuning_skips_the_weight_gradients(kind: str) -> None:
    """A frozen base needs forward (2N) and activation gradients (2N), not weight gradients (2N): 4N a token,
    two thirds of full training. Hu et al., LoRA (2021) §4.2 measure a 25% speed-up on GPT-3 175B; the
    FLOP ratio bounds it (the adapters and the unchanged attention work eat part of the saving)."""
    full = compute(model="llama-3-8b", tokens_b=1.5, gpu="A100", gpus=1)
    adapters = compute(model="llama-3-8b", tokens_b=1.5, gpu="A100", gpus=1, finetune=kind)
    ratio = adapters.workload.training_flops / full.workload.training_flops
    assert ratio == pytest.approx(4 / 6)
    assert 1 - ratio >= 0.25  # never a smaller saving than LoRA's measured one
    assert any("LoRA" in s.title for s in adapters.sources)
    assert any("frozen base" in a for a in adapters.assumptions)


def test_a_measured_throughput_projects_to_another_gpu_count_with_its_scaling_loss() -> None:
    """4M tokens per 8 s step on 256 GPUs is 1,953 tokens/s per GPU; on 512 GPUs at 90% each keeps 1,758, so a
    step of the same 4M tokens takes 4M / (1,758 x 512) = 4.44 s and the days halve, less 10%."""
    base = {
        "params_b": 30,
        "tokens_b": 1000,
        "gpu": "H100",
        "gpus": 256,
        "step_time_s": 8,
        "tokens_per_step": 4e6,
    }
    measured = throughput_calibration(ThroughputCalibrationInput.model_validate(base), CATALOG)
    doubled = throughput_calibration(
        ThroughputCalibrationInput.model_validate({**base, "run_gpus": 512, "scaling_efficiency": 0.9}),
        CATALOG,
    )
    assert doubled.implied_mfu == measured.implied_mfu
    assert doubled.run_step_time_s == pytest.approx(8 / 2 / 0.9, rel=1e-3)
    assert doubled.days == pytest.approx(measured.days / 2 / 0.9, rel=1e-3)
    assert doubled.run_mfu == pytest.approx(measured.implied_mfu * 0.9, rel=1e-3)


@pytest.mark.parametrize(
    ("tokens_per_second", "rating"),
    # 6 x 13e9 x rate / 989e12: 3,000 -> 24% (low), 4,200 -> 33% (below typical), 5,000 -> 39%, 7,500 -> 59%
    [(3000, "low"), (4200, "below typical"), (5000, "typical"), (7500, "high")],
)
def test_the_implied_mfu_is_rated_against_published_runs(tokens_per_second: float, rating: str) -> None:
    """Llama 3 405B trained at 38-43% BF16 MFU on H100s (Llama 3 paper, Table 4); PaLM 540B at 46.2% (PaLM,
    Table 3): 35-50% is typical, under 30% low."""
    out = throughput_calibration(
        ThroughputCalibrationInput(
            params_b=13, gpu="H100", gpus=64, tokens_per_second_per_gpu=tokens_per_second
        ),
        CATALOG,
    )
    assert out.mfu_rating == rating


def test_the_step_time_at_a_planned_mfu_inverts_the_mfu_of_a_measured_step() -> None:
    """32B, 512 x 8,192 = 4,194,304 tokens per step on 128 H800 at 40% MFU: 6 x 32e9 x 4.19e6 = 8.05e17 FLOPs
    over 128 x 989e12 x 0.4 = 5.06e16 FLOP/s is 15.9 s; a measured step of that length gives back 40%."""
    planned = compute(params_b=32, gpu="H800", gpus=128, mfu=0.4, tokens_per_step=512 * 8192)
    assert planned.step_time_s == pytest.approx(6 * 32e9 * 512 * 8192 / (128 * 989e12 * 0.4), rel=1e-3)
    measured = throughput_calibration(
        ThroughputCalibrationInput.model_validate(
            {
                "params_b": 32,
                "gpu": "H800",
                "gpus": 128,
                "step_time_s": planned.step_time_s,
                "tokens_per_step": 512 * 8192,
            }
        ),
        CATALOG,
    )
    assert measured.implied_mfu == pytest.approx(0.4, abs=0.005)
    assert compute(params_b=32, gpu="H800", gpus=128).step_time_s is None  # no step size given: no step time


def test_chip_hours_are_also_given_as_the_instances_that_rent_the_chip() -> None:
    """6 x 8e9 x 1e12 = 4.8e22 FLOPs at 667 dense BF16 TFLOPS per Trainium2 (AWS Neuron docs) and 40% MFU:
    49,980 chip-hours; a trn2.48xlarge holds 16 chips, so 3,124 instance-hours."""
    out = training_compute(TrainingComputeInput(params_b=8, tokens_b=1000, gpu="trainium2"), CATALOG)
    assert out.gpu_hours.expected == pytest.approx(49_980, rel=1e-3)
    assert out.instance_hours["trn2.48xlarge"] == pytest.approx(3124, rel=1e-3)
