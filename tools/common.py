"""What every calculator shares: base models, units, errors and catalog lookups.

Conventions (see ../shared/DOMAIN-PITFALLS.md):
- ``_gb`` is 10^9 bytes and ``_gib`` is 2^30 bytes; both are named, never mixed.
- TFLOPS are dense (no 2:4 sparsity) and taken from the catalog unless the user gives a value.
- Link bandwidth ``_gb_s`` is GB/s in one direction; ``_gbit_s`` is Gb/s.
- Every output lists the assumptions it used, the formula and its sources, so a reader can redo it.
"""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, WrapValidator, computed_field

from knowledge.catalog import Accelerator, Catalog, Server, UnknownItemError
from tools.messages import Message, Note, Said, notes_of

GB = 1e9
GIB = 2**30
SECONDS_PER_DAY = 86_400.0
HOURS_PER_YEAR = 8_760.0
# GPUs in a generic training server when none are given: HGX and OAM baseboards hold eight
GPUS_PER_SERVER = 8

PositiveFloat = Annotated[float, Field(gt=0)]
Share = Annotated[float, Field(gt=0, le=1)]


class Reference(BaseModel):
    """A published source for a formula or a constant."""

    model_config = ConfigDict(frozen=True)

    title: str
    url: str


class ToolInput(BaseModel):
    """Base of every calculator input: unknown fields are an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


# a sentence an output carries: a `Said` stays one through validation, so its code and parameters survive
Sentence = Annotated[
    str, WrapValidator(lambda value, handler: value if isinstance(value, Said) else handler(value))
]


class ToolOutput(BaseModel):
    """Base of every calculator output: the reasoning travels with the numbers."""

    formula: str = Field(description="The formula used, in words and symbols.")
    assumptions: list[Sentence] = Field(
        default_factory=list, description="Every default or simplification used."
    )
    warnings: list[Sentence] = Field(
        default_factory=list, description="Results near a boundary, odd inputs, caveats."
    )
    sources: list[Reference] = Field(
        default_factory=list, description="Where the formula and constants come from."
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="Each assumption and warning written as a message: its code and parameters, so an "
        "answer can show the same sentence, with the same numbers, in another language."
    )
    @property
    def messages(self) -> list[Note]:
        return notes_of([*self.assumptions, *self.warnings])


class CalculatorInputError(ValueError):
    """Input that validates field by field but cannot be computed; names the field and says why."""

    def __init__(self, field: str, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message  # a `Said` when written as a message, so it reads in another language
        self.suggestions = suggestions or []


_DID_YOU_MEAN = Message(
    "common.did_you_mean", en="; did you mean {names:comma}?", zh="；你是不是指 {names:comma}？"
)
_UNKNOWN_ACCELERATOR = Message(
    "common.unknown_accelerator",
    en="unknown accelerator {name}{hint}",
    zh="目录中没有名为 {name} 的加速卡{hint}",
)
_UNKNOWN_SERVER = Message(
    "common.unknown_server",
    en="unknown server {name}{hint} (catalog servers: {servers:comma})",
    zh="目录中没有名为 {name} 的参考服务器{hint}（目录中的服务器：{servers:comma}）",
)
_NO_DENSE_FIGURE = Message(
    "common.no_dense_figure",
    en="{gpu} has no dense {precision} figure in the catalog",
    zh="目录中没有 {gpu} 的稠密 {precision} 算力数据",
)


def did_you_mean(suggestions: list[str]) -> str:
    """``; did you mean a, b?`` after an unknown name, or nothing when there is no close name."""
    return _DID_YOU_MEAN(names=suggestions) if suggestions else ""


def find_accelerator(catalog: Catalog, name: str, *, field: str = "gpu") -> Accelerator:
    """The catalog accelerator for ``name``, or an input error listing the closest names."""
    try:
        return catalog.accelerator(name)
    except UnknownItemError as exc:
        raise CalculatorInputError(
            field, _UNKNOWN_ACCELERATOR(name=repr(name), hint=did_you_mean(exc.suggestions)), exc.suggestions
        ) from exc


def find_server(catalog: Catalog, name: str, *, field: str = "server") -> Server:
    """The catalog reference server for ``name``, or an input error listing the closest names."""
    try:
        return catalog.server(name)
    except UnknownItemError as exc:
        known = [s.id for s in catalog.servers]
        message = _UNKNOWN_SERVER(name=repr(name), hint=did_you_mean(exc.suggestions), servers=known)
        raise CalculatorInputError(field, message, exc.suggestions) from exc


def peak_tflops(acc: Accelerator, precision: str, *, field: str = "precision") -> float:
    """Dense peak TFLOP/s of ``acc`` for a compute precision ('bf16', 'fp16', 'fp8', 'tf32', 'fp32')."""
    value = {
        "bf16": acc.bf16_dense_tflops,
        "fp16": acc.fp16_dense_tflops or acc.bf16_dense_tflops,
        "fp8": acc.fp8_dense_tflops,
        "tf32": acc.tf32_dense_tflops,
        "fp32": acc.fp32_tflops,
    }.get(precision)
    if value is None:
        raise CalculatorInputError(field, _NO_DENSE_FIGURE(gpu=acc.name, precision=precision.upper()))
    return value


def desk_side_kw(gpu_kw: float, catalog: Catalog) -> float:
    """IT power of a box of consumer or workstation cards: the cards, a host (CPU, memory, drives, fans) and a
    power supply's losses (catalog defaults), not a DGX's NVSwitch-and-all overhead."""
    defaults = catalog.defaults
    return (gpu_kw + defaults.workstation_host_kw) / defaults.workstation_psu_efficiency


def round_sig(value: float, digits: int = 4) -> float:
    """Round to significant digits for display without losing magnitude."""
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, digits - 1 - math.floor(math.log10(abs(value))))
