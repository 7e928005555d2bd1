"""The calculators as LangChain ``StructuredTool``s, for chat models that call tools."""

from __future__ import annotations

from typing import Any

from langchain_core.tools import StructuredTool

from knowledge.catalog import Catalog
from tools.registry import TOOLS, Tool, run


def _as_tool(tool: Tool, catalog: Catalog) -> StructuredTool:
    def call(**kwargs: Any) -> dict[str, Any]:
        return run(tool.name, kwargs, catalog).output

    return StructuredTool.from_function(
        func=call,
        name=tool.name,
        description=tool.description,
        args_schema=tool.input_model,
    )


def as_langchain_tools(catalog: Catalog) -> list[StructuredTool]:
    """One ``StructuredTool`` per registered calculator, reading specs from ``catalog``."""
    return [_as_tool(tool, catalog) for tool in TOOLS.values()]
