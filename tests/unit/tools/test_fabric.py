"""Fat-tree switch counts checked against published designs.

- NVIDIA DGX SuperPOD (H100) reference architecture, Network Fabrics: 127 DGX H100 nodes (1,016 GPUs, one
  400 Gb/s NDR port each) on 64-port Quantum-2 switches use 32 leaf and 16 spine switches.
- Al-Fares, Loukissas, Vahdat, SIGCOMM 2008: a k-ary fat tree connects k^3/4 hosts with 5k^2/4 switches
  (k = 64: 65,536 hosts, 5,120 switches).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.common import CalculatorInputError
from tools.fabric import FabricInput, fabric

CATALOG = default_catalog()


def test_the_dgx_h100_superpod_fabric() -> None:
    out = fabric(FabricInput(nodes=127), CATALOG)
    assert (out.endpoints, out.tiers, out.leaf_switches, out.spine_switches) == (1016, 2, 32, 16)
    assert out.switch_to_switch_cables == 1024  # the reference design's 1,024 spine-leaf cables


def test_a_full_k_ary_fat_tree_has_five_k_squared_over_four_switches() -> None:
    k = 64
    out = fabric(FabricInput(endpoints=k**3 // 4, switch_ports=k), CATALOG)
    assert (out.tiers, out.switches) == (3, 5 * k * k // 4)
    assert not out.warnings


def test_two_ports_per_gpu_double_the_leaves() -> None:
    one = fabric(FabricInput(nodes=16), CATALOG)
    two = fabric(FabricInput(nodes=16, ports_per_gpu=2), CATALOG)
    assert (one.leaf_switches, one.spine_switches) == (4, 2)
    assert (two.leaf_switches, two.spine_switches) == (8, 4)


def test_oversubscription_gives_more_ports_down() -> None:
    out = fabric(FabricInput(nodes=16, oversubscription=3), CATALOG)
    assert out.leaf_switches == 3  # 48 down, 16 up per leaf: ceil(128 / 48)
    assert out.spine_switches == 1


def test_a_small_fabric_is_one_switch_and_too_large_a_one_warns() -> None:
    assert fabric(FabricInput(nodes=2), CATALOG).switches == 1
    assert fabric(FabricInput(endpoints=70_000, switch_ports=64), CATALOG).warnings


def test_bad_input_names_the_field() -> None:
    with pytest.raises(CalculatorInputError, match="nodes"):
        fabric(FabricInput(), CATALOG)
    with pytest.raises(ValidationError):
        FabricInput(nodes=4, switch_ports=4)


@given(ports=st.integers(1, 60_000), k=st.sampled_from([32, 40, 64, 128]))
def test_every_port_has_a_leaf_and_the_fabric_is_non_blocking(ports: int, k: int) -> None:
    out = fabric(FabricInput(endpoints=ports, switch_ports=k), CATALOG)
    if out.tiers == 1:
        assert ports <= k  # one switch takes every port on its own: nothing goes up, so nothing is blocked
    else:
        assert out.leaf_switches * (k // 2) >= ports
    if out.tiers >= 2:
        assert out.spine_switches * k >= out.leaf_switches * (k // 2)


def test_ports_that_fit_one_switch_need_one_switch() -> None:
    """128 GPU ports on a 128 x 400GbE switch (NVIDIA Spectrum-4 SN5600 run as 128 x 400G): one switch, no spine;
    a 64-port switch for 64 ports likewise; 65 ports need two tiers (3 leaves of 32 down + 2 spines)."""
    assert fabric(FabricInput(endpoints=128, switch_ports=128), CATALOG).switches == 1
    assert fabric(FabricInput(endpoints=64, switch_ports=64), CATALOG).switches == 1
    two = fabric(FabricInput(endpoints=65, switch_ports=64), CATALOG)
    assert (two.tiers, two.leaf_switches, two.spine_switches) == (2, 3, 2)


def test_the_same_fabric_counted_at_a_second_radix() -> None:
    """256 GPU ports non-blocking: 64-port NDR (QM9700) leaves give 32 down, so 8 leaves + 4 spines = 12; 128 x 400GbE
    Ethernet (Spectrum-4 SN5600 split ports) leaves give 64 down: 4 leaves + 2 spines = 6."""
    out = fabric(FabricInput(nodes=32, compare_switch_ports=128), CATALOG)
    assert out.switches == 12
    assert out.compared is not None
    assert out.compared["switches"] == 6
    assert out.compared["leaf_switches"] == 4
