"""Electricity for a GPU fleet: power at the wall and the bill for a period, at the catalog's or the user's tariff."""

from __future__ import annotations

from pydantic import Field

from knowledge.catalog import Catalog
from tools.common import (
    HOURS_PER_YEAR,
    ToolInput,
    ToolOutput,
    round_sig,
)
from tools.cost.shared import (
    CONTINUOUS_LOAD_SHARE,
    NEC_CONTINUOUS,
    Money,
    MoneyFields,
    PowerDraw,
    PowerFields,
    _fx,
    _hardware,
    _Notes,
    _power,
)
from tools.messages import Message

_COMPARE_PUE = Message(
    "power.compare_pue",
    en="PUE {other} instead of {pue}: the same {kw} kW of IT load and hours",
    zh="PUE 改为 {other}（原为 {pue}）：IT 负载同为 {kw} kW，运行时长不变",
)
_CIRCUIT = Message(
    "power.circuit",
    en="a {amps} A circuit at {volts} V carries {kw} kW continuously ({share} of its {rating} kW rating)",
    zh="{volts} V、{amps} A 的线路可持续承载 {kw} kW（额定 {rating} kW 的 {share}）",
)


class PowerCostInput(ToolInput, PowerFields, MoneyFields):
    """Inputs of the power-cost calculator: GPUs or a reference server, cooling, utilisation, tariff."""

    years: float | None = Field(
        default=None, gt=0, le=30, description="Years to total the bill over (the yearly cost times years)."
    )
    circuit_amps: float | None = Field(
        default=None, gt=0, le=400, description="Breaker rating of the circuit the machine plugs into, amps."
    )
    circuit_volts: float = Field(
        default=120,
        ge=100,
        le=480,
        description="Circuit voltage (120 in a US office, 220-230 in China and Europe).",
    )
    compare_pue: float | None = Field(
        default=None,
        ge=1,
        le=3,
        description="A second facility's PUE: the same load's yearly bill there, and the difference.",
    )


class PowerCostOutput(ToolOutput, PowerDraw):
    """Power at the wall, energy per year and its cost in USD and CNY."""

    compare_pue: float | None = Field(default=None, description="The second facility's PUE, when given.")
    compare_yearly_energy_cost: Money | None = Field(
        default=None, description="The yearly bill at compare_pue, the same IT load and hours."
    )
    yearly_difference: Money | None = Field(
        default=None,
        description="Bill at compare_pue minus the bill at pue (negative: compare_pue is cheaper).",
    )

    cost_over_years: Money | None = Field(default=None, description="The yearly cost x years, when given.")
    heat_btu_per_hour: float = Field(
        description="Heat the IT load gives off, which the cooling must remove: IT kW x 3,412.14 BTU/h per kW."
    )
    cooling_tons: float = Field(
        description="That heat in refrigeration tons (12,000 BTU/h = 3.5169 kW each): the cooling plant's size."
    )
    circuit_kw: float | None = Field(
        default=None,
        description="What the circuit carries continuously: volts x amps x 80% (NEC 210.19/210.20), kW.",
    )
    fits_circuit: bool | None = Field(
        default=None, description="Whether the IT load stays within the circuit's continuous rating."
    )


BTU_PER_HOUR_PER_KW = 3412.14
BTU_PER_HOUR_PER_TON = 12_000.0


def power_cost(inp: PowerCostInput, catalog: Catalog) -> PowerCostOutput:
    """Estimate the power draw and yearly electricity cost of N GPUs, in kW, MWh and USD/CNY.

    IT load is N x the GPU's TDP plus a non-GPU server overhead share (CPUs, fans, NICs; default from
    the catalog), or, when a reference server such as 'dgx-h100' is given, whole servers x the server's
    maximum power. Wall power = IT load x PUE (air or liquid cooling default, or a given PUE). Energy per
    year = wall kW x 8,760 h x utilisation; cost = energy x electricity price (catalog default or a given
    price in USD or CNY per kWh). Catalog figures carry their as-of dates.
    """
    notes = _Notes()
    fx = _fx(inp, catalog, notes)
    hw = _hardware(inp, catalog, notes)
    power = _power(inp, hw, catalog, fx, notes)
    draw = power.summary(fx)
    it = "servers x server max kW" if hw.server else "GPUs x TDP_W / 1000 x (1 + server overhead share)"
    yearly = draw.yearly_energy_cost
    over = (
        Money(usd=round(yearly.usd * inp.years, 2), cny=round(yearly.cny * inp.years, 2))
        if inp.years
        else None
    )
    compare = difference = None
    if inp.compare_pue is not None:
        # the same IT load and hours behind a second facility's PUE
        other = _power(inp.model_copy(update={"pue": inp.compare_pue}), hw, catalog, fx, _Notes()).summary(fx)
        compare = other.yearly_energy_cost
        difference = Money(usd=round(compare.usd - yearly.usd, 2), cny=round(compare.cny - yearly.cny, 2))
        notes.assumptions.append(
            _COMPARE_PUE(other=f"{inp.compare_pue:g}", pue=f"{draw.pue:g}", kw=f"{draw.it_power_kw:g}")
        )
    circuit = fits = None
    if inp.circuit_amps:
        # a breaker carries 80% of its rating for loads running three hours or more (NEC 210.19(A)(1), 210.20(A))
        circuit = round(inp.circuit_volts * inp.circuit_amps * CONTINUOUS_LOAD_SHARE / 1000, 3)
        fits = draw.it_power_kw <= circuit
        notes.assumptions.append(
            _CIRCUIT(
                amps=f"{inp.circuit_amps:g}",
                volts=f"{inp.circuit_volts:g}",
                kw=f"{circuit:g}",
                share=f"{CONTINUOUS_LOAD_SHARE:.0%}",
                rating=f"{inp.circuit_volts * inp.circuit_amps / 1000:g}",
            )
        )
        notes.sources.append(NEC_CONTINUOUS)
    return PowerCostOutput(
        formula=(
            f"IT kW = {it}; wall kW = IT kW x PUE; MWh/year = wall kW x {HOURS_PER_YEAR:g} h x utilisation / 1000; "
            "cost/year = MWh/year x 1000 x price per kWh; CNY = USD x usd_to_cny"
        ),
        assumptions=notes.assumptions,
        warnings=notes.warnings,
        sources=notes.sources,
        cost_over_years=over,
        compare_pue=inp.compare_pue,
        compare_yearly_energy_cost=compare,
        yearly_difference=difference,
        circuit_kw=circuit,
        fits_circuit=fits,
        # every watt the equipment draws ends as heat in the room (ASHRAE; 1 W = 3.41214 BTU/h, 1 ton of
        # refrigeration = 12,000 BTU/h)
        heat_btu_per_hour=round_sig(draw.it_power_kw * BTU_PER_HOUR_PER_KW),
        cooling_tons=round_sig(draw.it_power_kw * BTU_PER_HOUR_PER_KW / BTU_PER_HOUR_PER_TON),
        **dict(draw),
    )
