"""The one list of calculators: name, description (the function's docstring), input and output models.

``/v1/tools``, the LangChain adapter and the assistant's router all read this registry, so a
calculator added here is available everywhere.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from knowledge.catalog import Catalog
from tools.cluster_plan import cluster_plan
from tools.common import CalculatorInputError, ToolInput, ToolOutput
from tools.compute import gpus_for_deadline, throughput_calibration, training_compute
from tools.compute_optimal import compute_optimal
from tools.cost import budget_fit, cloud_cost, power_cost, quote, tco
from tools.data_volume import data_volume
from tools.deepspeed_estimate import deepspeed_estimate
from tools.driver_check import driver_check
from tools.fabric import fabric
from tools.gpu_compare import gpu_compare
from tools.gpu_memory import training_memory
from tools.gpu_spec import gpu_spec
from tools.host_ram import host_ram
from tools.inference_memory import inference_memory
from tools.model_capacity import model_capacity
from tools.network import network
from tools.rack import rack_fit
from tools.run_time import run_time
from tools.scaling import scaling
from tools.serving import serving_capacity, serving_cost
from tools.serving_estimate import serving_estimate
from tools.storage import storage


@dataclass(frozen=True)
class Tool:
    name: str
    fn: Callable[[Any, Catalog], ToolOutput]
    input_model: type[ToolInput]
    output_model: type[ToolOutput]

    @property
    def description(self) -> str:
        return inspect.cleandoc(self.fn.__doc__ or self.name)

    @property
    def summary(self) -> str:
        return self.description.split("\n\n", 1)[0].replace("\n", " ")


class FieldProblem(BaseModel):
    field: str
    message: str


class ToolInputError(ValueError):
    """Input a calculator cannot use; ``problems`` name each field and say why."""

    def __init__(self, tool: str, problems: list[FieldProblem], suggestions: list[str] | None = None) -> None:
        super().__init__(f"{tool}: " + "; ".join(f"{p.field}: {p.message}" for p in problems))
        self.tool = tool
        self.problems = problems
        self.suggestions = suggestions or []


class UnknownToolError(LookupError):
    def __init__(self, name: str) -> None:
        close = difflib.get_close_matches(name, list(TOOLS), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; available: {', '.join(TOOLS)}"
        super().__init__(f"unknown calculator {name!r}{hint}")


class ToolResult(BaseModel):
    name: str
    input: dict[str, Any]
    output: dict[str, Any]


def _tool(fn: Callable[..., ToolOutput]) -> Tool:
    hints = inspect.get_annotations(fn, eval_str=True)
    return Tool(name=fn.__name__, fn=fn, input_model=hints["inp"], output_model=hints["return"])


# the order is the order /v1/tools lists them in
CALCULATORS: tuple[Callable[..., ToolOutput], ...] = (
    training_memory,
    deepspeed_estimate,
    training_compute,
    gpus_for_deadline,
    throughput_calibration,
    scaling,
    run_time,
    compute_optimal,
    cluster_plan,
    storage,
    data_volume,
    host_ram,
    network,
    fabric,
    power_cost,
    rack_fit,
    cloud_cost,
    tco,
    quote,
    budget_fit,
    inference_memory,
    model_capacity,
    serving_cost,
    serving_capacity,
    serving_estimate,
    gpu_compare,
    gpu_spec,
    driver_check,
)
TOOLS: dict[str, Tool] = {tool.name: tool for tool in map(_tool, CALCULATORS)}


def get_tool(name: str) -> Tool:
    try:
        return TOOLS[name]
    except KeyError:
        raise UnknownToolError(name) from None


def validate_input(name: str, payload: dict[str, Any]) -> ToolInput:
    """The validated input model, or ``ToolInputError`` naming every bad field."""
    tool = get_tool(name)
    try:
        return tool.input_model.model_validate(payload)
    except ValidationError as exc:
        problems = [
            FieldProblem(
                field=".".join(map(str, e["loc"])) or "input", message=e["msg"].removeprefix("Value error, ")
            )
            for e in exc.errors()
        ]
        raise ToolInputError(name, problems) from exc


def run(name: str, payload: dict[str, Any] | ToolInput, catalog: Catalog) -> ToolResult:
    """Validate ``payload``, run the calculator and return its input and output as plain data."""
    tool = get_tool(name)
    inp = payload if isinstance(payload, ToolInput) else validate_input(name, payload)
    try:
        output = tool.fn(inp, catalog)
    except CalculatorInputError as exc:
        raise ToolInputError(
            name, [FieldProblem(field=exc.field, message=exc.message)], exc.suggestions
        ) from exc
    return ToolResult(
        name=name,
        input=inp.model_dump(mode="json", exclude_none=True),
        output=output.model_dump(mode="json"),
    )


def describe_tools() -> list[dict[str, Any]]:
    """Name, description and JSON schemas of every calculator (for /v1/tools and LLM tool calling)."""
    return [
        {
            "name": tool.name,
            "description": tool.description,
            "input_schema": tool.input_model.model_json_schema(),
            "output_schema": tool.output_model.model_json_schema(),
        }
        for tool in TOOLS.values()
    ]
