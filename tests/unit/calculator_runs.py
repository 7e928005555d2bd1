"""Real calculator runs, for the tests that check every sentence the calculators write.

The runs are: every published case mapped onto a calculator, targeted inputs for the branches the cases
leave out (given vs catalog values, servers, quantised weights, offload, odd inputs that draw warnings,
...), and every turn of the evaluation set routed and run as `advisor ask` would.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from assistant.router import Context, Route, Router
from assistant.slots import SlotExtractor
from assistant.toolbox import ToolBox, ToolRun
from knowledge.catalog import Catalog, default_catalog
from knowledge.names import NameIndex
from tests.helpers import REPO
from tools.messages import Note
from tools.registry import ToolInputError, run

DATA = REPO / "tests" / "data"
Payload = tuple[str, dict[str, Any]]


# --- published cases, mapped onto the calculators ---------------------------------------------------


def _preset(catalog: Catalog, name: str | None) -> str | None:
    """The catalog id of a case's model, when the catalog has it."""
    if not name:
        return None
    ids = {m.id for m in catalog.models}
    for candidate in (name, name.split("/")[-1].lower().replace("_", "-")):
        if candidate in ids:
            return candidate
    return None


def _gpu(catalog: Catalog, i: dict[str, Any]) -> dict[str, Any]:
    """The case's GPU, or its dense peak on the default GPU when the catalog lacks it (TPU v4)."""
    name = i.get("gpu") or i.get("accelerator")
    if name and name in {a.id for a in catalog.accelerators}:
        return {"gpu": name}
    return {"peak_tflops": i["peak_tflops_dense_bf16"]} if "peak_tflops_dense_bf16" in i else {}


def _billions(label: str) -> float:
    """``175b`` -> 175, ``1t`` -> 1000 (the cases' model labels)."""
    return float(label[:-1]) * (1000 if label.endswith("t") else 1)


def _shape(i: dict[str, Any]) -> dict[str, Any]:
    keys = {"layers": "layers", "hidden": "hidden_size", "heads": "attention_heads", "kv_heads": "kv_heads"}
    return {ours: i[theirs] for theirs, ours in keys.items() if theirs in i}


