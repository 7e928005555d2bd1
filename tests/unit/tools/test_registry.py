"""The registry lists every calculator once, validates input, and adapts them to LangChain."""

from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.as_langchain import as_langchain_tools
from tools.registry import TOOLS, ToolInputError, UnknownToolError, describe_tools, run

CATALOG = default_catalog()


def test_every_tool_is_described_with_schemas() -> None:
    described = describe_tools()
    assert [d["name"] for d in described] == list(TOOLS)
    for item in described:
        assert len(item["description"]) > 80
        assert item["input_schema"]["type"] == "object"
        assert item["output_schema"]["type"] == "object"


def test_input_fields_carry_descriptions() -> None:
    for tool in TOOLS.values():
        for name, field in tool.input_model.model_fields.items():
            assert field.description, f"{tool.name}.{name} has no description"


def test_run_returns_validated_input_and_output() -> None:
    result = run("training_memory", {"params_b": 7.5, "gpus": 64, "zero_stage": 3}, CATALOG)
    assert result.input["zero_stage"] == 3
    assert result.output["per_gpu"]["weights_gb"] == pytest.approx(7.5 * 2 / 64)


def test_errors_name_every_bad_field() -> None:
    with pytest.raises(ToolInputError) as info:
        run("training_memory", {"params_b": -1, "gpus": 0, "colour": "red"}, CATALOG)
    fields = {p.field for p in info.value.problems}
    assert fields == {"params_b", "gpus", "colour"}


def test_unknown_tool_suggests_the_closest() -> None:
    with pytest.raises(UnknownToolError, match="training_memory"):
        run("training_memroy", {}, CATALOG)


def test_langchain_tools_use_the_input_models() -> None:
    tools = {t.name: t for t in as_langchain_tools(CATALOG)}
    assert set(tools) == set(TOOLS)
    out = tools["training_compute"].invoke({"model": "gpt-3", "tokens_b": 300, "gpu": "A100"})
    assert out["workload"]["training_flops"] == pytest.approx(3.15e23, rel=0.01)
    assert tools["training_memory"].args_schema is TOOLS["training_memory"].input_model
