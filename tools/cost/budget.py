"""What a budget buys: whole servers of each card at the catalog's or the user's price, with the rest kept."""

from __future__ import annotations

import math

from pydantic import Field

from knowledge.catalog import Catalog
from tools.common import (
    CalculatorInputError,
    ToolInput,
    ToolOutput,
)
from tools.cost.shared import Money, MoneyFields, _fx, _hardware, _Notes
from tools.cost.tco import PurchasePrice, TcoInput, _capex
from tools.messages import Message

_NO_SOURCED_PRICE = Message(
    "budget.no_sourced_price",
    en="the catalog has no sourced purchase price for {gpu} to compare a quote of {budget} {currency} with",
    zh="目录中没有 {gpu} 有出处的采购价格，无法判断 {budget} {currency:currency}的报价是否合理",
)
_NO_PRICE = Message(
    "budget.no_purchase_price",
    en="the catalog has no purchase price for {gpu}; give the price of one server",
    zh="目录中没有 {gpu} 的采购价格；请告诉我一台服务器的价格（例如“每台 220 万元”），我来算能买几台",
)
_NAME_GPU = Message(
    "budget.name_gpu",
    en="name a catalog GPU or server, or give capex_per_server",
    zh="请给出目录中的 GPU 或服务器型号，或每台服务器的价格（capex_per_server）",
)
_PER_SERVER_GIVEN = Message(
    "budget.per_server_given",
    en="{price} {currency} per server (given)",
    zh="每台服务器 {price} {currency:currency}（用户给定）",
)
_RENT_OVER_MONTHS = Message(
    "budget.rent_over_months",
    en="renting: {price} {currency} per server for the {months} months (the rent you gave over the whole period)",
    zh="租用：每台服务器 {months} 个月共 {price} {currency:currency}（按你给的租金算满整个租期）",
)
_FABRIC_SHARE = Message(
    "budget.fabric_share",
    en="network and storage {share} of server capex for a cluster (a planning share, not a quote); a single "
    "server needs none",
    zh="集群网络和存储按服务器购置成本的 {share} 计（规划比例，不是报价）；单台服务器不需要",
)
_SET_ASIDE = Message(
    "budget.set_aside",
    en="{amount} {currency} taken from the budget first for what is bought once (your figure for storage or "
    "the core network); the servers are bought with the rest",
    zh="先从预算中扣除 {amount} {currency:currency}（你给的存储或核心网络等一次性支出），其余用来买服务器",
)
_SET_ASIDE_ALL = Message(
    "budget.set_aside_all",
    en="{amount} set aside leaves nothing of the budget of {budget} for servers",
    zh="扣除 {amount} 后，{budget} 的预算已不剩买服务器的钱",
)
_BELOW_ONE_SERVER = Message(
    "budget.below_one_server",
    en="the budget is below one server ({usd} USD): consider fewer GPUs per server, a cheaper card or renting",
    zh="预算不够买一台服务器（约 {usd} 美元）：可考虑每台少配几张卡、换更便宜的卡，或租用",
)

# --- what a budget buys -----------------------------------------------------------------------------


