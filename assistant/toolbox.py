"""From slots to calculator runs: each calculator module builds its input (saying which defaults it
assumed and which missing input would change the result most); the toolbox runs them and chains results.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from assistant.calculators import CALCULATORS
from assistant.calculators.common import Assumed, Plan, money_into
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog
from tools.messages import Note
from tools.registry import TOOLS, ToolInputError, run

_PER_CARD = {"training_memory", "inference_memory", "budget_fit", "rack_fit"}
_MAX_CARDS = 6


class ToolRun(BaseModel):
    """What running the planned calculators produced."""

    calls: list[ToolCall] = Field(default_factory=list)
    assumed: list[Assumed] = Field(default_factory=list)
    ask: Assumed | None = None
    errors: list[str] = Field(default_factory=list, description="Calculator input problems, field by field.")
    error_messages: dict[str, Note] = Field(
        default_factory=dict,
        description="The errors written as messages, by their text: for other languages.",
    )


class ToolBox:
    """Plans and runs the calculators a route asks for, against one catalog."""

    def __init__(self, *, catalog: Catalog) -> None:
        self._catalog = catalog

    def run_for(self, tools: list[str], slots: Slots, *, previous: list[ToolCall] | None = None) -> ToolRun:
        """Run ``tools`` on ``slots``; ``previous`` are the results of the turn a follow-up continues."""
        result = ToolRun()
        for name, on in self._per_card(tools, slots, previous or [], self._other_card(slots)):
            # a training run's cloud bill is its GPU-hours ("what would that run cost at $2.20?" prices the
            # previous turn's run); "N GPUs for D days" prices a reservation only when there is no run
            plan = (
                self._cloud_after_compute(previous or [], result.calls, on)
                if name == "cloud_cost" and not on.gpu_hours
                else None
            )
            on = self._after(name, on, result.calls)
            calculator = CALCULATORS.get(name)
            plan = plan or (calculator.build(on, self._at_rate(on)) if calculator else None)
            if plan is None:
                # a follow-up that changes nothing this calculator reads ("now in CNY"): its last input again
                earlier = next((c for c in reversed(previous or []) if c.name == name), None)
                plan = Plan(tool=name, payload=earlier.input) if earlier else None
            if plan is None:
                continue
            plan = self._with_stated(plan, on)
            try:
                done = run(plan.tool, plan.payload, self._catalog)
            except ToolInputError as exc:
                for p in exc.problems:
                    result.errors.append(text := f"{p.field}: {p.message}")
                    if p.note:
                        result.error_messages[text] = p.note
                continue
            result.calls.append(ToolCall(name=done.name, input=done.input, output=done.output))
            result.assumed.extend(a for a in plan.assumed if a not in result.assumed)
            result.ask = result.ask or plan.ask
        return result

    @staticmethod
    def _with_stated(plan: Plan, slots: Slots) -> Plan:
        """``plan`` with the figures the user stated that its calculator accepts but its builder does not set:
        their exchange rate ("finance wants it in CNY, use 7.2"), a card's planned peak ("910B按320T算") and the
        model's shape ("64 layers, 8 KV heads")."""
        fields = TOOLS[plan.tool].input_model.model_fields
        stated = {
            "usd_to_cny": slots.usd_to_cny,
            "peak_tflops": slots.peak_tflops.get(str(plan.payload.get("gpu", "")))
            or slots.peak_tflops.get("*"),
        }
        if "params_b" in plan.payload or "model" in plan.payload:
            # "64 layers, 8 KV heads": the model's own shape where the calculator takes one
            stated.update(
                layers=slots.layers,
                kv_heads=slots.kv_heads,
                attention_heads=slots.attention_heads,
                hidden_size=slots.hidden_size,
            )
        added = {k: v for k, v in stated.items() if v and k in fields and k not in plan.payload}
        return plan.model_copy(update={"payload": {**plan.payload, **added}}) if added else plan

    def _at_rate(self, slots: Slots) -> Catalog:
        """The catalog, at the user's exchange rate when they gave one ("汇率 7.2"): every amount a plan converts
        (a quote in yuan beside a cloud price in dollars) converts at that rate."""
        rate = slots.usd_to_cny
        if not rate or rate == self._catalog.defaults.usd_to_cny:
            return self._catalog
        defaults = self._catalog.defaults.model_copy(update={"usd_to_cny": rate})
        return self._catalog.model_copy(update={"defaults": defaults})

    @staticmethod
    def _after(name: str, on: Slots, done: list[ToolCall]) -> Slots:
        """``on`` with what a calculator run earlier in the turn already worked out for ``name``."""
        earlier = {call.name: call for call in done}
        if name == "data_volume" and "training_compute" in earlier and not on.tokens_per_second_per_gpu:
            # the read rate of the run just timed: its tokens/s per GPU, as 4-byte token ids
            rate = earlier["training_compute"].output["tokens_per_second_per_gpu"]
            return on.model_copy(
                update={"tokens_per_second_per_gpu": rate, "token_bytes": on.token_bytes or 4}
            )
        if name == "fabric" and "budget_fit" in earlier and not on.servers:
            # "how many servers can we get? … the IB fabric": the fabric of the servers the budget buys
            servers, _ = _bought(earlier["budget_fit"])
            if servers > 1:
                return on.model_copy(update={"servers": servers})
        same_card = next(
            (c for c in reversed(done) if c.name == "budget_fit" and c.input.get("gpu") == on.gpu), None
        )
        if (
            name == "training_compute"
            and same_card is not None
            and not on.gpu_count
            and _bought(same_card)[1]
        ):
            # "预算800万 … 各要训多久": the run on the GPUs the budget buys of this card (network kept in)
            return on.model_copy(update={"gpu_count": _bought(same_card)[1]})
        if name == "model_capacity" and "budget_fit" in earlier and _bought(earlier["budget_fit"])[1]:
            # "能买几台 能训多大的模型": the model the GPUs the budget buys can hold
            return on.model_copy(update={"gpu_count": _bought(earlier["budget_fit"])[1]})
        if name == "training_memory" and "gpus_for_deadline" in earlier and not on.gpu_count:
            # the memory on the GPUs the deadline needs, not on one GPU beside it
            return on.model_copy(update={"gpu_count": earlier["gpus_for_deadline"].output["gpus"]})
        return on

    def _other_card(self, slots: Slots) -> bool:
        """Whether a card is named beside a server that does not hold it ("how many DGX B200 … how about HGX
        H200 boxes instead?"): both are then weighed where each card is."""
        return bool(
            slots.server and slots.gpu and self._catalog.server(slots.server).accelerator_id != slots.gpu
        )

    @staticmethod
    def _per_card(
        tools: list[str], slots: Slots, previous: list[ToolCall], other_card: bool = False
    ) -> list[tuple[str, Slots]]:
        """Each calculator with the slots it runs on: a memory plan runs once per card named ("H20 or L20
        for serving 70B?") or per fine-tuning method weighed ("full or LoRA?"), everything else once."""
        cards = [slots.gpu, *slots.other_gpus][:_MAX_CARDS] if slots.gpu and slots.other_gpus else []
        timed = {c.input.get("gpu") for c in previous if c.name in {"training_compute", "run_time"}}
        runs: list[tuple[str, Slots]] = []

        def at_price(card: str, price: float, **also: object) -> Slots:
            """The slots of one card, at the hourly price given for it."""
            return slots.model_copy(
                update={"gpu": card, "cloud_price_per_gpu_hour": price, "other_gpus": [], **also}
            )

        for name in tools:
            if name == "cloud_cost" and len(set(slots.card_hourly) & timed) >= 2:
                # "the cost difference if h100 is $2.10/hr and b200 is $4.60/hr": each card's run at its price
                runs.extend(
                    (name, at_price(card, price))
                    for card, price in slots.card_hourly.items()
                    if card in timed
                )
            elif name == "cloud_cost" and slots.gpu_hours and len(slots.card_hourly) >= 2:
                # "50,000 GPU-hours. AWS p5 $3.90/GPU-hr，国内某云 H800 ¥13/卡时，哪个便宜": the same hours at each price
                runs.extend(
                    (
                        name,
                        at_price(
                            card,
                            price,
                            cloud_price_currency=slots.card_hourly_currency.get(
                                card, slots.cloud_price_currency
                            ),
                        ),
                    )
                    for card, price in slots.card_hourly.items()
                )
            elif name == "rack_fit" and other_card and not cards:
                # "how many DGX B200 in a 40 kW rack? how about HGX H200 boxes instead?": the server, then the card's
                runs.extend([(name, slots), (name, slots.model_copy(update={"server": None}))])
            elif (name in _PER_CARD and cards) or (
                name == "training_compute" and cards and "budget_fit" in tools
            ):
                # each card on its own; in builds of different sizes ("4x 4090 or 2x 5090"), at its own count
                runs.extend(
                    (
                        name,
                        slots.model_copy(
                            update={
                                "gpu": card,
                                "other_gpus": [],
                                "gpu_count": slots.card_counts.get(card, slots.gpu_count),
                            }
                        ),
                    )
                    for card in cards
                )
            elif name == "inference_memory" and len(slots.tp_options) > 1 and slots.gpu_count:
                # "TP=4 one instance vs two TP=2 instances on 4 H100s": each layout on the same GPUs
                runs.extend(
                    (name, slots.model_copy(update={"tensor_parallel": tp, "tp_options": []}))
                    for tp in slots.tp_options
                    if slots.gpu_count % tp == 0
                )
            elif name == "training_memory" and len(slots.offload_options) > 1:
                # "zero3 + offload 能省多少": the same job without offload, then with it
                runs.extend(
                    (name, slots.model_copy(update={"offload": offload, "offload_options": []}))
                    for offload in slots.offload_options
                )
            elif name == "training_memory" and len(slots.zero_options) > 1:
                # "zero1 2 3到底差在哪 7B 8卡": the memory of each stage on the same cards
                runs.extend(
                    (name, slots.model_copy(update={"zero_stage": stage})) for stage in slots.zero_options
                )
            elif name == "tco" and len(slots.utilization_options) > 1:
                # "show at 100% and 70% utilization": the same costs at each utilisation
                runs.extend(
                    (name, slots.model_copy(update={"utilization": u})) for u in slots.utilization_options
                )
            elif name == "training_memory" and len(slots.finetune_options) > 1:
                # "full finetune or LoRA on 2x 3090?": the memory of each method on the same cards
                runs.extend(
                    (name, slots.model_copy(update={"finetune": method})) for method in slots.finetune_options
                )
            else:
                runs.append((name, slots))
        return runs

    def _cloud_after_compute(
        self, previous: list[ToolCall], calls: list[ToolCall], slots: Slots
    ) -> Plan | None:
        """Cloud cost of the GPU-hours the latest training calculation produced: an estimate from a model
        size, or a run timed from a measured throughput ("at $2.49/GPU-hour, what's the bill?"). Within one
        turn the measured run prices the bill: "we measure 4,200 tokens/s/GPU … 800B tokens at $2.4" costs
        the hours that rate takes, not the 6·N·D estimate shown beside it for comparison."""
        timed = {"training_compute", "run_time", "gpus_for_deadline"}
        measured = [c for c in calls if c.name == "run_time"]
        runs = measured + [c for c in reversed([*previous, *calls]) if c.name in timed and c not in measured]
        # with a price per card, the run on that card ("h100 is $2.10/hr and b200 is $4.60/hr")
        compute = next(
            (c for c in runs if slots.card_hourly and c.input.get("gpu") == slots.gpu), None
        ) or next(iter(runs), None)
        if compute is None:
            return None
        if compute.name == "gpus_for_deadline":
            # "cloud 租 H100 $2.2/GPU-hr 大概多少钱" after a GPU count for a deadline: those GPUs for the days the
            # run takes on them, the run's own GPU-hours
            out = compute.output
            hours = round(out["gpus"] * out["days_at_gpus"] * 24, 1) if out.get("days_at_gpus") else 0
        else:
            hours = compute.output["gpu_hours"]
        if isinstance(hours, dict):
            hours = hours["expected"]
        if not hours:
            return None  # a step time without a GPU count has no GPU-hours to price
        payload: dict[str, Any] = {"gpu_hours": hours}
        if gpu := compute.input.get("gpu") or slots.gpu:
            payload["gpu"] = gpu
        money_into(slots, payload, self._catalog)
        if "cloud_price_per_gpu_hour" in payload:
            payload["price_per_gpu_hour"] = payload.pop("cloud_price_per_gpu_hour")
        payload.pop("electricity_price_per_kwh", None)
        return Plan(tool="cloud_cost", payload=payload)


def _bought(call: ToolCall) -> tuple[int, int]:
    """The servers and GPUs a budget buys, its network and storage kept in when it plans for a cluster."""
    servers = call.output.get("servers_with_fabric") or call.output.get("servers") or 0
    return servers, servers * call.input.get("gpus_per_server", 8)
