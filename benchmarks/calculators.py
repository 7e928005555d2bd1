"""Time every calculator on a typical input: the target is under 1 ms per calculation on this machine.

    python benchmarks/calculators.py [--repeat 200]

Each calculator runs through the registry (validation included), as the assistant and the API call it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from knowledge.catalog import default_catalog
from tools.registry import TOOLS, run

TYPICAL: dict[str, dict[str, Any]] = {
    "training_memory": {
        "model": "llama-2-70b",
        "gpus": 64,
        "tensor_parallel": 8,
        "zero_stage": 1,
        "gpu": "H100",
    },
    "deepspeed_estimate": {"params_b": 2.851, "largest_layer_params": 32e6, "gpus_per_node": 8},
    "training_compute": {"params_b": 70, "tokens_b": 2000, "gpu": "H100", "gpus": 512},
    "gpus_for_deadline": {"params_b": 70, "tokens_b": 2000, "gpu": "H100", "deadline_days": 30},
    "throughput_calibration": {"params_b": 7, "tokens_b": 2000, "gpus": 8, "tokens_per_second_per_gpu": 3500},
    "cluster_plan": {"params_b": 70, "tokens_b": 2000, "deadline_days": 60},
    "storage": {"model": "llama-2-70b", "dataset_tokens_b": 2000, "nodes": 8},
    "host_ram": {"gpu": "H100", "gpus_per_node": 8},
    "network": {
        "params_b": 70,
        "nodes": 8,
        "gpus_per_node": 8,
        "gpu": "H100",
        "inter_node_link": "NDR",
        "step_time_s": 10,
    },
    "power_cost": {"server": "dgx-h100", "gpus": 64},
    "cloud_cost": {"gpu": "H100", "gpu_hours": 100_000},
    "tco": {"gpu": "H100", "gpus": 64, "years": 3, "utilization": 0.7},
    "quote": {"unit_price": 290_000, "count": 6, "extra_share": 0.15, "months": 48, "gpus_per_item": 8},
    "inference_memory": {"model": "llama-2-70b", "gpu": "H100", "tensor_parallel": 4, "context_tokens": 4096},
    "gpu_compare": {"gpus": ["H100", "H200", "MI300X", "B200"]},
    "run_time": {"gpu_hours": 200_000, "gpus": 1024},
    "scaling": {"gpus_from": 64, "rate_from": 1.2e6, "gpus_to": 256, "rate_to": 4.1e6},
    "compute_optimal": {"budget": 500_000, "price_per_gpu_hour": 2},
    "model_capacity": {"gpu": "rtx-6000-ada", "gpus": 4},
    "data_volume": {"tokens_b": 8000, "checkpoint_tb": 1.8, "checkpoints_kept": 10},
    "fabric": {"nodes": 32},
    "rack_fit": {"rack_kw": 40, "server": "dgx-h100"},
    "budget_fit": {"budget": 3_000_000, "gpu": "H100"},
    "serving_cost": {"tokens_per_second_per_gpu": 2500, "price_per_gpu_hour": 2.5},
    "serving_capacity": {"demand_tokens_per_second": 50_000, "tokens_per_second_per_server": 6000},
    "serving_estimate": {"model": "llama-3-70b", "gpu": "H100", "requests_per_second": 10},
    "gpu_spec": {"gpus": ["H100", "B200"], "fields": ["memory_gb", "bf16_dense_tflops"]},
    "driver_check": {"driver": "535", "cuda": "12.8", "gpu": "h100-sxm"},
}


def time_calculators(repeat: int) -> dict[str, list[float]]:
    """Milliseconds of each of ``repeat`` runs of every calculator on its typical input, after a warm-up."""
    catalog = default_catalog()
    timings: dict[str, list[float]] = {}
    for name in TOOLS:
        payload = TYPICAL[name]
        run(name, payload, catalog)  # warm-up
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            run(name, payload, catalog)
            times.append((time.perf_counter() - start) * 1000)
        timings[name] = times
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=200, help="runs per calculator")
    args = parser.parse_args()
    missing = sorted(set(TOOLS) - set(TYPICAL))
    if missing:
        print(f"no typical input for: {', '.join(missing)}", file=sys.stderr)
        return 1
    print(f"{'calculator':<24} {'median ms':>10} {'p95 ms':>8}")
    for name, times in time_calculators(args.repeat).items():
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"{name:<24} {statistics.median(times):>10.3f} {p95:>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
