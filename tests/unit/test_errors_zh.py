"""Every input error a calculator reports has a Chinese rendering that keeps its field, numbers and names.

The errors come from real runs through `tools.registry.run`: one targeted input per `raise
CalculatorInputError` in tools/*.py (the test checks that each raise was reached), inputs that break the
input models' bounds, choices and checks, and Chinese questions that fail through the real Router and
ToolBox, the way users meet these errors.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from assistant.composer.sentences import error_in
from assistant.composer.template import TemplateComposer
from assistant.router import Intent, Route, Router
from assistant.slots import SlotExtractor, Slots
from assistant.toolbox import ToolBox, ToolRun
from knowledge.catalog import Catalog, default_catalog
from knowledge.names import NameIndex
from tests.helpers import REPO
from tests.unit.calculator_runs import HAN, catalog_names, problems
from tools.common import CalculatorInputError
from tools.messages import Note
from tools.registry import ToolInputError, run

TOOLS = REPO / "tools"
Payload = tuple[str, dict[str, Any]]

# one input per `raise CalculatorInputError` in tools/*.py, in file order
RAISING: list[Payload] = [
    # scaling
    ("scaling", {"gpus_from": 64, "rate_from": 1e6, "gpus_to": 64, "rate_to": 1.1e6}),
    # driver_check
    ("driver_check", {"driver": "535"}),
    ("driver_check", {"driver": "535", "gpu": "mi300x"}),
    ("driver_check", {"driver": "535", "cuda": "12.7"}),
    # architecture
    ("training_compute", {"model": "llama-9-900b", "gpu": "h100-sxm"}),
    ("training_compute", {"model": "zzzz-qqqq", "gpu": "h100-sxm"}),
    ("training_compute", {"gpu": "h100-sxm"}),
    ("training_memory", {"params_b": 7, "attention_heads": 32, "kv_heads": 5}),
    ("training_compute", {"params_b": 7, "active_params_b": 10, "gpu": "h100-sxm"}),
    # common
    ("training_compute", {"params_b": 7, "gpu": "h100-sxmm"}),
    ("training_compute", {"params_b": 7, "gpu": "zzzz-qqqq"}),
    ("power_cost", {"server": "dgx-h1000"}),
    ("rack_fit", {"rack_kw": 40}),
    ("fabric", {}),
    ("budget_fit", {"budget": 1e6, "gpu": "h800"}),
    ("budget_fit", {"budget": 1e6}),
    ("budget_fit", {"budget": 1e6, "gpu": "h100-sxm", "set_aside": 1e6}),
    ("training_compute", {"params_b": 7, "tokens_b": 100, "gpu": "v100-sxm2-32gb", "precision": "bf16"}),
    ("training_compute", {"params_b": 7, "tokens_b": 100, "gpu": "a100-80gb-sxm", "precision": "fp8"}),
    # cost
    ("power_cost", {"server": "dgx-h100", "gpu": "mi300x"}),
    ("power_cost", {}),
    ("power_cost", {"gpu": "h100-sxm"}),
    ("power_cost", {"gpu": "h100-sxm", "gpus": 8, "server_power_kw": 10}),
    ("cloud_cost", {"gpu": "rtx-4090", "gpu_hours": 1000}),
    ("tco", {"gpu": "v100-sxm2-32gb", "gpus": 8}),
    # gpu_compare
    ("gpu_compare", {"gpus": ["h100-sxm", "H100"]}),
    ("gpu_compare", {"gpus": ["h100-sxm", "mi300x"], "prices_usd": {"a100-80gb-sxm": 10000}}),
    ("gpu_compare", {"gpus": ["h100-sxm", "mi300x"], "prices_usd": {"h100-sxm": 30000, "H100": 25000}}),
    ("gpu_compare", {"gpus": ["h100-sxm", "mi300x"], "cloud_prices_usd": {"h100-sxm": 3, "H100": 2.5}}),
    ("gpu_compare", {"gpus": ["h100-sxm", "mi300x"], "mfu": {"a100-80gb-sxm": 0.4}}),
    ("gpu_compare", {"gpus": ["h100-sxm", "mi300x"], "mfu": {"h100-sxm": 0.4, "H100": 0.45}}),
    # gpu_memory
    ("training_memory", {"model": "llama-3-8b", "gpus": 3, "tensor_parallel": 3}),
    ("training_memory", {"params_b": 7, "gpus": 2, "offload_params": True}),
    # host_ram
    ("host_ram", {"gpus_per_node": 8}),
    # inference_memory
    ("inference_memory", {"model": "llama-3-70b", "gpu": "h100-sxm", "tensor_parallel": 4, "gpus": 4,
                          "kv_heads": 6, "attention_heads": 48}),
    ("inference_memory", {"model": "llama-3-70b", "gpu": "h100-sxm", "tensor_parallel": 16, "gpus": 16,
                          "kv_heads": 6, "attention_heads": 48}),
    ("inference_memory", {"model": "llama-3-70b", "gpu": "h100-sxm", "tensor_parallel": 6, "gpus": 6}),
    ("inference_memory", {"model": "llama-3-8b", "gpu": "h100-sxm", "tensor_parallel": 2, "gpus": 3}),
    # network
    ("network", {"params_b": 7, "gpus_per_node": 8, "intra_node_link": "warp-drive"}),
    ("network", {"params_b": 7, "gpu": "h100-sxm", "nodes": 2, "inter_node_link": "carrier-pigeon"}),
    ("network", {"params_b": 7, "gpu": "h100-sxm", "gpus_per_node": 1}),
    ("network", {"params_b": 7, "gpu": "h100-sxm", "target_comm_share": 0.1}),
    ("network", {"params_b": 7, "gpus_per_node": 8}),
    ("network", {"params_b": 7, "gpu": "h100-sxm", "nodes": 2}),
    ("network", {"params_b": 7, "intra_node_link": "nvlink-4", "batch_tokens": 4e6}),
    ("network", {"params_b": 7, "gpu": "v100-sxm2-32gb", "batch_tokens": 4e6}),  # no BF16: no peak to time
    # serving_estimate
    ("serving_estimate", {"model": "llama-3-8b", "requests_per_second": 10}),
    ("serving_estimate", {"model": "deepseek-v3", "gpu": "rtx-4090", "requests_per_second": 10}),
    # storage
    ("storage", {"model": "llama-3-8b", "dataset_tokens_b": 100, "bytes_per_token_id": 2}),
    ("storage", {"params_b": 7}),
    ("storage", {"params_b": 7, "dataset_tokens_b": 100, "keep_weights_only_history": True}),
]  # fmt: skip


def _without_host_links(catalog: Catalog) -> Catalog:
    return catalog.model_copy(
        update={"interconnects": [c for c in catalog.interconnects if c.kind != "host"]}
    )


def _without_16_bit_figures(catalog: Catalog) -> Catalog:
    return catalog.model_copy(
        update={
            "accelerators": [
                a.model_copy(update={"bf16_dense_tflops": None, "fp16_dense_tflops": None})
                for a in catalog.accelerators
            ]
        }
    )


# raises that only a catalog lacking a kind of entry reaches
ON_OTHER_CATALOGS: list[tuple[Callable[[Catalog], Catalog], Payload]] = [
    (_without_host_links, ("network", {"params_b": 7, "gpu": "rtx-4090", "gpus_per_node": 4})),
    (
        _without_16_bit_figures,
        ("serving_estimate", {"model": "llama-3-8b", "gpu": "h100-sxm", "requests_per_second": 1}),
    ),
]

# the input models' bounds, choices and own checks (pydantic messages)
INVALID: list[Payload] = [
    ("model_capacity", {"gpus": 4}),
    ("training_compute", {"params_b": -1}),
    ("training_compute", {"params_b": 7, "gpus": 0}),
    ("training_compute", {"params_b": 7, "mfu": 1.5}),
    ("network", {"params_b": 7, "gpu": "h100-sxm", "overlap_share": 1}),
    ("training_memory", {"params_b": 7, "optimizer": "lion"}),
    ("deepspeed_estimate", {"params_b": 7, "zero_stage": 1}),
    ("training_memory", {"params_b": 70, "gpus": 12, "tensor_parallel": 8}),
    ("training_compute", {"params_b": 7, "mfu": 0.6, "mfu_high": 0.5}),
    ("throughput_calibration", {"params_b": 7, "gpus": 8, "tokens_per_second_per_gpu": 1000, "tokens_per_second": 8000}),
    ("throughput_calibration", {"params_b": 7, "gpus": 8, "step_time_s": 3}),
    ("run_time", {"gpu_hours": 1000, "step_time_s": 3}),
    ("run_time", {"from_gpu": "a100-80gb-sxm", "from_days": 20}),
    ("data_volume", {}),
    ("serving_capacity", {"demand_tokens_per_second": 1000}),
    ("data_volume", {"text_tb": 40, "tokens_b": 10}),
    ("data_volume", {"checkpoint_tb": 1}),
    ("data_volume", {"tokens_b": 1, "nodes": 4}),
    ("data_volume", {"checkpoints_kept": 4, "tokens_b": 1}),
    ("data_volume", {"raw_tb": 10, "growth_tb_per_day": 1}),
    ("data_volume", {"tokens_per_second_per_gpu": 3000}),
    ("data_volume", {"samples_per_second_per_gpu": 40, "gpus": 64}),
    ("data_volume", {"samples_per_second_per_gpu": 40, "sample_mb": 2, "tokens_per_second_per_gpu": 3000, "gpus": 64}),
    ("run_time", {"training_flops": 1e22}),
    ("compute_optimal", {"budget": 1e6, "gpu": "h800"}),  # no cloud price for the H800 in the catalog
    ("budget_fit", {"budget": 1.5e6, "currency": "CNY", "gpu": "ascend-910b2", "quote": True}),
    ("compute_optimal", {"budget": 1e6, "gpu_hours": 1000}),
    ("cloud_cost", {"gpu": "h100-sxm", "gpu_hours": 10, "price_per_gpu_hour": 2, "price_per_instance_hour": 16}),
    ("run_time", {"step_time_s": 5, "tokens_per_step": 1000}),
    ("run_time", {"tokens_per_second_per_gpu": 3000, "gpus": 8}),
    ("cloud_cost", {"gpu": "h100-sxm", "gpu_hours": 1000, "gpus": 8, "days": 3}),
    ("cloud_cost", {"gpu": "h100-sxm", "gpus": 8}),
    ("cloud_cost", {"gpu": "h100-sxm", "gpu_hours": 100, "storage_tb": 5}),
    ("tco", {"gpu": "h100-sxm", "gpus": 8, "capex_total": 1e6, "capex_per_gpu": 3e4}),
    ("tco", {"gpu": "h100-sxm", "gpus": 8, "cloud_per_month": 1e5, "cloud_price_per_gpu_hour": 2.5}),
    ("tco", {"gpu": "h100-sxm", "gpus": 8, "lease_per_month": 1e5, "lease_rate_per_month": 0.03}),
    ("tco", {"gpu": "h100-sxm", "gpus": 8, "lease_per_month": 1e5, "lease_apr": 0.08}),
    ("tco", {"gpu": "h100-sxm", "gpus": 8, "resale_value": 1e5, "residual_share": 0.2}),
]  # fmt: skip

# Chinese questions whose calculation fails through the real Router and ToolBox
QUESTIONS = [
    "用12张H100、张量并行8训练70B模型，每张卡需要多少显存？",
    "用6张卡推理Llama-3-70B需要多少显存？",
    "用3张H100、张量并行3全参微调Llama-3-8B显存够吗？",
    "1张H100训练7B模型的all-reduce通信要多久？",
    "8张V100三年的总拥有成本是多少？",
]


@cache
def _router_and_toolbox() -> tuple[Router, ToolBox]:
    catalog = default_catalog()
    return Router(extractor=SlotExtractor(NameIndex(catalog))), ToolBox(catalog=catalog)


def _asked(question: str) -> tuple[Route, ToolRun]:
    router, toolbox = _router_and_toolbox()
    route = router.route(question)
    return route, toolbox.run_for(route.tools, route.slots)


def _raise_site(exc: CalculatorInputError) -> tuple[str, int]:
    tb = exc.__traceback__
    assert tb is not None
    while tb.tb_next is not None:
        tb = tb.tb_next
    return Path(tb.tb_frame.f_code.co_filename).name, tb.tb_lineno


def _raises_in_tools() -> set[tuple[str, int]]:
    sites = set()
    for file in TOOLS.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and isinstance(node.exc.func, ast.Name)
                and node.exc.func.id == "CalculatorInputError"
            ):
                sites.add((file.name, node.lineno))
    return sites


@cache
def _collected() -> tuple[dict[str, str], set[tuple[str, int]], dict[str, Note]]:
    """Each distinct ``field: message`` -> where it came from, the raise sites reached, and the errors written
    as messages (tools/messages.py) by their text."""
    catalog = default_catalog()
    errors: dict[str, str] = {}
    notes: dict[str, Note] = {}
    sites: set[tuple[str, int]] = set()
    runs = [(catalog, p) for p in RAISING + INVALID] + [
        (change(catalog), p) for change, p in ON_OTHER_CATALOGS
    ]
    for on, (tool, payload) in runs:
        with pytest.raises(ToolInputError) as caught:
            run(tool, payload, on)
        if isinstance(caught.value.__cause__, CalculatorInputError):
            sites.add(_raise_site(caught.value.__cause__))
        for p in caught.value.problems:
            errors.setdefault(text := f"{p.field}: {p.message}", f"{tool} {payload}")
            if p.note:
                notes[text] = p.note
    for question in QUESTIONS:
        _, done = _asked(question)
        assert done.errors, question
        for text in done.errors:
            errors.setdefault(text, question)
        notes.update(done.error_messages)
    return errors, sites, notes


def _names() -> list[str]:
    catalog = default_catalog()
    ids = {entry.id for _, entry in catalog.entries() if hasattr(entry, "id")}
    return sorted(set(catalog_names()) | ids)


# what a reader types back: the field, quoted input ('h100-sxmm'), parameter names, options like 'adamw'
IDENTIFIER = re.compile(r"'[^']*'|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def test_every_calculator_input_error_is_raised_by_a_targeted_input() -> None:
    missing = _raises_in_tools() - _collected()[1]
    assert not missing, f"add an input to RAISING that reaches: {sorted(missing)}"


def test_every_error_reads_in_chinese_with_its_field_numbers_and_names() -> None:
    names = _names()
    failures: dict[str, list[str]] = {}
    for text, origin in _collected()[0].items():
        zh = rendered = error_in(text, _collected()[2], "zh")
        if text not in _collected()[2]:
            rendered = None  # the generic fallback does not count as a rendering here
        lacking = problems(text, rendered, names)
        field = text.split(": ", 1)[0]
        if field != "input" and field not in zh:
            lacking.append(f"field lost: {field}")
        lacking += [f"identifier lost: {i}" for i in IDENTIFIER.findall(text) if i not in zh]
        if lacking:
            failures[f"{text!r} from {origin} -> {zh!r}"] = lacking
    assert not failures, "\n".join(f"{where}: {lacking}" for where, lacking in failures.items())


def test_every_error_is_written_as_a_message() -> None:
    plain = [text for text in _collected()[0] if text not in _collected()[2]]
    assert not plain, "write these as messages (tools/messages.py):\n" + "\n".join(plain)


def test_every_model_check_is_reached() -> None:
    checks = sum(
        isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and isinstance(node.exc.func, ast.Name)
        and node.exc.func.id == "ValueError"
        for file in TOOLS.rglob("*.py")
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8")))
    )
    reported = {t for t in _collected()[0] if t.startswith("input: ")}
    assert len(reported) == checks


def test_english_stays_as_the_calculators_wrote_it() -> None:
    assert all(error_in(text, _collected()[2], "en") == text for text in _collected()[0])
    assert all(note.in_language("en") == text.split(": ", 1)[1] for text, note in _collected()[2].items())


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("gpus: List should have at least 2 items after validation, not 1", "输入 gpus 的值无法用于计算"),
        ("a problem with no field", "输入的值无法用于计算"),
    ],
)
def test_an_error_without_a_rendering_names_its_field_in_chinese(text: str, shown: str) -> None:
    zh = error_in(text, {}, "zh")
    assert zh.startswith(shown)
    assert HAN.search(zh)
    assert "List should" not in zh


def test_a_chinese_answer_shows_the_calculator_error_in_chinese() -> None:
    route, done = _asked("用6张卡推理Llama-3-70B需要多少显存？")
    assert route.language == "zh"
    assert done.errors == ["tensor_parallel: 6 does not divide the 64 attention heads of Llama 3 70B"]
    draft = TemplateComposer().compose(route, [], done)
    # the field in words, never its name ('tensor_parallel') in a chat
    assert "无法计算：张量并行度：6 不能整除 Llama 3 70B 的 64 个注意力头" in draft.answer
    assert "does not divide" not in draft.answer
    english = TemplateComposer().compose(route.model_copy(update={"language": "en"}), [], done)
    assert (
        "I could not compute this: tensor parallelism: 6 does not divide the 64 attention heads"
        in english.answer
    )


def test_several_errors_in_one_chinese_answer_are_each_in_chinese() -> None:
    with pytest.raises(ToolInputError) as caught:
        run("training_memory", {"params_b": 0, "gpu": "h100-sxm"}, default_catalog())
    bound = caught.value.problems[0]
    assert bound.note  # pydantic's own error, by its type and context
    done = ToolRun(
        errors=["params_b: Input should be greater than 0", "a problem with no field"],
        error_messages={"params_b: Input should be greater than 0": bound.note},
    )
    route = Route(language="zh", intent=Intent.CALCULATION, slots=Slots(), stated={}, query="q")
    answer = TemplateComposer().compose(route, [], done).answer
    assert "无法计算：模型参数量：必须大于 0；输入的值无法用于计算，请检查后重试" in answer
    assert done.errors == ["params_b: Input should be greater than 0", "a problem with no field"]