def _training_memory(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    if "params_total" in i:  # DeepSpeed's estimator
        payload = {
            "params_b": i["params_total"] / 1e9,
            "largest_layer_params": i.get("largest_layer_params"),
            "gpus_per_node": i.get("n_gpus_per_node", i.get("n_gpus", 1)),
            "nodes": i.get("n_nodes", 1),
            "zero_stage": i["zero_stage"],
            "buffer_factor": i.get("additional_buffer_factor", 1.5),
        }
        return [("deepspeed_estimate", {k: v for k, v in payload.items() if v is not None})]
    precision = "fp16-mixed" if i.get("precision") == "mixed_fp16" else "bf16-mixed"
    return [
        (
            "training_memory",
            {"params_b": i["params_b"], "gpus": i["dp"], "zero_stage": i["zero_stage"],
             "optimizer": i.get("optimizer", "adamw"), "precision": precision},
        )
    ]  # fmt: skip


def _host_ram(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    return [
        (
            "host_ram",
            {"params_b": i["params_total"] / 1e9, "gpu": "h100-sxm", "gpus_per_node": i["n_gpus_per_node"],
             "nodes": i["n_nodes"], "offload_optimizer": i.get("offload_optimizer") == "cpu",
             "offload_params": i.get("offload_param") == "cpu", "offload_buffer_factor": i["additional_buffer_factor"]},
        ),
        *_training_memory(catalog, i),
    ]  # fmt: skip


def _activations(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    configs = i.get("configs") or [i]
    payloads: list[Payload] = []
    for config in configs:
        merged = {**i, **config}
        shape = _shape(merged)
        preset = _preset(catalog, merged.get("model"))
        if preset:
            size = {"model": preset}
        elif "layers" in merged:
            size = {"params_b": merged.get("params_b") or 12 * merged["layers"] * merged["hidden"] ** 2 / 1e9}
        else:
            size = {"params_b": _billions(merged["model"])}
        tp, pp = merged.get("tp", 1), merged.get("pp", 1)
        payloads.append(
            (
                "training_memory",
                {**size, **shape, "seq_len": merged["seq_len"], "micro_batch": merged["micro_batch"],
                 "tensor_parallel": tp, "pipeline_parallel": pp, "gpus": tp * pp, "flash_attention": False},
            )
        )  # fmt: skip
    return payloads


def _size(i: dict[str, Any]) -> dict[str, float]:
    """Total and (for MoE) active parameters."""
    size = {"params_b": i.get("params_total_b") or i["params_b"]}
    return size | ({"active_params_b": i["params_active_b"]} if "params_active_b" in i else {})


def _flops(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    return [("training_compute", {**_size(i), "tokens_b": i["tokens_t"] * 1000, "gpu": "h100-sxm"})]


def _gpu_hours(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    gpu, size = _gpu(catalog, i), _size(i)
    gpus = {"gpus": i["n_gpus"]} if "n_gpus" in i else {}
    payloads: list[Payload] = [
        ("training_compute", {**size, **gpu, **gpus, "tokens_b": i["tokens_t"] * 1000})
    ]
    if "achieved_tflops_per_gpu" in i:
        per_gpu = i["achieved_tflops_per_gpu"] * 1e12 / (6 * size["params_b"] * 1e9)
        payloads.append(
            ("throughput_calibration", {**size, **gpu, "gpus": i["n_gpus"], "tokens_b": i["tokens_t"] * 1000,
                                        "tokens_per_second_per_gpu": per_gpu})
        )  # fmt: skip
    if "gpu_tdp_w" in i and "gpu" in gpu:
        payloads.append(("power_cost", {"gpu": gpu["gpu"], "gpus": 8, "gpu_tdp_w": i["gpu_tdp_w"]}))
    if "usd_per_gpu_hour" in i and "gpu" in gpu:
        hours = i["pretrain_gpu_hours_per_trillion_tokens"] * i["tokens_t"]
        payloads.append(
            (
                "cloud_cost",
                {"gpu": gpu["gpu"], "gpu_hours": hours, "price_per_gpu_hour": i["usd_per_gpu_hour"]},
            )
        )
    return payloads


def _mfu(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    payloads: list[Payload] = []
    for config in i.get("configs") or [i]:
        merged = {**i, **config}
        params = merged.get("params_b") or merged.get("params_active_b")
        if params is None:
            params = _billions(merged.get("model", "405b"))
        gpus = merged.get("n_gpus") or merged.get("gpus") or merged.get("n_chips") or 1
        if "achieved_tflops_per_gpu" in merged:
            per_gpu = merged["achieved_tflops_per_gpu"] * 1e12 / (6 * params * 1e9)
        elif "tokens_per_second" in merged:
            per_gpu = merged["tokens_per_second"] / gpus
        elif "gpu_hours" in merged:
            per_gpu = merged["tokens_t"] * 1e12 / (merged["gpu_hours"] * 3600)
        else:
            per_gpu = merged["global_batch"] * merged["seq_len"] / merged["seconds_per_iteration"] / gpus
        payloads.append(
            ("throughput_calibration", {"params_b": params, **_gpu(catalog, merged), "gpus": gpus,
                                        "tokens_per_second_per_gpu": per_gpu})
        )  # fmt: skip
    return payloads


def _kv(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    preset = _preset(catalog, i["model"])
    size = {"model": preset} if preset else {"params_b": 13, **_shape(i)}
    extra = {"context_tokens": i["seq_len"]} if "seq_len" in i else {}
    return [("inference_memory", {**size, **extra, "batch": i.get("batch", 1), "gpu": "h100-sxm"})]


def _checkpoint(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    payloads: list[Payload] = []
    for model in i.get("models") or [{"params_b": i["params_total"] / 1e9}]:
        preset = _preset(catalog, model.get("model"))
        size = {"model": preset} if preset else {"params_b": model["params_b"]}
        full = {"full_checkpoint_bytes_per_param": i["bytes_per_param"]} if "bytes_per_param" in i else {}
        payloads.append(("storage", {**size, **full, "dataset_tokens_b": 366}))
    return payloads


def _network(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    if "link_gbit_s" in i:
        link = {"nodes": 4, "inter_node_gbit_s_per_gpu": i["link_gbit_s"]}
        return [("network", {"params_b": 70, "gpu": "h100-sxm", **link})]
    params = i.get("params_b") or i.get("gradient_bytes", 14e9) / 2e9  # BF16 gradients: 2 bytes each
    payload: dict[str, Any] = {"params_b": params, "zero3": i.get("zero_stage") == 3}
    if "n_gpus" in i:
        payload |= {
            "gpus_per_node": i["n_gpus"],
            "intra_node_gb_s": i.get("bandwidth_gb_s") or i["algbw_gb_s"],
        }
    else:
        payload["gpu"] = "h100-sxm"
    return [("network", payload)]


def _power(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    gpu = i.get("gpu", "a100-80gb-sxm")
    kw = i.get("kw_per_gpu") or i.get("kw_per_chip") or i["gpu_tdp_w"] / 1000
    gpus = i.get("n_gpus") or i.get("n_chips") or 8
    payloads: list[Payload] = [
        ("power_cost", {"gpu": gpu, "gpus": gpus, "gpu_tdp_w": kw * 1000, "pue": i.get("pue", 1.2)})
    ]
    if "gpu_hours" in i:
        payloads.append(("cloud_cost", {"gpu": gpu, "gpu_hours": i["gpu_hours"]}))
    if "days" in i:
        payloads.append(("cloud_cost", {"gpu": gpu, "gpus": gpus, "days": i["days"]}))
    return payloads


def _chinchilla(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    # C = 6 N D with D = 20 N, so N = sqrt(C / 120)
    params = i.get("params_b") or math.sqrt(float(i["flops"]) / 120) / 1e9
    return [("training_compute", {"params_b": params, "gpu": "h100-sxm"})]


def _storage(catalog: Catalog, i: dict[str, Any]) -> list[Payload]:
    payloads: list[Payload] = []
    for case in i.get("cases") or [i]:
        tokens = case.get("tokens_b") or case.get("tokens_t", 1) * 1000
        payload: dict[str, Any] = {"params_b": 70, "dataset_tokens_b": tokens}
        if "vocab" in case:
            payload["vocab_size"] = case["vocab"]
        if "text_gb" in case:
            payload["dataset_raw_gb"] = case["text_gb"]
        payloads.append(("storage", payload))
    return payloads


MAPPERS: dict[str, Callable[[Catalog, dict[str, Any]], list[Payload]]] = {
    "training_memory": _training_memory,
    "host_ram": _host_ram,
    "activation_memory": _activations,
    "training_flops": _flops,
    "gpu_hours": _gpu_hours,
    "mfu": _mfu,
    "inference_kv_cache": _kv,
    "checkpoint_size": _checkpoint,
    "network_allreduce": _network,
    "power": _power,
    "chinchilla": _chinchilla,
    "storage_dataset": _storage,
}


# --- targeted inputs for the branches the cases and questions leave out --------------------------------

TARGETED: list[Payload] = [
    # compute: Chinchilla tokens, attention term, MoE, a user peak, FP8
    ("training_compute", {"params_b": 7, "gpu": "a100-80gb-sxm", "gpus": 64, "include_attention": True, "seq_len": 8192}),
    ("training_compute", {"model": "deepseek-v3", "gpu": "h800", "gpus": 2048, "include_attention": True}),
    ("training_compute", {"model": "mixtral-8x7b", "tokens_b": 500, "gpu": "h100-sxm", "precision": "fp8"}),
    ("training_compute", {"params_b": 7, "tokens_b": 1000, "gpu": "v100-sxm2-32gb", "gpus": 64}),  # no BF16: FP16
    ("gpus_for_deadline", {"model": "deepseek-v3", "tokens_b": 14800, "gpu": "h800", "deadline_days": 60, "peak_tflops": 1000}),
    ("throughput_calibration", {"params_b": 70, "gpu": "h100-sxm", "gpus": 64, "tokens_per_second": 60000}),
    ("throughput_calibration", {"params_b": 30, "gpu": "h100-sxm", "gpus": 256, "step_time_s": 8,
                                "tokens_per_step": 4e6, "run_gpus": 512, "scaling_efficiency": 0.9}),
    ("throughput_calibration", {"params_b": 13, "gpu": "a800-80gb-sxm", "gpus": 256, "step_time_s": 15,
                                "tokens_per_step": 8388608, "tokens_b": 800}),
    # storage arithmetic on known figures
    ("data_volume", {"tokens_b": 9.035582198, "bytes_per_token_id": 2, "vocab_size": 50257}),
    ("data_volume", {"tokens_b": 15000, "bytes_per_token_id": 2, "vocab_size": 128256}),
    ("data_volume", {"tokens_b": 15000, "bytes_per_token_id": 2}),
    ("data_volume", {"checkpoint_tb": 1, "link_gbit_s": 400}),  # a copy timed over a link
    ("data_volume", {"raw_tb": 50, "growth_tb_per_day": 1, "retention_days": 365, "replicas": 3}),
    ("data_volume", {"text_tb": 2000, "kept_share": 0.2, "replicas": 3, "disk_tb": 20}),
    ("data_volume", {"text_tb": 40, "compression_ratio": 3.19}),
    ("run_time", {"from_gpu": "a100-80gb-sxm", "from_gpus": 64, "from_days": 20, "gpu": "h100-sxm"}),
    ("data_volume", {"checkpoint_tb": 0.9, "checkpoints_kept": 20, "price_per_gb_month": 0.12, "currency": "CNY"}),
    ("data_volume", {"raw_tb": 80}),
    ("data_volume", {"tokens_per_second_per_gpu": 3000, "gpus": 1024, "bytes_per_token_id": 4}),
    ("data_volume", {"checkpoint_tb": 1, "write_seconds": 60}),
    # serving from measured rates: cost per million tokens, servers for a peak
    ("training_compute", {"model": "llama-3-8b", "tokens_b": 1.5, "gpu": "a100-80gb-sxm", "gpus": 1, "finetune": "lora"}),
    ("gpu_spec", {"gpus": ["h100-sxm", "a100-80gb-sxm"], "fields": ["fp16_dense_tflops", "tdp_w"]}),
    ("gpu_spec", {"gpus": ["h200"], "fields": ["memory_bandwidth_gb_s"]}),
    ("tco", {"gpu": "h100-sxm", "gpus": 32, "capex_per_server": 2500000, "currency": "CNY", "cloud_per_month": 800000}),
    ("serving_cost", {"price_per_gpu_hour": 2.5, "tokens_per_second_per_gpu": 1500}),
    ("serving_cost", {"price_per_gpu_hour": 8, "tokens_per_second_per_gpu": 800, "currency": "CNY", "utilization": 0.6}),
    ("serving_cost", {"price_per_gpu_hour": 2.5, "tokens_per_second_per_server": 2500, "gpus_per_server": 8}),
    ("serving_capacity", {"demand_tokens_per_second": 50000, "tokens_per_second_per_server": 6000, "headroom": 0.2}),
    ("serving_capacity", {"demand_tokens_per_second": 30000, "tokens_per_second_per_gpu": 900}),
    ("serving_capacity", {"demand_tokens_per_second": 35000, "tokens_per_second_per_server": 6000}),
    ("serving_estimate", {"model": "llama-3-8b", "gpu": "l40s", "requests_per_second": 33.3, "prompt_tokens": 500, "output_tokens": 300}),
    ("serving_estimate", {"model": "llama-3-70b", "gpu": "h100-sxm", "requests_per_second": 50, "weight_precision": "fp8"}),
    ("serving_estimate", {"model": "mixtral-8x7b", "gpu": "h100-sxm", "requests_per_second": 5, "batch_size": 8}),
    ("gpus_for_deadline", {"params_b": 30, "tokens_b": 1200, "gpu": "h100-sxm", "mfu": 0.38, "deadline_days": 45, "goodput": 0.9}),
    ("tco", {"gpu": "h800", "gpus": 8, "currency": "CNY", "capex_per_server": 2_200_000, "resale_value": 600_000}),
    ("power_cost", {"gpu": "h100-sxm", "gpus": 8, "it_power_kw": 1000, "pue": 1.5, "compare_pue": 1.2, "electricity_price_per_kwh": 0.5, "currency": "CNY"}),
    ("power_cost", {"gpu": "h100-sxm", "gpus": 64, "server_power_kw": 10.2, "servers": 8, "always_on_kw": 6, "utilization": 0.75}),
    ("serving_estimate", {"model": "llama-3.1-70b", "gpu": "l40s", "requests_per_second": 3, "prompt_tokens": 4000, "ttft_ms": 500}),
    ("serving_estimate", {"model": "llama-3.1-70b", "gpu": "l40s", "requests_per_second": 3, "prompt_tokens": 4000, "ttft_ms": 300}),
    ("serving_estimate", {"model": "llama-3-70b", "gpu": "l40s", "requests_per_second": 1, "tokens_per_second_per_user": 200}),
    # run time from known figures: GPU-hours with GPUs or a deadline, FLOPs, a throughput, a step time
    ("run_time", {"gpu_hours": 1.2e6, "gpus": 512}),
    ("run_time", {"from_gpus": 64, "from_days": 7, "gpus": 512, "deadline_days": 1}),
    ("run_time", {"from_gpus": 64, "from_days": 7, "gpus": 512, "scaling_efficiency": 0.85}),
    ("run_time", {"gpu_hours": 3e5, "deadline_days": 20}),
    ("run_time", {"training_flops": 2.4e24, "gpu": "h200"}),
    ("run_time", {"training_flops": 2.4e24, "gpu": "h200", "mfu": 0.38, "gpus": 1024}),
    ("run_time", {"tokens_b": 1000, "tokens_per_second_per_gpu": 2900, "gpus": 256}),
    ("run_time", {"step_time_s": 9.8, "tokens_per_step": 4194304, "gpus": 512, "tokens_b": 600}),
    # compute-optimal size: a budget at the catalog's price and at a given one, GPUs x days, FLOPs
    ("gpu_spec", {"gpus": ["h100-sxm"], "fields": ["price_usd", "server_price_usd"], "count": 32}),
    ("tco", {"gpu": "h100-sxm", "gpus": 64, "cloud_price_per_gpu_hour": 1.9, "cloud_committed": True, "utilization": 0.6}),
    ("compute_optimal", {"budget": 250000}),
    ("driver_check", {"driver": "535", "cuda": "12.8", "gpu": "h100-sxm"}),
    ("cloud_cost", {"gpu": "h100-sxm", "gpu_hours": 180000, "price_per_gpu_hour": 2.49, "discount_share": 0.3}),
    ("cloud_cost", {"gpu": "h100-sxm", "gpus": 256, "days": 45, "price_per_gpu_hour": 2.1, "extras_share": 0.1}),
    # a corpus kept several times over
    ("data_volume", {"tokens_b": 15000, "replicas": 3}),
    # a measured rate with a deadline: the GPUs it takes
    ("throughput_calibration", {"model": "llama-3-8b", "gpu": "h100-sxm", "gpus": 8, "tokens_per_second_per_gpu": 3100,
                                "tokens_b": 500, "deadline_days": 30}),
    # a quote in the other currency, times a count with a share on top, amortised
    ("quote", {"unit_price": 290000, "count": 6, "extra_share": 0.15, "usd_to_cny": 7.25}),
    ("quote", {"unit_price": 2600000, "months": 48, "gpus_per_item": 64}),
    # two measured runs: a scaling efficiency, above linear, and read from the larger run down
    ("scaling", {"gpus_from": 64, "rate_from": 1.2e6, "gpus_to": 256, "rate_to": 4.1e6}),
    ("scaling", {"gpus_from": 64, "rate_from": 1.0e6, "gpus_to": 128, "rate_to": 2.2e6}),
    ("scaling", {"gpus_from": 256, "rate_from": 4.1e6, "gpus_to": 64, "rate_to": 1.2e6}),
    # a margin on top of the GPU-hours ("add 15% for failed runs"); an electricity bill given per year
    ("cloud_cost", {"gpu": "h100-sxm", "gpu_hours": 180000, "price_per_gpu_hour": 2.1, "margin_share": 0.15}),
    ("tco", {"gpu": "h100-sxm", "gpus": 800, "capex_per_server": 2000000, "currency": "CNY", "years": 5,
             "electricity_per_year": 6000000, "utilization": 0.6}),
    ("driver_check", {"driver": "550", "gpu": "b200"}),
    ("driver_check", {"cuda": "12.4"}),
    ("driver_check", {"cuda": "13.0", "gpu": "v100-sxm2-32gb"}),
    ("compute_optimal", {"budget": 50000, "price_per_gpu_hour": 2.1, "params_b": 3}),
    ("model_capacity", {"gpu": "rtx-4090", "gpus": 2}),
    ("power_cost", {"gpu": "rtx-4090", "gpus": 2, "circuit_amps": 15}),
    ("power_cost", {"gpu": "rtx-4090", "gpus": 16}),  # more cards than a workstation holds: a server's overhead
    ("power_cost", {"server": "gb200-nvl72"}),
    ("power_cost", {"server": "gb200-nvl72", "cooling": "air"}),
    ("model_capacity", {"gpu_memory_gb": 64, "gpus": 8, "seq_len": 4096}),
    ("compute_optimal", {"budget": 1000000, "currency": "CNY", "price_per_gpu_hour": 15, "gpu": "h800"}),
    ("compute_optimal", {"gpus": 256, "days": 30, "gpu": "a100-80gb-sxm"}),
    ("compute_optimal", {"training_flops": 5.76e23}),
    ("cluster_plan", {"params_b": 70, "tokens_b": 2000, "deadline_days": 30, "budget_usd": 3e6, "rank_by": "time"}),
    # training memory: LoRA, QLoRA, bytes per parameter given
    ("training_memory", {"model": "llama-3-70b", "finetune": "qlora", "gpu": "h100-sxm", "seq_len": 4096}),
    ("training_memory", {"params_b": 13, "finetune": "lora", "lora_rank": 64, "gpu": "a100-80gb-sxm"}),
    ("training_memory", {"params_b": 30, "gpus": 8, "zero_stage": 3, "bytes_per_param": 12, "gpu_memory_gb": 80,
                         "recompute": "full", "offload_optimizer": True}),
    # MoE activations: top-k routed experts, and a shared expert (DeepSeek-V3)
    ("training_memory", {"model": "mixtral-8x7b", "seq_len": 4096, "gpu": "h100-sxm"}),
    ("training_memory", {"model": "deepseek-v3", "gpus": 2048, "tensor_parallel": 8, "pipeline_parallel": 16,
                         "zero_stage": 1, "seq_len": 4096}),
    # DeepSpeed: largest layer derived (embedding) and given
    ("deepspeed_estimate", {"model": "llama-2-7b", "zero_stage": 2, "gpus_per_node": 8}),
    # host RAM: totals given, per-GPU memory given, staging, offload, beyond 8 TiB
    ("host_ram", {"total_gpu_memory_gb": 640}),
    ("host_ram", {"gpu": "h100-sxm", "current_ram_gb": 512}),  # below the floor of 1x GPU memory
    ("host_ram", {"gpu_memory_gb": 48, "gpus_per_node": 4, "ram_to_gpu_memory_ratio": 3}),
    ("host_ram", {"gpu": "h200", "model": "llama-3-70b", "checkpoint_staging": True, "nodes": 4}),
    ("host_ram", {"gpu": "h100-sxm", "params_b": 405, "offload_optimizer": True, "offload_params": True}),
    # inference: quantised weights, latent attention, replicated KV heads, no GPU, fitting and not fitting
    ("inference_memory", {"model": "llama-3-70b", "weight_precision": "int4", "gpu": "l40s", "gpus": 2, "batch": 8}),
    ("inference_memory", {"model": "deepseek-v3", "weight_precision": "fp8", "gpu": "h200", "gpus": 8, "context_tokens": 32768}),
    ("inference_memory", {"model": "llama-3-8b", "tensor_parallel": 16, "gpus": 16}),
    ("inference_memory", {"model": "qwen2.5-14b", "gpu": "l40s", "gpus": 1, "lora_adapters": 20}),
    ("inference_memory", {"params_b": 70, "kv_cache_precision": "fp8", "gpu_memory_gb": 24, "batch": 64}),
    # network: every source of intra- and inter-node bandwidth, two levels, ZeRO-3, step time, target share
    ("network", {"params_b": 7, "gpus_per_node": 8, "intra_node_link": "pcie-gen4-x16"}),
    ("network", {"params_b": 7, "gpus_per_node": 4, "gpu": "rtx-4090"}),
    ("network", {"params_b": 70, "gpu": "mi300x", "nodes": 16, "inter_node_link": "ib-ndr", "nics_per_gpu": 1,
                 "step_time_s": 8, "overlap_share": 0.5, "zero3": True, "gradient_precision": "fp32"}),
    ("network", {"params_b": 70, "gpu": "h100-sxm", "nodes": 8, "step_time_s": 10, "target_comm_share": 0.1}),
    ("network", {"params_b": 13, "gpu": "h100-sxm", "nodes": 2, "inter_node_link": "roce-400"}),
    ("network", {"params_b": 13, "gpus_per_node": 1, "nodes": 2, "inter_node_gbit_s_per_gpu": 200}),
    ("network", {"params_b": 70, "gpu": "h100-sxm", "gpus_per_node": 8, "step_time_s": 2, "target_comm_share": 0.2}),
    # storage: token widths, raw text, checkpoint history, several servers, local NVMe given
    ("storage", {"params_b": 7, "dataset_tokens_b": 1000, "bytes_per_token_id": 4}),
    ("storage", {"params_b": 30, "dataset_raw_gb": 40000, "raw_compression_ratio": 3.19, "raw_kept_share": 0.5}),
    ("storage", {"model": "llama-2-7b", "dataset_tokens_b": 2000, "keep_raw_text": True, "run_days": 30,
                 "keep_weights_only_history": True, "nodes": 16}),
    ("storage", {"model": "llama-3-70b", "dataset_raw_gb": 4000, "checkpoint_interval_hours": 6, "run_days": 10,
                 "local_nvme_tb_per_node": 15.36, "server": "dgx-b200"}),
    ("storage", {"params_b": 1, "dataset_tokens_b": 20, "run_days": 0.1, "checkpoint_interval_hours": 4}),
    ("storage", {"params_b": 70, "dataset_tokens_b": 1400, "checkpoints_retained": 5, "weights_only_retained": 50,
                 "write_bandwidth_gb_s": 5}),
    # power: a server, its power given, overhead given, PUE given, liquid cooling, tariffs in CNY and USD
    ("power_cost", {"server": "dgx-h100"}),
    ("power_cost", {"server": "dgx-b200", "gpus": 12, "server_power_kw": 14, "cooling": "liquid"}),
    ("power_cost", {"gpu": "rtx-4090", "gpus": 4, "server_overhead_share": 0.5, "pue": 1.3,
                    "electricity_price_per_kwh": 0.8, "currency": "CNY", "usd_to_cny": 7.1}),
    ("power_cost", {"gpu": "h100-sxm", "gpus": 16, "electricity_price_per_kwh": 0.12, "utilization": 0.6}),
    # budget: catalog GPU price, catalog server price, a price per server in yuan, a card without a price,
    # a budget below one server
    ("budget_fit", {"budget": 2e6, "gpu": "h100-sxm"}),
    ("budget_fit", {"budget": 5e6, "server": "dgx-h100"}),
    ("budget_fit", {"budget": 5e6, "currency": "CNY", "capex_per_server": 2.2e6, "gpus_per_server": 8}),
    ("budget_fit", {"budget": 5e6, "currency": "CNY", "capex_per_server": 1.62e6, "gpu": "h20", "rent_months": 36, "network_storage_share": 0}),
    ("budget_fit", {"budget": 5e6, "currency": "CNY", "gpu": "h800", "capex_per_server": 2.2e6}),
    ("budget_fit", {"budget": 3e7, "currency": "CNY", "gpu": "h200", "capex_per_server": 2.6e6, "network_storage_share": 0.115385, "set_aside": 2e6}),
    ("budget_fit", {"budget": 1e5, "server": "dgx-h100", "usd_to_cny": 7.1}),
    # run time from a step time without a GPU count: wall-clock only
    ("run_time", {"step_time_s": 9.8, "tokens_per_step": 4194304, "tokens_b": 1000}),
    # fabric: two tiers non-blocking, three tiers, oversubscribed, ports given, too large for three tiers
    ("fabric", {"nodes": 127}),
    ("fabric", {"nodes": 1024, "ports_per_gpu": 1}),
    ("fabric", {"nodes": 16, "oversubscription": 3}),
    ("fabric", {"endpoints": 70000, "switch_ports": 64}),
    # rack fit: a catalog server, a generic server of a GPU, a given kW with a fleet, one that fits none
    ("rack_fit", {"rack_kw": 250, "scope": "facility", "server": "gb200-nvl72", "air_cooled_only": True}),
    ("rack_fit", {"rack_kw": 40, "server": "dgx-h100"}),
    ("rack_fit", {"rack_kw": 20, "gpu": "a100-80gb-sxm", "gpus_per_server": 8}),
    ("rack_fit", {"rack_kw": 20, "gpu": "l40s", "gpus_per_server": 8, "racks": 4}),
    ("rack_fit", {"rack_kw": 40, "server_power_kw": 10.2, "servers": 32}),
    ("rack_fit", {"rack_kw": 8, "server": "dgx-b200", "servers": 4}),
    ("rack_fit", {"rack_kw": 15, "server": "gb200-nvl72"}),
    ("rack_fit", {"rack_kw": 132, "gpu": "gb200", "gpus": 144}),
    ("rack_fit", {"rack_kw": 40, "gpu": "h800", "gpus": 256}),
    ("rack_fit", {"rack_kw": 20, "gpu": "b200", "gpus_per_server": 8, "gpu_power_cap_w": 700, "servers": 8}),
    # cloud: GPUs x days, on-demand only or not
    ("cloud_cost", {"gpu": "h100-sxm", "gpus": 64, "days": 30, "on_demand_only": False}),
    ("cloud_cost", {"gpu": "a100-80gb-sxm", "gpu_hours": 100000, "price_per_gpu_hour": 12, "currency": "CNY"}),
    ("cloud_cost", {"gpu": "a100-80gb-sxm", "gpu_hours": 2000, "price_per_gpu_hour": 28, "currency": "CNY",
                    "storage_tb": 50, "storage_price_per_gb_month": 0.12, "storage_months": 2}),
    # TCO: server price, capex given, capex per GPU, GPU price, lease given or a rate, cloud price given
    ("tco", {"server": "dgx-h100", "gpus": 16, "years": 3}),
    ("tco", {"gpu": "h100-sxm", "gpus": 64, "capex_total": 2.5e7, "currency": "CNY", "lease_per_month": 6e5,
             "cloud_price_per_gpu_hour": 15}),
    ("tco", {"gpu": "mi300x", "gpus": 8, "capex_per_gpu": 15000, "utilization": 0.3, "staff_per_year": 1e5}),
    # the network and storage priced by the user: with a server price, and with a price per GPU
    ("tco", {"gpu": "h100-sxm", "gpus": 128, "capex_per_server": 250000, "network_storage_cost": 1e6, "years": 5}),
    ("tco", {"gpu": "h800", "gpus": 64, "capex_per_gpu": 200000, "network_storage_cost": 3.8e6, "currency": "CNY"}),
    ("tco", {"gpu": "b200", "gpus": 8, "server": "dgx-b200", "years": 5}),
    ("tco", {"server": "dgx-h100", "gpus": 16, "years": 3, "residual_share": 0.2}),
    # lease terms: a rate given over a period shorter than the term; a term and an APR given
    ("tco", {"gpu": "h100-sxm", "gpus": 16, "capex_per_server": 300000, "months": 18, "lease_rate_per_month": 0.025}),
    ("tco", {"server": "dgx-h100", "gpus": 16, "years": 5, "lease_term_months": 48, "lease_apr": 0.07}),
    ("tco", {"gpu": "h100-sxm", "gpus": 8, "capex_per_server": 2.3e6, "currency": "CNY", "lease_per_month": 8e4,
             "lease_all_in": True, "electricity_price_per_kwh": 0.8}),
    # a stated average draw paid every hour
    ("tco", {"gpu": "h800", "gpus": 64, "server_power_kw": 10, "servers": 8, "power_all_year": True, "currency": "CNY",
             "capex_per_server": 2.4e6, "electricity_price_per_kwh": 0.6}),
    # a card the catalog has no cloud price for, and none given: owning is costed, cloud is not compared
    ("tco", {"gpu": "h20", "gpus": 160, "capex_per_server": 1.1e6, "currency": "CNY", "years": 3}),
    # GPU comparison: on-demand cloud only or any price
    ("gpu_compare", {"gpus": ["h100-sxm", "mi300x", "rtx-4090"], "on_demand_cloud_only": False}),
    ("gpu_compare", {"gpus": ["a100-80gb-sxm", "h200"], "rank_by": "usd_per_tflop", "on_demand_cloud_only": True}),
    # warnings: each `warnings.append` in tools/ that the inputs above leave out
    ("gpus_for_deadline", {"params_b": 7, "tokens_b": 1000, "gpu": "h100-sxm", "deadline_days": 77}),
    ("gpus_for_deadline", {"params_b": 7, "tokens_b": 500, "gpu": "trainium2", "deadline_days": 14, "mfu": 0.35}),
    ("training_memory", {"model": "qwen2.5-14b", "gpus": 1, "finetune": "lora", "gpu": "a100-40gb-sxm", "seq_len": 512}),
    ("throughput_calibration", {"params_b": 7, "gpu": "a100-80gb-sxm", "gpus": 8, "tokens_per_second": 200000}),
    ("power_cost", {"server": "dgx-h100", "gpu_tdp_w": 700, "server_overhead_share": 0.2}),
    ("power_cost", {"gpu": "rtx-5090", "gpus": 2, "electricity_price_per_kwh": 8.5}),
    ("tco", {"server": "dgx-h100", "gpus": 12, "years": 3, "staff_per_year": 50000}),
    ("deepspeed_estimate", {"params_b": 7, "zero_stage": 2, "zero2_formula": "docs"}),
    ("gpu_compare", {"gpus": ["v100-sxm2-32gb", "tpu-v5e", "h100-sxm"], "rank_by": "usd_per_tflop"}),
    ("training_memory", {"model": "llama-2-70b", "gpus": 48, "tensor_parallel": 16, "pipeline_parallel": 3}),
    ("training_memory", {"params_b": 7, "gpus": 1, "zero_stage": 2, "gpu": "h100-sxm"}),
    ("storage", {"params_b": 70, "dataset_tokens_b": 1, "lora_rank": 16}),
    ("host_ram", {"gpu": "h100-sxm", "current_ram_gb": 16}),
    ("host_ram", {"gpu": "h100-sxm", "current_ram_gb": 1024}),
    ("inference_memory", {"model": "deepseek-v3", "weight_precision": "fp8", "gpu": "h200", "tensor_parallel": 8,
                          "gpus": 8, "context_tokens": 4096}),
    ("inference_memory", {"model": "llama-3-8b", "weight_precision": "fp8", "gpu": "a100-80gb-sxm",
                          "gpu_memory_utilization": 0.97}),
    ("inference_memory", {"model": "llama-3-8b", "gpu": "l40s", "batch": 20, "context_tokens": 8192}),
    ("network", {"params_b": 7, "gpu": "a100-80gb-pcie", "gpus_per_node": 8}),
    ("network", {"params_b": 70, "gpu": "h100-sxm", "nodes": 4, "inter_node_gbit_s_per_gpu": 100, "step_time_s": 1}),
    ("network", {"params_b": 70, "gpu": "h100-sxm", "nodes": 8, "step_time_s": 1, "target_comm_share": 0.05}),
    ("network", {"params_b": 70, "gpu": "h100-sxm", "nodes": 8, "step_time_s": 4, "target_comm_share": 0.2}),
    ("storage", {"model": "llama-3-70b", "dataset_tokens_b": 1000, "nodes": 2, "checkpoint_write_seconds": 5}),
    ("storage", {"params_b": 7, "dataset_tokens_b": 100, "checkpoint_write_seconds": 600,
                 "checkpoint_interval_hours": 1}),
    ("storage", {"model": "llama-3-70b", "dataset_tokens_b": 100, "local_nvme_tb_per_node": 0.1}),
    # power measured at the wall, with and without the PUE that splits it into IT load and cooling
    ("power_cost", {"gpu": "h100-sxm", "gpus": 8, "wall_power_kw": 15}),
    ("power_cost", {"gpu": "h100-sxm", "gpus": 8, "wall_power_kw": 15, "pue": 1.4}),
    # a checkpoint sharded over servers; checkpoints kept for a time window rather than a count
    ("data_volume", {"checkpoint_tb": 1.2, "nodes": 16, "write_seconds": 120}),
    ("data_volume", {"checkpoint_tb": 1.2, "checkpoint_interval_hours": 2, "checkpoint_window_hours": 24}),
    # GPU comparison with a training job: a MoE model at Chinchilla tokens, a dense one per billion tokens;
    # a cloud price of your own, with on-demand catalog prices only or any kind
    ("gpu_compare", {"gpus": ["h100-sxm", "mi300x"], "job": {"model": "mixtral-8x7b"}}),
    ("gpu_compare", {"gpus": ["h100-sxm", "h200"], "job": {"params_b": 7, "per_billion_tokens": True}}),
    ("gpu_compare", {"gpus": ["h100-sxm", "h200"], "cloud_prices_usd": {"h100-sxm": 2.5}}),
    ("gpu_compare", {"gpus": ["h100-sxm", "h200"], "cloud_prices_usd": {"h100-sxm": 2.5}, "on_demand_cloud_only": True}),
    # host RAM of 1.5-2 TiB: 32 x 64 GB or 16 x 128 GB DIMMs
    ("host_ram", {"total_gpu_memory_gb": 900}),
    # network: the step's compute from its batch tokens at the GPU's peak
    ("network", {"params_b": 7, "gpu": "h100-sxm", "gpus_per_node": 8, "batch_tokens": 4e6}),
    # rack: a desk-side box of consumer cards
    ("rack_fit", {"rack_kw": 10, "gpu": "rtx-4090", "gpus_per_server": 4}),
    # serving: no request rate, a short context that the scheduler's batch cap limits, not memory
    ("serving_estimate", {"model": "llama-3-8b", "gpu": "h200", "prompt_tokens": 200, "output_tokens": 100,
                          "tokens_per_second_per_user": 5}),
]  # fmt: skip


def _without_scale_out(catalog: Catalog) -> Catalog:
    return catalog.model_copy(
        update={"interconnects": [c for c in catalog.interconnects if c.kind != "scale-out"]}
    )


def _without_shared_storage(catalog: Catalog) -> Catalog:
    return catalog.model_copy(update={"storage": [t for t in catalog.storage if t.kind != "parallel-fs"]})


def _without_8_gpu_servers(catalog: Catalog) -> Catalog:
    return catalog.model_copy(update={"servers": [s for s in catalog.servers if s.accelerator_count != 8]})


def _without_line_rates(catalog: Catalog) -> Catalog:
    """Scale-out links known only by their bandwidth in GB/s (the catalog allows a link without a line rate)."""
    links = [
        c.model_copy(update={"line_rate_gbit_s": None}) if c.kind == "scale-out" else c
        for c in catalog.interconnects
    ]
    return catalog.model_copy(update={"interconnects": links})


# branches that only a catalog lacking a kind of entry reaches
ON_OTHER_CATALOGS: list[tuple[str, Callable[[Catalog], Catalog], Payload]] = [
    ("no scale-out links", _without_scale_out,
     ("network", {"params_b": 70, "gpu": "h100-sxm", "nodes": 8, "step_time_s": 4, "target_comm_share": 0.2})),
    ("no shared storage", _without_shared_storage,
     ("storage", {"model": "llama-3-70b", "dataset_tokens_b": 1000, "nodes": 2})),
    ("no 8-GPU servers", _without_8_gpu_servers, ("host_ram", {"gpu": "h100-sxm"})),
    ("no line rates", _without_line_rates,
     ("network", {"params_b": 13, "gpu": "h100-sxm", "nodes": 2, "inter_node_link": "roce-400"})),
]  # fmt: skip


# --- collection --------------------------------------------------------------------------------------


def _published_payloads(catalog: Catalog) -> Iterator[tuple[str, Payload]]:
    cases = yaml.safe_load((DATA / "published_cases.yaml").read_text(encoding="utf-8"))
    for case in cases:
        for payload in MAPPERS[case["kind"]](catalog, case["inputs"]):
            yield case["id"], payload


def _conversations() -> Iterator[list[str]]:
    """The questions of every evaluation item, turn by turn."""
    for file in sorted((DATA / "eval").glob("*.yaml")):
        for item in yaml.safe_load(file.read_text(encoding="utf-8")):
            yield [turn["ask"] for turn in item["turns"]]


@dataclass(frozen=True)
class Collected:
    # each distinct sentence -> the calculator and input that wrote it first
    assumptions: dict[str, str]
    warnings: dict[str, str]
    answered: list[tuple[Route, ToolRun]]  # the evaluation questions that ran a calculator
    notes: dict[str, Note]  # the sentences written as messages (tools/messages.py), by their text


@cache
def collected() -> Collected:
    catalog = default_catalog()
    assumptions: dict[str, str] = {}
    warnings: dict[str, str] = {}
    notes: dict[str, Note] = {}

    def keep(output: dict[str, Any], origin: str) -> None:
        for note in output["messages"]:
            notes.setdefault(note["text"], Note.model_validate(note))
        for text in output["assumptions"]:
            assumptions.setdefault(text, origin)
        for text in output["warnings"]:
            warnings.setdefault(text, origin)

    failed: list[str] = []
    sources = [
        *((origin, catalog, payload) for origin, payload in _published_payloads(catalog)),
        *((f"targeted {n}", catalog, payload) for n, payload in enumerate(TARGETED)),
        *((f"{label} catalog", change(catalog), payload) for label, change, payload in ON_OTHER_CATALOGS),
    ]
    for origin, on, (tool, payload) in sources:
        try:
            keep(run(tool, payload, on).output, f"{tool} ({origin})")
        except ToolInputError as exc:
            failed.append(f"{origin}: {exc}")
    assert not failed, failed
    router, toolbox = Router(extractor=SlotExtractor(NameIndex(catalog))), ToolBox(catalog=catalog)
    answered: list[tuple[Route, ToolRun]] = []
    for questions in _conversations():
        context = Context()  # what the conversation carries, as Assistant.ask keeps it
        for question in questions:
            route = router.route(question, earlier=context)
            tools = context.tools
            context = route.context()
            if not route.tools:
                context.tools = tools
                continue
            done = toolbox.run_for(route.tools, route.slots, previous=route.previous)
            context.tools = [call.name for call in done.calls] or tools
            context.calls = done.calls
            answered.append((route, done))
            for call in done.calls:
                keep(call.output, f"{call.name} ({question})")
    return Collected(assumptions=assumptions, warnings=warnings, answered=answered, notes=notes)


# --- checks ------------------------------------------------------------------------------------------


def in_chinese(text: str) -> str | None:
    """``text`` as a Chinese answer shows it: by its message code; None when the calculator wrote plain English."""
    note = collected().notes.get(text)
    return note.in_language("zh") if note else None


def catalog_names() -> list[str]:
    catalog = default_catalog()
    groups = [catalog.accelerators, catalog.servers, catalog.interconnects, catalog.storage, catalog.models]
    names = {entry.name for group in groups for entry in group}
    names |= {a.scale_up_interconnect for a in catalog.accelerators} | {p.id for p in catalog.prices}
    return sorted(names)


NUMBER = re.compile(r"\d+(?:[.,]\d+)*")  # 989.4, 1,536, 2026-12-03 as three numbers
HAN = re.compile(r"[\u4e00-\u9fff]")


def problems(text: str, zh: str | None, names: list[str]) -> list[str]:
    """What a Chinese rendering of ``text`` lacks: Chinese, a number of the original, a name it names."""
    if zh is None:
        return ["no Chinese rendering"]
    found = [] if HAN.search(zh) else ["no Chinese characters"]
    missing = set(NUMBER.findall(text)) - set(NUMBER.findall(zh))
    if missing:
        found.append(f"numbers lost: {sorted(missing)}")
    return found + [f"name lost: {name}" for name in names if text.count(name) > zh.count(name)]