class BudgetFitInput(ToolInput, MoneyFields):
    """Inputs of the budget calculator: the money, the server, and how it is priced."""

    budget: float = Field(gt=0, le=1e12, description="Money to spend on hardware, in `currency`.")
    gpu: str | None = Field(
        default=None, description="Catalog GPU of the servers, e.g. 'H100' (or give a server)."
    )
    server: str | None = Field(default=None, description="Catalog reference server, e.g. 'dgx-h100'.")
    gpus_per_server: int = Field(
        default=8, ge=1, le=72, description="GPUs per server when no server is named."
    )
    capex_per_server: float | None = Field(
        default=None,
        gt=0,
        le=1e9,
        description="Your price per server in `currency` (CPUs, RAM, NICs included).",
    )
    capex_per_gpu: float | None = Field(
        default=None, gt=0, le=1e8, description="Your price per GPU in `currency`."
    )
    platform_share: float = Field(
        default=0.25, ge=0, le=2, description="CPUs, RAM, NICs and chassis as a share of GPU capex."
    )
    network_storage_share: float = Field(
        default=0.15, ge=0, le=2, description="Cluster network and storage as a share of server capex."
    )
    quote: bool = Field(
        default=False,
        description="The budget is a quote for one server, to compare with the catalog's price.",
    )
    share_assumed: bool = Field(
        default=False,
        description="network_storage_share is a planning default for a budget that must cover the fabric, not "
        "a share the user set: the answer then says what each count leaves for network and storage.",
    )
    set_aside: float = Field(
        default=0,
        ge=0,
        le=1e12,
        description="Money taken from the budget first, in `currency`, for what is bought once whatever the "
        "count (shared storage, a core network): 'storage 2M in all'. The servers are bought with the rest.",
    )
    rent_months: float | None = Field(
        default=None,
        gt=0,
        le=240,
        description="The budget pays rent for this many months: capex_per_server is then one server's rent over "
        "them, and the count is the servers the money rents for the whole period.",
    )


class BudgetFitOutput(ToolOutput):
    gpu: str
    servers: int = Field(description="Whole servers the budget buys, servers alone.")
    gpus: int
    servers_with_fabric: int = Field(
        description="Servers it buys keeping the network-and-storage share for a cluster (one server needs none)."
    )
    budget: Money = Field(description="The budget itself in both currencies, at the exchange rate used.")
    set_aside: Money | None = Field(
        default=None, description="Taken from the budget first (set_aside); spent and left are of the rest."
    )
    server_price: Money = Field(description="One server's hardware.")
    per_server_all_in: Money = Field(description="One server plus its share of network and storage.")
    spent: Money
    left: Money
    purchase_price: PurchasePrice | None
    fabric_share_assumed: bool = Field(
        default=False, description="The network and storage share was a planning default (share_assumed)."
    )
    fabric_share_given: bool = Field(
        default=False, description="Whether the network-and-storage share was given rather than assumed."
    )
    memory_bandwidth_tb_s: float | None = Field(
        default=None,
        description="HBM bandwidth of the GPUs bought (servers alone), TB/s, when the card is known.",
    )
    memory_tb: float | None = Field(
        default=None, description="GPU memory of the GPUs bought (servers alone), TB, when the card is known."
    )
    dense_bf16_pflops: float | None = Field(
        default=None,
        description="Dense BF16 PFLOPS of the GPUs bought (servers alone), when the card is known.",
    )


