"""Rack fit: servers under a rack's power budget, and racks for a fleet.

Published figures used (source named at each case):
- NVIDIA DGX H100 user guide: about 10.2 kW maximum system power; DGX B200 user guide: 14.3 kW maximum.
- The knowledge base's power-and-cooling guide (same sources): four DGX H100 in one rack draw about 41 kW,
  four DGX B200 about 57 kW, so 40 kW holds three DGX H100 and 60 kW holds four DGX B200.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.common import CalculatorInputError
from tools.rack import RackFitInput, rack_fit

CATALOG = default_catalog()


def test_a_40_kw_rack_holds_three_dgx_h100() -> None:
    """DGX H100 user guide, 10.2 kW: 4 x 10.2 = 40.8 kW is over 40, 3 x 10.2 = 30.6 kW is under."""
    out = rack_fit(RackFitInput(rack_kw=40, server="DGX H100"), CATALOG)
    assert (out.server_kw, out.servers_per_rack, out.gpus_per_rack) == (10.2, 3, 24)
    assert out.rack_load_kw == pytest.approx(30.6)
    assert out.spare_kw == pytest.approx(9.4)
    assert out.sources, "the server's kW carries its source"


def test_a_60_kw_rack_holds_four_dgx_b200() -> None:
    """DGX B200 user guide, 14.3 kW: 4 x 14.3 = 57.2 kW."""
    out = rack_fit(RackFitInput(rack_kw=60, server="dgx-b200"), CATALOG)
    assert (out.servers_per_rack, out.rack_load_kw) == (4, pytest.approx(57.2))


def test_racks_for_a_fleet_round_up() -> None:
    out = rack_fit(RackFitInput(rack_kw=40, server_power_kw=10.2, servers=32), CATALOG)
    assert (out.servers_per_rack, out.racks_needed, out.server_label) == (3, 11, "server")


def test_a_server_of_a_reference_systems_gpus_draws_like_it() -> None:
    """DGX A100 user guide: 6.5 kW maximum for 8 x 400 W A100 SXM4. An 8 x A800 SXM4 server (same 400 W
    part, NVLink capped) draws the same, so a 12 kW rack holds one, not the two that GPU TDP plus the
    Hopper-derived non-GPU share (5.8 kW) would suggest; four A100s draw half of it."""
    out = rack_fit(RackFitInput(rack_kw=12, gpu="A800", gpus_per_server=8), CATALOG)
    assert (out.server_kw, out.servers_per_rack) == (6.5, 1)
    assert any("DGX A100" in a for a in out.assumptions)
    half = rack_fit(RackFitInput(rack_kw=12, gpu="A100", gpus_per_server=4), CATALOG)
    assert half.server_kw == pytest.approx(3.25)


def test_a_generic_server_is_its_gpus_plus_the_catalogs_non_gpu_share() -> None:
    """No reference server holds the 350 W L40S: GPU TDP plus the catalog's non-GPU share."""
    share = CATALOG.defaults.server_overhead_share
    out = rack_fit(RackFitInput(rack_kw=20, gpu="L40S", gpus_per_server=8), CATALOG)
    assert out.server_kw == pytest.approx(8 * 0.35 * (1 + share), abs=1e-3)
    assert out.servers_per_rack == int(20 // out.server_kw)


def test_the_racks_one_has_hold_racks_times_servers_per_rack() -> None:
    out = rack_fit(RackFitInput(rack_kw=20, server="DGX H100", racks=6), CATALOG)
    assert (out.servers_per_rack, out.servers_in_racks) == (1, 6)


def test_a_server_over_the_budget_fits_none_and_says_why() -> None:
    out = rack_fit(RackFitInput(rack_kw=8, server="DGX H100", servers=4), CATALOG)
    assert (out.servers_per_rack, out.racks_needed) == (0, None)
    assert any("more than the rack" in w for w in out.warnings)


def test_a_rack_scale_system_far_over_the_budget_is_not_offered_a_power_cap() -> None:
    """A GB200 NVL72 draws about 120 kW (NVIDIA GB200 NVL72 product page) against a 15 kW rack: 8x. Capping the
    GPUs cannot close that (it is a rack built for liquid cooling), so the warning says so; a DGX H100 at 10.2 kW
    against 8 kW is the case where a cap is a remedy."""
    far = rack_fit(RackFitInput(rack_kw=15, server="GB200 NVL72"), CATALOG)
    assert far.servers_per_rack == 0
    assert any("8x" in w and "no GPU power cap" in w for w in far.warnings), far.warnings
    near = rack_fit(RackFitInput(rack_kw=8, server="DGX H100"), CATALOG)
    assert any("lower power cap" in w for w in near.warnings), near.warnings


def test_bad_input_is_refused_with_the_field() -> None:
    with pytest.raises(CalculatorInputError, match="server_power_kw"):
        rack_fit(RackFitInput(rack_kw=40), CATALOG)
    with pytest.raises(ValidationError):
        RackFitInput(rack_kw=-1, server_power_kw=10)


@given(rack=st.floats(1, 200), server=st.floats(0.5, 50))
def test_a_full_rack_never_exceeds_its_budget_and_one_more_server_would(rack: float, server: float) -> None:
    out = rack_fit(RackFitInput(rack_kw=rack, server_power_kw=server), CATALOG)
    assert out.rack_load_kw <= rack + 5e-4  # rounded to watts
    assert (out.servers_per_rack + 1) * server > rack - 1e-6


def test_a_power_cap_on_the_gpus_lowers_the_server_by_what_the_gpus_give_up() -> None:
    """DGX B200 user guide: 14.3 kW for eight 1,000 W B200s. Capped at 700 W (nvidia-smi -pl), each GPU gives up
    300 W: 14.3 - 8 x 0.3 = 11.9 kW, so a 24 kW rack holds two instead of one."""
    uncapped = rack_fit(RackFitInput(rack_kw=24, server="DGX B200"), CATALOG)
    capped = rack_fit(RackFitInput(rack_kw=24, server="DGX B200", gpu_power_cap_w=700), CATALOG)
    assert (uncapped.server_kw, uncapped.servers_per_rack) == (14.3, 1)
    assert capped.server_kw == pytest.approx(11.9)
    assert capped.servers_per_rack == 2


def test_a_cap_above_the_tdp_changes_nothing() -> None:
    """A 1,200 W cap on a 1,000 W B200 is no cap: the server draws its 14.3 kW."""
    out = rack_fit(RackFitInput(rack_kw=24, server="DGX B200", gpu_power_cap_w=1200), CATALOG)
    assert out.server_kw == 14.3


@pytest.mark.parametrize(("gpu", "system"), [("GB200", "GB200 NVL72"), ("GB300", "GB300 NVL72")])
def test_a_part_sold_only_rack_scale_is_placed_as_its_system(gpu: str, system: str) -> None:
    """NVIDIA sells the GB200 and GB300 only in NVL72 racks (GB200 NVL72 product page: 72 GPUs, about 120 kW;
    GB300 NVL72 about 135 kW), so the card named alone is that system and a 15 kW rack holds none; an explicit
    count of GPUs per server is taken as given."""
    out = rack_fit(RackFitInput(rack_kw=15, gpu=gpu), CATALOG)
    assert system in out.server_label, out.server_label
    assert out.servers_per_rack == 0
    assert any(system in a and "rack-scale" in a for a in out.assumptions), out.assumptions
    given = rack_fit(RackFitInput(rack_kw=15, gpu=gpu, gpus_per_server=4), CATALOG)
    assert given.server_label.startswith("4 x "), given.server_label


def test_a_generic_server_holds_eight_gpus_unless_told_and_says_so() -> None:
    """An HGX baseboard holds eight GPUs: the default is stated, a given count is not restated."""
    out = rack_fit(RackFitInput(rack_kw=40, gpu="H100"), CATALOG)
    assert out.server_label.startswith("8 x ")
    assert "H100" in out.server_label
    assert "8 GPUs per server" in out.assumptions
    told = rack_fit(RackFitInput(rack_kw=40, gpu="H100", gpus_per_server=8), CATALOG)
    assert "8 GPUs per server" not in told.assumptions


@pytest.mark.parametrize(("gpu", "gpus", "servers", "racks"), [("H800", 256, 32, 11), ("GB200", 144, 2, 2)])
def test_gpus_to_place_become_the_servers_that_hold_them(
    gpu: str, gpus: int, servers: int, racks: int
) -> None:
    """256 H800 in 8-GPU servers (DGX H100 user guide, 10.2 kW; the H800 is the same 700 W SXM5 part) are 32
    servers, three to a 40 kW rack: 11 racks. 144 GB200 are two NVL72 systems (72 GPUs each, about 120 kW), one
    to a 132 kW rack."""
    rack_kw = 132 if gpu == "GB200" else 40
    out = rack_fit(RackFitInput(rack_kw=rack_kw, gpu=gpu, gpus=gpus), CATALOG)
    assert (out.servers, out.racks_needed) == (servers, racks), out
