"""Cost calculators: electricity for a GPU fleet, cloud GPU-hours, buy vs lease vs cloud over years, and what a
budget buys.

Prices, exchange rate, PUE, maintenance and server overhead come from the catalog by id, each with its
as-of date; any value the user gives replaces the catalog's. Money the user gives is in ``currency``
(USD or CNY); every money output is shown in both. One module per calculator; what they share is in
``shared``.
"""

from __future__ import annotations

from tools.cost.budget import BudgetFitInput, BudgetFitOutput, budget_fit
from tools.cost.cloud import CloudCostInput, CloudCostOutput, CloudPriceRow, cheapest_on_demand, cloud_cost
from tools.cost.power import PowerCostInput, PowerCostOutput, power_cost
from tools.cost.quote import QuoteInput, QuoteOutput, quote
from tools.cost.shared import (
    CONTINUOUS_LOAD_SHARE,
    DEEPSEEK_V3,
    MONTHS_PER_YEAR,
    NEC_CONTINUOUS,
    Cooling,
    CostItem,
    Currency,
    Money,
    MoneyFields,
    Option,
    PowerDraw,
    PowerFields,
)
from tools.cost.tco import OptionAmounts, PurchasePrice, TcoInput, TcoOutput, YearCashFlow, tco

__all__ = [
    "CONTINUOUS_LOAD_SHARE",
    "DEEPSEEK_V3",
    "MONTHS_PER_YEAR",
    "NEC_CONTINUOUS",
    "BudgetFitInput",
    "BudgetFitOutput",
    "CloudCostInput",
    "CloudCostOutput",
    "CloudPriceRow",
    "Cooling",
    "CostItem",
    "Currency",
    "Money",
    "MoneyFields",
    "Option",
    "OptionAmounts",
    "PowerCostInput",
    "PowerCostOutput",
    "PowerDraw",
    "PowerFields",
    "PurchasePrice",
    "QuoteInput",
    "QuoteOutput",
    "TcoInput",
    "TcoOutput",
    "YearCashFlow",
    "budget_fit",
    "cheapest_on_demand",
    "cloud_cost",
    "power_cost",
    "quote",
    "tco",
]
