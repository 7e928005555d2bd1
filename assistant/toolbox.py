"""From slots to calculator runs: each calculator module builds its input (saying which defaults it
assumed and which missing input would change the result most); the toolbox runs them and chains results.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from assistant.calculators import CALCULATORS
from assistant.calculators.common import Assumed, Plan, money_into
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog
from tools.registry import ToolInputError, run


class ToolRun(BaseModel):
    """What running the planned calculators produced."""

    calls: list[ToolCall] = Field(default_factory=list)
    assumed: list[Assumed] = Field(default_factory=list)
    ask: Assumed | None = None
    errors: list[str] = Field(default_factory=list, description="Calculator input problems, field by field.")


class ToolBox:
    """Plans and runs the calculators a route asks for, against one catalog."""

    def __init__(self, *, catalog: Catalog) -> None:
        self._catalog = catalog

    def run_for(self, tools: list[str], slots: Slots) -> ToolRun:
        result = ToolRun()
        for name in tools:
            # a training run's cloud bill is its GPU-hours; "N GPUs for D days" prices a reservation only
            # when no training run was worked out
            plan = self._cloud_after_compute(result, slots) if name == "cloud_cost" else None
            calculator = CALCULATORS.get(name)
            plan = plan or (calculator.build(slots, self._catalog) if calculator else None)
            if plan is None:
                continue
            try:
                done = run(plan.tool, plan.payload, self._catalog)
            except ToolInputError as exc:
                result.errors.extend(f"{p.field}: {p.message}" for p in exc.problems)
                continue
            result.calls.append(ToolCall(name=done.name, input=done.input, output=done.output))
            result.assumed.extend(a for a in plan.assumed if a not in result.assumed)
            result.ask = result.ask or plan.ask
        return result

    def _cloud_after_compute(self, result: ToolRun, slots: Slots) -> Plan | None:
        """Cloud cost of the GPU-hours the training calculation just produced."""
        compute = next((c for c in result.calls if c.name == "training_compute"), None)
        if compute is None:
            return None
        payload: dict[str, Any] = {
            "gpu": compute.input["gpu"],
            "gpu_hours": compute.output["gpu_hours"]["expected"],
        }
        money_into(slots, payload, self._catalog)
        if "cloud_price_per_gpu_hour" in payload:
            payload["price_per_gpu_hour"] = payload.pop("cloud_price_per_gpu_hour")
        payload.pop("electricity_price_per_kwh", None)
        return Plan(tool="cloud_cost", payload=payload)
