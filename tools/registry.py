"""The one list of calculators: name, description (the function's docstring), input and output models.

``/v1/tools``, the LangChain adapter and the assistant's router all read this registry, so a
calculator added here is available everywhere.
"""

from __future__ import annotations

import difflib
import inspect
import re
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
from tools.messages import Message, Note, Said
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
    note: Note | None = None  # the message's code and parameters, when it was written as one


# pydantic's own input errors, by their type: the numbers and choices come from the error's context
_PYDANTIC: dict[str, Message] = {
    "greater_than": Message("input.greater_than", en="Input should be greater than {gt}", zh="必须大于 {gt}"),
    "greater_than_equal": Message(
        "input.greater_than_equal",
        en="Input should be greater than or equal to {ge}",
        zh="必须大于或等于 {ge}",
    ),
    "less_than": Message("input.less_than", en="Input should be less than {lt}", zh="必须小于 {lt}"),
    "less_than_equal": Message(
        "input.less_than_equal", en="Input should be less than or equal to {le}", zh="必须小于或等于 {le}"
    ),
    "literal_error": Message(
        "input.literal_error", en="Input should be {expected:or}", zh="只能取以下值之一：{expected:or}"
    ),
    "missing": Message("input.missing", en="Field required", zh="缺少这一项"),
    "extra_forbidden": Message(
        "input.extra_forbidden", en="Extra inputs are not permitted", zh="不接受这个输入项"
    ),
    "int_parsing": Message(
        "input.int_parsing",
        en="Input should be a valid integer, unable to parse string as an integer",
        zh="必须是整数",
    ),
    "int_from_float": Message(
        "input.int_from_float",
        en="Input should be a valid integer, got a number with a fractional part",
        zh="必须是整数，不能带小数",
    ),
    "float_parsing": Message(
        "input.float_parsing",
        en="Input should be a valid number, unable to parse string as a number",
        zh="必须是数字",
    ),
}


def _note(error: Any) -> Note | None:
    """The code and parameters of one pydantic error: a `Said` a validator raised, or pydantic's own type."""
    context = error.get("ctx") or {}
    raised = context.get("error")
    if isinstance(raised, ValueError) and raised.args and isinstance(raised.args[0], Said):
        return raised.args[0].note()
    message = _PYDANTIC.get(error["type"])
    if message is None:
        return None
    params: dict[str, Any] = {k: _shown(v) for k, v in context.items()}
    if error["type"] == "literal_error":
        # "'adamw', 'sgd' or 'adafactor'": the choices as a list, joined in the reader's language
        params["expected"] = re.split(r", | or ", params["expected"])
    return Note(text=error["msg"], code=message.code, params=params)


def _shown(value: Any) -> str:
    """A bound as pydantic's message prints it: ``0`` for 0.0, ``0.5`` as it is."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


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
                field=".".join(map(str, e["loc"])) or "input",
                message=e["msg"].removeprefix("Value error, "),
                note=_note(e),
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
            name,
            [
                FieldProblem(
                    field=exc.field,
                    message=exc.message,
                    note=exc.message.note() if isinstance(exc.message, Said) else None,
                )
            ],
            exc.suggestions,
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
