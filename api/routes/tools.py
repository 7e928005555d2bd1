"""``GET /v1/tools`` and ``POST /v1/tools/{name}``: the deterministic calculators, directly."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from api.deps import CatalogDep
from api.schemas import ToolDescription
from tools.registry import ToolResult, describe_tools, run

router = APIRouter(prefix="/v1/tools", tags=["tools"])


@router.get("", response_model=list[ToolDescription])
def list_tools() -> list[ToolDescription]:
    """Every calculator: name, description and the JSON schemas of its input and output."""
    return [ToolDescription.model_validate(tool) for tool in describe_tools()]


@router.post("/{name}", response_model=ToolResult)
def run_tool(
    name: str,
    payload: Annotated[dict[str, Any], Body(description="The calculator's input object.")],
    catalog: CatalogDep,
) -> ToolResult:
    """Run one calculator: 404 (with suggestions) for an unknown name, 422 naming each bad field."""
    return run(name, payload, catalog)
