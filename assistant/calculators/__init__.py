"""One module per calculator, collected here: what the assistant needs to reach each one.

Each ``assistant/calculators/<name>.py`` defines ``CALCULATOR``: the words and example questions that
ask for its result (English and Chinese), how to build its input from the conversation's slots (with
the defaults it assumed), its summary in both languages and its follow-up questions. Adding a
calculator is its pure function in ``tools/``, its module here and tests; a calculator of
``tools.registry`` without a module fails ``tests/unit/test_calculator_modules.py``.
"""

from __future__ import annotations

from assistant.calculators import (
    budget_fit,
    cloud_cost,
    cluster_plan,
    compute_optimal,
    data_volume,
    deepspeed_estimate,
    driver_check,
    fabric,
    gpu_compare,
    gpu_spec,
    gpus_for_deadline,
    host_ram,
    inference_memory,
    model_capacity,
    network,
    power_cost,
    quote,
    rack_fit,
    run_time,
    scaling,
    serving_capacity,
    serving_cost,
    serving_estimate,
    storage,
    tco,
    throughput_calibration,
    training_compute,
    training_memory,
)
from assistant.calculators.common import Calculator, Summary, View, generic_summary
from assistant.models import ToolCall

# the order is the order in which calculators triggered by one message run
CALCULATORS: dict[str, Calculator] = {
    module.CALCULATOR.name: module.CALCULATOR
    for module in (
        gpus_for_deadline,
        training_compute,
        compute_optimal,
        training_memory,
        model_capacity,
        cluster_plan,
        storage,
        data_volume,
        host_ram,
        network,
        fabric,
        rack_fit,
        power_cost,
        tco,
        quote,
        budget_fit,
        cloud_cost,
        inference_memory,
        serving_cost,
        serving_capacity,
        serving_estimate,
        gpu_spec,
        gpu_compare,
        scaling,
        throughput_calibration,
        run_time,
        deepspeed_estimate,
        driver_check,
    )
}


def summarize(call: ToolCall, view: View | None = None) -> Summary:
    """The summary of one calculator run, in both languages, put as ``view`` asks."""
    calculator = CALCULATORS.get(call.name)
    return calculator.summarize(call, view or View()) if calculator else generic_summary(call)