def budget_fit(inp: BudgetFitInput, catalog: Catalog) -> BudgetFitOutput:
    """How many servers (and GPUs) a hardware budget buys: one server's price (yours, the catalog's server
    price, or GPUs x catalog price plus the platform share) plus the network-and-storage share, in USD and
    CNY; a single server needs no cluster fabric."""
    notes = _Notes()
    fx = _fx(inp, catalog, notes)
    one = TcoInput(
        gpu=inp.gpu,
        server=inp.server,
        gpus=None if inp.server else inp.gpus_per_server,
        capex_per_server=inp.capex_per_server,
        capex_per_gpu=inp.capex_per_gpu,
        platform_share=inp.platform_share,
        network_storage_share=0.0,
        currency=inp.currency,
        usd_to_cny=inp.usd_to_cny,
    )
    price: PurchasePrice | None = None
    if inp.gpu or inp.server:
        hw = _hardware(one, catalog, notes)
        priced = inp.capex_per_server or inp.capex_per_gpu
        if not (priced or catalog.prices_for(hw.acc.id) or (hw.server and catalog.prices_for(hw.server.id))):
            if inp.quote:  # "is 1.5M a fair price for an 8x 910B server?": nothing sourced to compare with
                raise CalculatorInputError(
                    "budget",
                    _NO_SOURCED_PRICE(gpu=hw.acc.name, budget=f"{inp.budget:,.0f}", currency=inp.currency),
                )
            raise CalculatorInputError("capex_per_server", _NO_PRICE(gpu=hw.acc.name))
        server_usd, _, price = _capex(one, hw, catalog, fx, notes)
        notes.assumptions = [
            a for a in notes.assumptions if "network and storage 0%" not in a and "1 servers x" not in a
        ]
        gpu_name, per_server = hw.acc.name, hw.installed_gpus
        card_tflops = hw.acc.bf16_dense_tflops
        card_gb_s: float | None = hw.acc.memory_bandwidth_gb_s
        card_gb: float | None = hw.acc.memory_gb
    elif inp.capex_per_server is not None:
        # a card the catalog does not hold, priced by the user per server
        server_usd, gpu_name, per_server = fx.to_usd(inp.capex_per_server), "GPU", inp.gpus_per_server
    else:
        raise CalculatorInputError("gpu", _NAME_GPU())
    if inp.capex_per_server is not None and inp.rent_months:
        notes.assumptions.append(
            _RENT_OVER_MONTHS(
                price=f"{inp.capex_per_server:,.0f}", currency=inp.currency, months=f"{inp.rent_months:g}"
            )
        )
    elif inp.capex_per_server is not None:
        notes.assumptions.append(
            _PER_SERVER_GIVEN(price=f"{inp.capex_per_server:,.0f}", currency=inp.currency)
        )
    if not (inp.gpu or inp.server):
        card_tflops = card_gb_s = card_gb = None
    if inp.set_aside >= inp.budget:
        raise CalculatorInputError(
            "set_aside", _SET_ASIDE_ALL(amount=f"{inp.set_aside:,.0f}", budget=f"{inp.budget:,.0f}")
        )
    if inp.set_aside:
        notes.assumptions.append(_SET_ASIDE(amount=f"{inp.set_aside:,.0f}", currency=inp.currency))
    all_in = server_usd * (1 + inp.network_storage_share)
    budget = fx.to_usd(inp.budget - inp.set_aside)
    servers = math.floor(budget / server_usd + 1e-9)
    with_fabric = math.floor(budget / all_in + 1e-9)
    if with_fabric < 2:
        with_fabric = min(servers, 1)  # one box: no cluster network or shared storage to buy
    spent = servers * server_usd
    notes.assumptions.append(_FABRIC_SHARE(share=f"{inp.network_storage_share:.0%}"))
    if servers == 0:
        notes.warnings.append(_BELOW_ONE_SERVER(usd=f"{fx.money(server_usd).usd:,.0f}"))
    return BudgetFitOutput(
        formula="servers = floor(budget / server price); with the fabric = floor(budget / (server price x "
        "(1 + network and storage share))), at least one server when one is affordable",
        assumptions=notes.assumptions,
        warnings=notes.warnings,
        sources=notes.sources,
        gpu=gpu_name,
        servers=servers,
        gpus=servers * per_server,
        servers_with_fabric=with_fabric,
        budget=fx.money(fx.to_usd(inp.budget)),
        set_aside=fx.money(fx.to_usd(inp.set_aside)) if inp.set_aside else None,
        server_price=fx.money(server_usd),
        per_server_all_in=fx.money(all_in),
        spent=fx.money(spent),
        left=fx.money(budget - spent),
        purchase_price=price,
        fabric_share_given="network_storage_share" in inp.model_fields_set,
        fabric_share_assumed=inp.share_assumed,
        dense_bf16_pflops=None if not card_tflops else round(servers * per_server * card_tflops / 1000, 3),
        memory_bandwidth_tb_s=None if not card_gb_s else round(servers * per_server * card_gb_s / 1000, 3),
        memory_tb=None if not card_gb else round(servers * per_server * card_gb / 1000, 3),
    )
