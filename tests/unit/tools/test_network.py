"""All-reduce time and network sizing against NCCL's and ZeRO's definitions (sources named per test)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tests.helpers import KNOWLEDGE
from tools.common import CalculatorInputError
from tools.network import NetworkInput, NetworkOutput, network

CATALOG = default_catalog()


def run(**kwargs: object) -> NetworkOutput:
    return network(NetworkInput.model_validate(kwargs), CATALOG)


@pytest.mark.parametrize(
    ("kwargs", "flat", "hier", "allreduce"),
    [
        # 1B params x 2 bytes = 2 GB; 8 GPUs at 100 GB/s: 2 x 7/8 x 2 / 100 = 0.035 s
        ({"intra_node_gb_s": 100, "efficiency": 1}, 0.035, None, 0.035),
        ({"intra_node_gb_s": 100, "efficiency": 0.5}, 0.07, None, 0.07),
        ({"intra_node_gb_s": 100, "efficiency": 1, "gradient_precision": "fp32"}, 0.07, None, 0.07),
        ({"intra_node_gb_s": 100, "efficiency": 1, "gpus_per_node": 2}, 0.02, None, 0.02),
        # 2 servers x 4 GPUs, 100 GB/s inside, 400 Gb/s = 50 GB/s per GPU between:
        # flat 2 x 7/8 x 2 / 50 = 0.07; two-level 2 x 3/4 x 2/100 + 2 x 1/2 x (2/4)/50 = 0.03 + 0.01 = 0.04
        ({"intra_node_gb_s": 100, "efficiency": 1, "nodes": 2, "gpus_per_node": 4,
          "inter_node_gbit_s_per_gpu": 400}, 0.07, 0.04, 0.04),
        # one GPU per server: a plain ring over 4 servers, 2 x 3/4 x 2 / 50 = 0.06
        ({"efficiency": 1, "nodes": 4, "gpus_per_node": 1, "inter_node_gbit_s_per_gpu": 400}, 0.06, None, 0.06),
    ],
)  # fmt: skip
def test_hand_computed_times(
    kwargs: dict[str, object], flat: float, hier: float | None, allreduce: float
) -> None:
    out = run(params_b=1, **kwargs)
    assert out.gradient_gb == pytest.approx(2 * (2 if kwargs.get("gradient_precision") == "fp32" else 1))
    assert out.flat_ring_s == pytest.approx(flat, rel=1e-12)
    assert out.hierarchical_s == (None if hier is None else pytest.approx(hier, rel=1e-12))
    assert out.allreduce_s == pytest.approx(allreduce, rel=1e-12)


def test_nccl_bus_bandwidth_definition() -> None:
    # NVIDIA nccl-tests doc/PERFORMANCE.md: all-reduce "t = (S/B) * (2*(n-1)/n)" and
    # "busbw = algbw * (2*(n-1)/n)": inside one server the bus bandwidth is the link rate we assumed
    out = run(params_b=7, gpu="H100", efficiency=0.8)
    assert out.algbw_gb_s is not None
    assert out.busbw_gb_s == pytest.approx(out.algbw_gb_s * 2 * 7 / 8)
    assert out.busbw_gb_s == pytest.approx(0.8 * 450)


@pytest.mark.parametrize("nodes", [2, 16, 128])
def test_nccl_bus_bandwidth_factor_across_servers(nodes: int) -> None:
    out = run(params_b=7, gpu="H100", nodes=nodes, inter_node_link="infiniband-ndr")
    n = 8 * nodes
    assert out.total_gpus == n
    assert out.algbw_gb_s is not None
    assert out.busbw_gb_s == pytest.approx(out.algbw_gb_s * 2 * (n - 1) / n)


@pytest.mark.parametrize(
    ("link", "gb_s", "gbit_s"),
    [
        # NVIDIA DGX B200 User Guide / MLPerf Eos: NDR 400 Gb/s per port; 400 / 8 = 50 GB/s (DOMAIN-PITFALLS 10)
        ("infiniband-ndr", 50, 400),
        ("NDR InfiniBand", 50, 400),
        ("InfiniBand HDR", 25, 200),  # unambiguous part of a name
        ("400GbE", 50, 400),
        ("infiniband-xdr", 100, 800),
    ],
)
def test_scale_out_ports_are_bits_not_bytes(link: str, gb_s: float, gbit_s: float) -> None:
    out = run(params_b=7, gpu="H100", nodes=2, inter_node_link=link)
    assert out.inter_node_gb_s_per_gpu == gb_s
    assert out.inter_node_gbit_s_per_gpu == gbit_s


def test_given_gigabits_are_divided_by_eight() -> None:
    out = run(params_b=7, gpu="H100", nodes=2, inter_node_gbit_s_per_gpu=400)
    assert out.inter_node_gb_s_per_gpu == 50


def test_half_a_nic_per_gpu_halves_the_bandwidth() -> None:
    out = run(params_b=7, gpu="H100", nodes=2, inter_node_link="infiniband-ndr", nics_per_gpu=0.5)
    assert out.inter_node_gb_s_per_gpu == 25


@pytest.mark.parametrize(
    ("kwargs", "gb_s"),
    [
        # NVIDIA: NVLink 4 "900 GB/s" per H100 SXM is both directions added, 450 each way (DOMAIN-PITFALLS 10)
        ({"gpu": "H100"}, 450),
        ({"gpu": "A100"}, 300),  # NVLink 3 600 GB/s
        ({"gpu": "B200"}, 900),  # NVLink 5 1.8 TB/s
        ({"intra_node_link": "nvlink-4"}, 450),
        ({"intra_node_link": "PCIe Gen5 x16"}, 64),  # "128 GB/s" both ways
        ({"gpu": "L40S"}, 32),  # no NVLink: PCIe Gen4 x16
        ({"gpu": "H100 PCIe"}, 64),  # NVLink bridges pair cards only; 8 cards ring over PCIe Gen5
        ({"gpu": "H100 PCIe", "gpus_per_node": 2}, 300),  # a bridged pair uses the bridge
    ],
)
def test_intra_node_bandwidth_is_one_direction(kwargs: dict[str, object], gb_s: float) -> None:
    assert run(params_b=7, **kwargs).intra_node_gb_s == gb_s


def test_pcie_only_servers_are_warned_about() -> None:
    assert any("PCIe Gen4 x16" in w for w in run(params_b=7, gpu="L40S").warnings)


def test_zero3_moves_one_and_a_half_times_the_data() -> None:
    # Rajbhandari et al., ZeRO (2019), §7.2.2: P_os+g+p moves 3Ψ against 2Ψ for data parallelism, 1.5x
    plain = run(params_b=70, gpu="H100", nodes=4, inter_node_link="infiniband-ndr")
    zero3 = run(params_b=70, gpu="H100", nodes=4, inter_node_link="infiniband-ndr", zero3=True)
    assert zero3.allreduce_s == plain.allreduce_s
    assert zero3.comm_per_step_s == pytest.approx(1.5 * plain.comm_per_step_s)  # type: ignore[operator]
    assert any("1.5x" in a for a in zero3.assumptions)


@pytest.mark.parametrize(
    ("overlap", "share"),
    # 0.035 s of communication against 1 s of compute: 0.035 / 1.035; half hidden: 0.0175 / 1.0175
    [(0.0, 0.035 / 1.035), (0.5, 0.0175 / 1.0175), (0.9, 0.0035 / 1.0035)],
)
def test_share_of_step_time(overlap: float, share: float) -> None:
    out = run(params_b=1, intra_node_gb_s=100, efficiency=1, step_time_s=1, overlap_share=overlap)
    assert out.comm_share_of_step == pytest.approx(share)


def test_bandwidth_needed_inside_one_server() -> None:
    # allowed exposed time at a 50% share of a 1 s step is 1 s; 2 x 7/8 x 2 GB / 1 s = 3.5 GB/s = 28 Gb/s
    out = run(params_b=1, intra_node_gb_s=100, efficiency=1, step_time_s=1, target_comm_share=0.5)
    assert out.needed_for == "intra-node"
    assert out.needed_gb_s_per_gpu == pytest.approx(3.5)
    assert out.needed_gbit_s_per_gpu == pytest.approx(28)


def test_bandwidth_needed_between_servers() -> None:
    # budget 1 s; inside 2 x 3/4 x 2/100 = 0.03 s; left 0.97 s for 2 x 1/2 x (2/4) GB: 0.515 GB/s per GPU
    out = run(
        params_b=1,
        intra_node_gb_s=100,
        efficiency=1,
        nodes=2,
        gpus_per_node=4,
        step_time_s=1,
        target_comm_share=0.5,
    )
    assert out.needed_for == "inter-node"
    assert out.needed_gb_s_per_gpu == pytest.approx(0.5 / 0.97)
    assert out.matched_option == "ethernet-100gbe"  # the slowest catalog link is enough


def test_ties_name_every_matching_link() -> None:
    # 70B on 16 DGX H100: 95 GB/s per GPU is needed for 10% of a 10 s step: XDR or 800GbE (both 100 GB/s)
    out = run(params_b=70, gpu="H100", nodes=16, inter_node_link="NDR", step_time_s=10, target_comm_share=0.1)
    assert out.needed_gb_s_per_gpu == pytest.approx(95.262, rel=1e-4)
    assert set(out.matched_options) == {"infiniband-xdr", "ethernet-800gbe"}
    assert out.needed_gbit_s_per_gpu == pytest.approx(8 * out.needed_gb_s_per_gpu)  # type: ignore[operator]


def test_ndr_class_need_matches_ndr_and_400gbe() -> None:
    out = run(params_b=70, gpu="H100", nodes=16, step_time_s=20, target_comm_share=0.1)
    assert out.needed_gb_s_per_gpu is not None
    assert 25 < out.needed_gb_s_per_gpu <= 50
    assert set(out.matched_options) == {"infiniband-ndr", "ethernet-400gbe"}
    assert out.allreduce_s is None  # no link given: only the need is computed


def test_the_needed_bandwidth_meets_the_target_exactly() -> None:
    need = run(params_b=70, gpu="H100", nodes=8, step_time_s=8, target_comm_share=0.15, overlap_share=0.3)
    assert need.needed_gbit_s_per_gpu is not None
    check = run(
        params_b=70, gpu="H100", nodes=8, step_time_s=8, overlap_share=0.3,
        inter_node_gbit_s_per_gpu=need.needed_gbit_s_per_gpu,
    )  # fmt: skip
    assert check.comm_share_of_step == pytest.approx(0.15)


def test_no_network_can_beat_a_slow_intra_node_phase() -> None:
    out = run(params_b=70, gpu="L40S", nodes=4, step_time_s=1, target_comm_share=0.05)
    assert out.needed_gb_s_per_gpu is None
    assert any("no network meets the target" in w for w in out.warnings)


def test_a_need_beyond_every_link_names_the_port_count() -> None:
    out = run(params_b=400, intra_node_gb_s=100_000, nodes=64, step_time_s=1, target_comm_share=0.05)
    assert out.matched_option is None
    assert any("ports per GPU" in w for w in out.warnings)


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"gpus_per_node": 1}, "gpus_per_node", "nothing to all-reduce"),
        ({}, "gpu", "intra_node_link"),
        ({"gpu": "H100", "nodes": 2}, "inter_node_link", "infiniband-ndr"),
        ({"gpu": "H100", "nodes": 2, "inter_node_link": "Omni-Path"}, "inter_node_link", "unknown"),
        ({"gpu": "H100", "nodes": 2, "inter_node_link": "InfiniBand"}, "inter_node_link", "infiniband-hdr"),
        ({"intra_node_link": "infiniband-ndr"}, "intra_node_link", "unknown"),  # a scale-out link
        ({"gpu": "H100", "target_comm_share": 0.1}, "step_time_s", "compute time"),
        ({"gpu": "H10O"}, "gpu", "h100-sxm"),
    ],
)
def test_impossible_inputs_name_the_field(kwargs: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(CalculatorInputError, match=message) as info:
        run(params_b=7, **kwargs)
    assert info.value.field == field


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"efficiency": 0}, "efficiency"),
        ({"efficiency": 1.2}, "efficiency"),
        ({"overlap_share": 1}, "overlap_share"),
        ({"target_comm_share": 0}, "target_comm_share"),
        ({"inter_node_gbit_s_per_gpu": -400}, "inter_node_gbit_s_per_gpu"),
        ({"gradient_precision": "int8"}, "gradient_precision"),
        ({"bandwidth": 400}, "bandwidth"),  # unknown fields are errors
    ],
)
def test_out_of_range_values_are_validation_errors(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        NetworkInput.model_validate({"params_b": 7, **kwargs})


@settings(max_examples=60, deadline=None)
@given(
    params=st.floats(min_value=0.1, max_value=2000),
    intra=st.floats(min_value=10, max_value=2000),
    inter=st.floats(min_value=10, max_value=3200),
    nodes=st.integers(min_value=1, max_value=256),
)
def test_more_bandwidth_never_raises_the_time(params: float, intra: float, inter: float, nodes: int) -> None:
    kw = {"params_b": params, "nodes": nodes}
    base = run(intra_node_gb_s=intra, inter_node_gbit_s_per_gpu=inter, **kw)
    faster_intra = run(intra_node_gb_s=intra * 1.5, inter_node_gbit_s_per_gpu=inter, **kw)
    faster_inter = run(intra_node_gb_s=intra, inter_node_gbit_s_per_gpu=inter * 1.5, **kw)
    assert base.allreduce_s is not None
    assert faster_intra.allreduce_s <= base.allreduce_s  # type: ignore[operator]
    assert faster_inter.allreduce_s <= base.allreduce_s  # type: ignore[operator]


@settings(max_examples=60, deadline=None)
@given(
    params=st.floats(min_value=0.1, max_value=2000),
    nodes=st.integers(min_value=1, max_value=256),
    gpus=st.integers(min_value=2, max_value=8),
)
def test_time_is_linear_in_gradient_size(params: float, nodes: int, gpus: int) -> None:
    kw = {"nodes": nodes, "gpus_per_node": gpus, "gpu": "H100", "inter_node_link": "infiniband-ndr"}
    one, two = run(params_b=params, **kw), run(params_b=2 * params, **kw)
    assert two.allreduce_s == pytest.approx(2 * one.allreduce_s, rel=1e-9)  # type: ignore[operator]


@settings(max_examples=40, deadline=None)
@given(overlap=st.floats(min_value=0, max_value=0.89), step=st.floats(min_value=0.1, max_value=100))
def test_more_overlap_never_raises_the_share(overlap: float, step: float) -> None:
    kw = {"params_b": 13, "gpu": "A100", "nodes": 4, "inter_node_link": "infiniband-hdr", "step_time_s": step}
    low, high = run(overlap_share=overlap, **kw), run(overlap_share=overlap + 0.1, **kw)
    assert high.comm_share_of_step <= low.comm_share_of_step  # type: ignore[operator]


def test_a_batch_gives_the_compute_a_step_hides_the_all_reduce_in() -> None:
    """Kaplan et al. (2020) §2.1: C = 6ND. Llama 2 (Touvron et al., 2023, §2.2) trains every size at a 4M-token
    global batch: 7B on 16 H100 (989.4 dense BF16 TFLOPS, catalog) at 40% MFU computes a step in
    6 x 7e9 x 4e6 / (16 x 989.4e12 x 0.4) = 1.68e17 / 6.33e15 = 26.53 s. Over 100 Gb/s per server (12.5 Gb/s per
    GPU = 1.5625 GB/s): 2 x 7/8 x 14 GB / (0.8 x 450) + 2 x 1/2 x 1.75 GB / (0.8 x 1.5625) = 0.068 + 1.4 = 1.468 s,
    so 1.468 / (26.53 + 1.468) = 5.2% of the step."""
    out = run(params_b=7, gpu="h100-sxm", nodes=2, inter_node_gbit_s_per_gpu=12.5, batch_tokens=4e6)
    assert out.step_time_s == pytest.approx(26.53, rel=1e-3)
    assert out.allreduce_s == pytest.approx(1.468, rel=1e-3)
    assert out.comm_share_of_step == pytest.approx(0.0524, abs=5e-4)
    assert any("Kaplan" in s.title for s in out.sources)
    # a measured step time wins over the batch; MoE computes with its active parameters only
    assert run(params_b=7, gpu="h100-sxm", step_time_s=3, batch_tokens=4e6).step_time_s == 3
    moe = run(params_b=47, active_params_b=13, gpu="h100-sxm", batch_tokens=4e6, mfu=0.5)
    assert moe.step_time_s == pytest.approx(6 * 13e9 * 4e6 / (8 * 989.4e12 * 0.5), rel=1e-3)


def test_the_networking_articles_worked_example_is_what_the_calculator_computes() -> None:
    """knowledge/corpus/{en,zh}/networking.md: 7B (14 GB of BF16 gradients) on 64 H100 in 8 servers, NVLink 450
    GB/s each way inside, one 400 Gb/s NIC per GPU. Two-level all-reduce (Jia et al. 2018; NCCL tests' 2(n-1)/n):
    2 x 7/8 x 14/450 + 2 x 7/8 x (14/8)/50 = 0.054 + 0.061 = 0.116 s at line rate, 0.145 s at 80%; with one
    100 Gb/s NIC per GPU 0.37 s at 80%. The flat ring's 27.6 GB per NIC (0.55 s) is not what runs."""
    shape = {"params_b": 7, "nodes": 8, "gpus_per_node": 8, "gpu": "h100-sxm", "step_time_s": 1.0}
    full = run(**shape, inter_node_link="infiniband-ndr", efficiency=1)
    assert full.flat_ring_s == pytest.approx(2 * 63 / 64 * 14 / 50, rel=1e-9)  # 0.55 s
    assert full.allreduce_s == pytest.approx(2 * 7 / 8 * 14 / 450 + 2 * 7 / 8 * 14 / 8 / 50, rel=1e-9)
    assert round(full.allreduce_s, 3) == 0.116  # type: ignore[arg-type]
    at_80 = run(**shape, inter_node_link="infiniband-ndr")
    slow = run(**shape, inter_node_link="ethernet-100gbe")
    assert (round(at_80.allreduce_s, 3), round(slow.allreduce_s, 2)) == (0.145, 0.37)  # type: ignore[arg-type]
    assert (round(at_80.comm_share_of_step, 2), round(slow.comm_share_of_step, 2)) == (0.13, 0.27)  # type: ignore[arg-type]
    for lang, unit in (("en", " s"), ("zh", " 秒")):
        text = (KNOWLEDGE / "corpus" / lang / "networking.md").read_text(encoding="utf-8")
        assert all(f"{figure}{unit}" in text for figure in ("0.116", "0.145", "0.37")), lang
