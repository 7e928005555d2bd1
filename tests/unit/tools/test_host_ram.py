"""Host RAM sizing against published servers and DeepSpeed's offload estimates (sources named per test)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.common import GB, GIB, CalculatorInputError
from tools.gpu_memory import TrainingMemoryInput, training_memory
from tools.host_ram import HostRamInput, HostRamOutput, host_ram

CATALOG = default_catalog()
BARE = {"loader_workers_per_gpu": 0, "pinned_gb_per_gpu": 0}  # only the ratio term


def run(**kwargs: object) -> HostRamOutput:
    return host_ram(HostRamInput.model_validate(kwargs), CATALOG)


@pytest.mark.parametrize(
    ("kwargs", "total_gb", "dimms_gib"),
    [
        # 8 x 80 GB x 2 = 1,280 + 8 x 4 workers x 2 batches x 64 MB = 4.096 + 8 x 2 GB pinned = 16 -> 1,300.096 GB
        # = 1,210.8 GiB -> 24 x 64 GB DIMMs
        ({"gpu_memory_gb": 80}, 1300.096, 1536),
        ({"gpu": "H100", "ram_to_gpu_memory_ratio": 1, **BARE}, 640, 768),  # 596 GiB
        ({"gpu": "A100 40GB", "ram_to_gpu_memory_ratio": 1, **BARE}, 320, 512),  # 298 GiB
        # 2,160 GB is 2,012 GiB: 2 TiB of DIMMs hold it although 2,160 > 2,048
        ({"total_gpu_memory_gb": 1440, "ram_to_gpu_memory_ratio": 1.5, **BARE}, 2160, 2048),
        ({"total_gpu_memory_gb": 1440, "ram_to_gpu_memory_ratio": 1.6, **BARE}, 2304, 2304),  # 2,146 GiB: 24 x 96 GB
        ({"gpu_memory_gb": 24, "gpus_per_node": 4, "loader_workers_per_gpu": 8, "prefetch_factor": 4,
          "loader_batch_mb": 500, "pinned_gb_per_gpu": 1}, 192 + 64 + 4, 256),
    ],
)  # fmt: skip
def test_hand_computed_totals(kwargs: dict[str, object], total_gb: float, dimms_gib: int) -> None:
    out = run(**kwargs)
    assert out.per_node.total_gb == pytest.approx(total_gb, rel=1e-12)
    assert out.recommended_ram_gib == dimms_gib


@pytest.mark.parametrize(
    ("gib", "dimms"),
    [
        (256, 256),
        (256.01, 512),
        (768, 768),
        (1025, 1152),
        (1536, 1536),
        (2048, 2048),
        (2049, 2304),
        (2305, 3072),
        (8192, 8192),
    ],
)
def test_dimm_rounding_compares_binary_sizes(gib: float, dimms: int) -> None:
    # a "64 GB" DIMM holds 64 GiB, so the requirement is compared in GiB (DOMAIN-PITFALLS 6)
    out = run(total_gpu_memory_gb=gib * GIB / GB, ram_to_gpu_memory_ratio=1, **BARE)
    assert out.per_node.total_gib == pytest.approx(gib)
    assert out.recommended_ram_gib == dimms


def test_beyond_eight_tebibytes_rounds_to_whole_tebibytes_and_warns() -> None:
    out = run(gpu="H100", params_b=1000, offload_optimizer=True)  # 1T x 16 x 1.5 = 24 TB of offload
    assert out.recommended_ram_gib % 1024 == 0
    assert out.recommended_ram_gib >= out.per_node.total_gib
    assert any("more than a two-socket server holds" in w for w in out.warnings)


@pytest.mark.parametrize(
    ("server", "ram_gb", "hbm_gb", "ratio"),
    [
        # NVIDIA DGX H100/H200 User Guide: 2 TB system memory, 8 x 80 GB = 640 GB HBM3
        ("dgx-h100", 2048, 640, 3.2),
        # NVIDIA DGX A100 User Guide: the 640 GB system has 2 TB of memory
        ("dgx-a100", 2048, 640, 3.2),
        # NVIDIA DGX B200 User Guide: 2 TB for 8 x 180 GB = 1,440 GB HBM3e
        ("dgx-b200", 2048, 1440, 1.42),
    ],
)
def test_reference_server_ratios_come_from_the_catalog(
    server: str, ram_gb: float, hbm_gb: float, ratio: float
) -> None:
    ref = next(r for r in run(gpu="H100").reference_servers if r.id == server)
    assert (ref.ram_gb, ref.gpu_memory_gb) == (ram_gb, hbm_gb)
    assert ref.ratio == pytest.approx(ratio, abs=0.005)


def test_dgx_h100_ratio_reproduces_its_2_tb() -> None:
    # NVIDIA DGX H100 User Guide: 2 TB of RAM for 640 GB of HBM; 3.2 x 640 GB = 2,048 GB = 1,907 GiB -> 2 TiB
    out = run(gpu="H100", ram_to_gpu_memory_ratio=3.2, **BARE)
    assert out.per_node.total_gb == pytest.approx(2048)
    assert out.recommended_ram_gib == 2048
    assert "32 x 64 GB" in out.dimm_layout


@pytest.mark.parametrize(
    ("offload_params", "published_gib"),
    # Hugging Face Transformers DeepSpeed guide, "Memory requirements": bigscience/T0_3B (2783M params), 1 node,
    # 1 GPU: 62.23GB per CPU with offload_optimizer=cpu, 70.00GB with offload_param=cpu too (zero_init=1);
    # DeepSpeed prints GiB (2.783e9 x 16 x 1.5 = 66.79e9 B = 62.20 GiB, -0.04%; x 18 = 69.98 GiB, -0.03%)
    [(False, 62.23), (True, 70.00)],
)
def test_deepspeed_t0_3b_offload_estimate(offload_params: bool, published_gib: float) -> None:
    out = run(
        gpu_memory_gb=8,
        gpus_per_node=1,
        params_b=2.783,
        offload_optimizer=True,
        offload_params=offload_params,
    )
    assert out.per_node.offload_gb * GB / GIB == pytest.approx(published_gib, rel=0.002)
    assert any(s.url.startswith("https://deepspeed.readthedocs.io") for s in out.sources)


def test_offload_matches_the_training_memory_calculator() -> None:
    # the per-GPU host RAM of gpu_memory.training_memory (ZeRO-2, 8 GPUs) times 8 GPUs on one server
    per_gpu = training_memory(
        TrainingMemoryInput(params_b=7.5, gpus=8, zero_stage=2, offload_optimizer=True), CATALOG
    ).host_ram_for_offload_gb_per_gpu
    out = run(gpu="H100", params_b=7.5, offload_optimizer=True)
    assert out.per_node.offload_gb == pytest.approx(8 * per_gpu, rel=1e-3)
    assert out.per_node.offload_gb == pytest.approx(7.5 * 16 * 1.5)


def test_offload_divides_by_nodes() -> None:
    one = run(gpu="H100", params_b=70, offload_optimizer=True)
    four = run(gpu="H100", params_b=70, offload_optimizer=True, nodes=4)
    assert four.per_node.offload_gb == pytest.approx(one.per_node.offload_gb / 4)


def test_checkpoint_staging_holds_this_servers_share() -> None:
    out = run(gpu="H100", params_b=70, checkpoint_staging=True, nodes=7)
    assert out.per_node.checkpoint_staging_gb == pytest.approx(70 * 14 / 7)


def test_gib_and_gb_are_both_reported() -> None:
    out = run(gpu="B200")
    assert out.per_node.total_gib == pytest.approx(out.per_node.total_gb * GB / GIB)
    assert out.total_gpu_memory_gb == 8 * 180


@pytest.mark.parametrize("ram", [8, 16, 32])
def test_desktop_sized_ram_is_contradicted(ram: float) -> None:
    out = run(gpu="H100", current_ram_gb=ram)
    assert out.current_ram_sufficient is False
    assert any("8-16 GB" in w and "desktop" in w for w in out.warnings)


def test_current_ram_is_checked() -> None:
    assert run(gpu="H100", current_ram_gb=512).current_ram_sufficient is False
    enough = run(gpu="H100", current_ram_gb=2048)
    assert enough.current_ram_sufficient is True
    assert enough.warnings == []


def test_ratio_above_the_rule_of_thumb_is_noted() -> None:
    out = run(gpu="H100", ram_to_gpu_memory_ratio=3.2)
    assert any("1-2x rule of thumb" in w for w in out.warnings)


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({}, "gpu", "total_gpu_memory_gb"),
        ({"gpu": "H10O"}, "gpu", "h100-sxm"),
        ({"gpu": "H100", "offload_optimizer": True}, "params_b", "model size"),
        ({"gpu": "H100", "checkpoint_staging": True, "model": "llama-9"}, "model", "unknown model"),
    ],
)
def test_impossible_inputs_name_the_field(kwargs: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(CalculatorInputError, match=message) as info:
        run(**kwargs)
    assert info.value.field == field


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"gpu": "H100", "ram_to_gpu_memory_ratio": 0.5}, "ram_to_gpu_memory_ratio"),
        ({"gpu": "H100", "ram_to_gpu_memory_ratio": 8}, "ram_to_gpu_memory_ratio"),
        ({"gpu": "H100", "gpus_per_node": 0}, "gpus_per_node"),
        ({"gpu_memory_gb": -80}, "gpu_memory_gb"),
        ({"gpu": "H100", "current_ram_gb": 0}, "current_ram_gb"),
        ({"gpu": "H100", "ram_gb": 512}, "ram_gb"),  # unknown fields are errors
    ],
)
def test_out_of_range_values_are_validation_errors(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        HostRamInput.model_validate(kwargs)


@settings(max_examples=60, deadline=None)
@given(
    memory=st.floats(min_value=8, max_value=300),
    gpus=st.integers(min_value=1, max_value=16),
    ratio=st.floats(min_value=1, max_value=3.9),
)
def test_a_higher_ratio_never_lowers_ram(memory: float, gpus: int, ratio: float) -> None:
    low = run(gpu_memory_gb=memory, gpus_per_node=gpus, ram_to_gpu_memory_ratio=ratio)
    high = run(gpu_memory_gb=memory, gpus_per_node=gpus, ram_to_gpu_memory_ratio=ratio + 0.1)
    assert high.per_node.total_gb >= low.per_node.total_gb
    assert high.recommended_ram_gib >= low.recommended_ram_gib


@settings(max_examples=60, deadline=None)
@given(
    memory=st.floats(min_value=8, max_value=300),
    params=st.floats(min_value=0.1, max_value=2000),
    nodes=st.integers(min_value=1, max_value=64),
)
def test_the_dimm_total_always_covers_the_need(memory: float, params: float, nodes: int) -> None:
    out = run(gpu_memory_gb=memory, params_b=params, offload_optimizer=True, nodes=nodes)
    assert out.recommended_ram_gib >= out.per_node.total_gib


def test_offload_takes_the_baselines_place_when_larger_not_added_to_it() -> None:
    # 8 x H100 (640 GB HBM), 70B with optimizer offload: DeepSpeed's estimate 70e9 x 16 x 1.5 = 1,680 GB beats the
    # 2x baseline of 1,280 GB, so it sizes the server; 1,680 + loaders and pinned buffers needs 2 TB of DIMMs
    # (the sum, 2,960 GB, asked for 3 TB: 24 bytes per parameter on top of the ratio)
    out = run(gpu="H100", params_b=70, offload_optimizer=True)
    node = out.per_node
    assert node.offload_gb == pytest.approx(1680)
    assert node.total_gb == pytest.approx(1680 + node.loader_buffers_gb + node.pinned_gb, rel=1e-9)
    assert out.recommended_ram_gib == 2048
    # a small model's offload fits in the baseline's headroom: the ratio alone sizes it
    small = run(gpu="H100", params_b=7, offload_optimizer=True)
    assert small.per_node.total_gb == pytest.approx(
        small.per_node.baseline_gb + small.per_node.loader_buffers_gb + small.per_node.pinned_gb, rel=1e-9
    )


def test_ram_between_the_floor_and_the_plan_is_enough_without_offload() -> None:
    """8 x H100 = 640 GB of HBM; the floor adds loaders (8 x 4 x 2 x 64 MB = 4.1 GB) and pinned buffers
    (8 x 2 GB): 660 GB = 615 GiB. 1 TB clears it (pre-training without offload), short of the 2x plan of
    1,211 GiB that offload or checkpoint staging would want; NVIDIA's DGX H100 ships 2 TB."""
    out = run(gpu="H100", current_ram_gb=1024)
    assert out.minimum_gib == pytest.approx((640 + 8 * 4 * 2 * 0.064 + 16) * GB / GIB, rel=0.001)
    assert out.current_ram_sufficient is True
    assert out.current_ram_comfortable is False
