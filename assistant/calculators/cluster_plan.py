"""Which accelerators, how many and what they cost, for a model within a deadline or budget."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    Assumed,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    assumed,
    model_into,
    num,
    to_usd,
    tokens_into,
    usd,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog

DEFAULT_PLAN_DEADLINE_DAYS = 90


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if not model_into(slots, payload):
        return None
    tokens_into(slots, payload, assumptions, catalog)
    if slots.mfu:
        payload.update(mfu=slots.mfu, mfu_low=min(0.35, slots.mfu), mfu_high=max(0.5, slots.mfu))
    else:
        assumptions.append(assumed("MFU 40% on every GPU", "所有 GPU 均按 MFU 40%"))
    if slots.deadline_days:
        payload["deadline_days"] = slots.deadline_days
    elif not slots.budget:
        # without a deadline the cheapest plan is the smallest cluster that holds the model, which can
        # take years; size for a typical pre-training window instead, and say so
        payload["deadline_days"] = DEFAULT_PLAN_DEADLINE_DAYS
        assumptions.append(
            assumed(
                f"deadline {DEFAULT_PLAN_DEADLINE_DAYS} days (a typical pre-training window; give yours to re-plan)",
                f"工期按 {DEFAULT_PLAN_DEADLINE_DAYS} 天计（常见的预训练周期；告诉我你的工期可重新规划）",
            )
        )
    if slots.budget:
        payload["budget_usd"] = round(to_usd(slots.budget, slots.budget_currency, catalog), 2)
        if slots.budget_currency == "CNY":
            rate = catalog.defaults.usd_to_cny
            assumptions.append(
                assumed(f"budget converted at {rate:g} CNY per USD", f"预算按 1 美元 = {rate:g} 元换算")
            )
    if slots.gpu:
        # the card the user named is the plan ("Ascend 910B 跑 70B 要多少卡"), priced or not
        payload["candidates"] = [slots.gpu, *slots.other_gpus]
    if slots.seq_len:
        payload["seq_len"] = slots.seq_len
    ask = None
    if not slots.deadline_days and not slots.budget:
        ask = assumed("What is the deadline or the budget?", "有什么工期或预算要求？")
    return Plan(tool="cluster_plan", payload=payload, assumed=assumptions, ask=ask)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    options = o["options"]
    if not options:
        return Summary(
            headline_en=o["recommendation"],
            headline_zh="没有候选 GPU 能装下这个模型。",
            inputs=[],
            results=[],
        )
    first = options[0]
    cost = (
        min(c for c in (first.get("cloud_usd"), first.get("buy_usd")) if c)
        if (first.get("cloud_usd") or first.get("buy_usd"))
        else None
    )
    en = o["recommendation"][0].upper() + o["recommendation"][1:] + "."
    # a Chinese reader sees yuan first, dollars beside, at the catalog's dated rate
    cost_zh = f"¥{num(first['cost_cny'])}（${num(cost)}）" if first.get("cost_cny") else f"${num(cost)}"
    zh = (
        f"推荐 **{num(first['gpus'])} 张 {first['gpu']}**（{num(first['nodes'])} 台服务器）：约 {num(first['days'])} 天"
        + (f"，约 {cost_zh}" if cost else "")
        + ("" if cost or not i.get("budget_usd") else f"（目录里没有 {first['gpu']} 的价格，无法按预算核对）")
        + "。"
    )
    budget_zh = f"¥{num(o['budget_cny'])}（${num(i.get('budget_usd'))}）" if o.get("budget_cny") else ""
    if first.get("meets_deadline") is False:
        zh = f"没有方案能在 {num(i.get('deadline_days'))} 天内完成；最接近的是 {first['gpu']}，约 {num(first['days'])} 天。"
    elif first.get("within_budget") is False:
        zh = f"没有方案在预算 {budget_zh} 以内；最便宜的是 {first['gpu']}，约 {cost_zh}。"
    results = [Row(en=f"{n}. {opt['gpu']}", zh=f"{n}. {opt['gpu']}",
                   value=f"{num(opt['gpus'])} GPUs, {num(opt['days'])} d, cloud {usd(opt.get('cloud_usd'))}, buy {usd(opt.get('buy_usd'))}")
               for n, opt in enumerate(options[:5], 1)]  # fmt: skip
    inputs = [Row(en="Training tokens", zh="训练 token", value=f"{num(o['tokens_b'])}B"),
              Row(en="Deadline", zh="工期", value=f"{num(i.get('deadline_days'))} d" if i.get("deadline_days") else "-"),
              Row(en="Budget", zh="预算", value=f"${num(i.get('budget_usd'))} (¥{num(o.get('budget_cny'))})" if i.get("budget_usd") else "-")]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=inputs, results=results)


CALCULATOR = Calculator(
    name="cluster_plan",
    title=("Cluster options", "集群方案"),
    triggers=words(
        r"which (?:gpu|accelerator|card|hardware)",
        r"what (?:gpu|hardware|cluster) should",
        r"(?:what|which) (?:kind of |size of )?(?:cluster|setup|configuration|config)\b",
        r"(?:what|which) (?:gpus?|hardware|cards?) (?:do|would|will) (?:we|i) need",
        r"配(?:什么|多大的?)(?:集群|配置)",
        r"(?:要|需要)什么(?:样的)?(?:集群|配置)",
        r"recommend.*(?:gpu|cluster|server)",
        r"best (?:gpu|option|choice)",
        r"cluster plan",
        r"what should (?:i|we) buy",
        r"选(?:什么|哪种|哪个|哪款)(?:卡|gpu|显卡|服务器)?",
        r"(?:用|买|上)(?:什么|哪种|哪款|啥|哪个)\s*(?:卡|gpu|显卡|加速卡)",
        r"怎么选",
        r"推荐.*(?:卡|gpu|配置|服务器)",
        # "给个方案", but never a plan of one part ("给个存储方案", "组网方案", "散热方案"): that part's calculator
        r"(?<!存储)(?<!网络)(?<!组网)(?<!散热)(?<!制冷)(?<!冷却)(?<!供电)(?<!电源)(?<!机柜)(?<!备份)(?<!部署)方案",
        r"买什么",
        r"性价比最高",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"gpus"}),
    follow_ups_en=("How much storage will the run need?", "What is the 3-year TCO of buying?"),
    follow_ups_zh=("这次训练需要多少存储？", "买卡的3年总拥有成本是多少？"),
)
