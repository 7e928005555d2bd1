"""Accelerators side by side."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    GPUS_PER_NODE,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    assumed,
    model_into,
    num,
    pct,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog

_CRITERION_ZH = {
    "bf16_tflops": "BF16 稠密算力，越高越好",
    "fp8_tflops": "FP8 稠密算力，越高越好",
    "memory_gb": "单卡显存，越大越好",
    "memory_bandwidth_gb_s": "显存带宽，越高越好",
    "scale_up_bandwidth_gb_s": "卡间互联带宽（双向合计），越高越好",
    "usd_per_tflop": "每 TFLOP/s 的购置价格，越低越好",
    "usd_per_gb": "每 GB 显存的购置价格，越低越好",
    "usd_per_gb_s": "每 GB/s 显存带宽的购置价格，越低越好",
    "tflops_per_watt": "每瓦 BF16 算力，越高越好",
    "gb_s_per_tflop": "每 TFLOP/s 对应的显存带宽，越高越好",
    "cloud_usd_per_hour": "目录中最便宜的云上每卡时价格，越低越好",
    "cloud_usd_per_tflop_hour": "目录中最便宜的云上每卡时价格除以 BF16 稠密算力，越低越好",
}


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    if not slots.gpu or not slots.other_gpus:
        return None
    payload: dict[str, object] = {"gpus": [slots.gpu, *slots.other_gpus][:8]}
    if slots.rank_by:
        payload["rank_by"] = slots.rank_by
    if slots.datacenter_use:
        payload["datacenter"] = True  # "机房标准机架 7x24", "in our racks, 24/7": licence and cooling rule
    assumptions = []
    if slots.job_compared and (slots.params_b or slots.model):
        # "TPU v5p slices or H100s for pretraining 30B?": the run itself on each card, hours and cost
        job: dict[str, object] = {}
        model_into(slots, job)
        if slots.tokens_b:
            job["tokens_b"] = slots.tokens_b * (slots.epochs or 1)
        elif slots.job_compared != "pretrain":
            job["per_billion_tokens"] = (
                True  # a fine-tune's data, or a run's of unknown kind, is not Chinchilla's
            )
        if slots.finetune:
            job["finetune"] = slots.finetune
        if len(slots.card_counts) >= 2:
            job["counts"] = dict(slots.card_counts)  # "512 H200 or 256 B200": each option's own count
        elif slots.gpu_count:
            job["gpus"] = slots.gpu_count
        if slots.mfu:
            job["mfu"] = slots.mfu
        payload["job"] = job
        # a cluster is rented at on-demand or reserved rates: community and spot prices are single cards
        payload["on_demand_cloud_only"] = True
    if slots.server_quotes:
        # a quote per server is each card's price: the quote / the GPUs in the server, in USD at the user's
        # rate when they gave one
        per = slots.gpus_per_node or GPUS_PER_NODE
        cny = slots.server_quotes_currency == "CNY"
        rate = slots.usd_to_cny or catalog.defaults.usd_to_cny
        payload["prices_usd"] = {
            gpu: round((amount / rate if cny else amount) / per, 2)
            for gpu, amount in slots.server_quotes.items()
            if gpu in payload["gpus"]  # type: ignore[operator]
        }
        if not slots.rank_by:
            payload["rank_by"] = "usd_per_tflop"
        assumptions.append(
            assumed(
                f"your quotes are per {per}-GPU server: each GPU's price is the quote / {per}"
                + (f", converted at {num(rate)} CNY per USD" if cny else ""),
                f"报价按每台 {per} 卡服务器计：每卡价格 = 报价 / {per}"
                + (f"，按每美元 {num(rate)} 元人民币换算" if cny else ""),
            )
        )
    if len(slots.card_prices) >= 2:
        # "MI300X $15k a card, H200 $30k": each card at the user's price, in USD at their rate when they gave one
        cny = slots.card_prices_currency == "CNY"
        rate = slots.usd_to_cny or catalog.defaults.usd_to_cny
        payload["prices_usd"] = {
            gpu: round(amount / rate if cny else amount, 2)
            for gpu, amount in slots.card_prices.items()
            if gpu in payload["gpus"]  # type: ignore[operator]
        }
        if not slots.rank_by or slots.rank_by in {"memory_bandwidth_gb_s", "bf16_tflops", "fp8_tflops"}:
            # what the money buys of what the job runs on: bandwidth for decoding, compute for training
            serving = slots.rank_by == "memory_bandwidth_gb_s"
            payload["rank_by"] = "usd_per_gb_s" if serving else "usd_per_tflop"
    compared = {slots.gpu, *slots.other_gpus[:7]}
    if len(set(slots.card_hourly) & compared) >= 2:
        # each card's hour at the user's price (an instance's price / the chips it holds), in USD
        rate = slots.usd_to_cny or catalog.defaults.usd_to_cny
        currency = {
            gpu: slots.card_hourly_currency.get(gpu, slots.cloud_price_currency) for gpu in slots.card_hourly
        }
        hourly = {
            gpu: round(price / rate if currency[gpu] == "CNY" else price, 4)
            for gpu, price in slots.card_hourly.items()
            if gpu in compared
        }
        if len({currency[gpu] for gpu in hourly}) > 1:
            # "海外 H100 $2.2/GPU-hr，国内租 A800 ¥6/卡时，汇率按 7.2": the yuan price in dollars, at the rate used
            shown = "; ".join(
                f"{slots.card_hourly[gpu]:g} CNY = ${hourly[gpu]:g}"
                for gpu in hourly
                if currency[gpu] == "CNY"
            )
            assumptions.append(
                assumed(
                    f"yuan prices at {rate:g} CNY per USD: {shown} per GPU-hour",
                    f"人民币价格按 {rate:g} 元/美元换算：{shown.replace('CNY', '元')}（每卡时）",
                )
            )
        payload["cloud_prices_usd"] = hourly
        if slots.card_mfu and set(slots.card_mfu) >= set(hourly):
            payload["mfu"] = {gpu: mfu for gpu, mfu in slots.card_mfu.items() if gpu in compared}
        payload["rank_by"] = (
            "cloud_usd_per_tflop_hour"  # the tool ranks by useful work when every MFU is given
        )
    return Plan(tool="gpu_compare", payload=payload, assumed=assumptions)


# what the user judges cards by when they ask for value for money
PRICE_PERFORMANCE = frozenset({"usd_per_tflop", "usd_per_gb"})


def _amount(usd: float, yuan_rate: float | None) -> str:
    """``$1,176``, or ``¥8,256`` at ``yuan_rate`` when the user's prices were in yuan."""
    return f"¥{num(usd * yuan_rate)}" if yuan_rate else f"${num(usd)}"


def _quoted(o: dict[str, Any], i: dict[str, Any], yuan_rate: float | None = None) -> tuple[str, str] | None:
    """At the user's own prices: every card's $ per GB and $ per dense BF16 PFLOP/s, cheapest first; in yuan
    at ``yuan_rate`` when the quotes were in yuan ("910B 报价 12 万一张")."""
    sign = "¥" if yuan_rate else "$"
    rows = [r for r in o["rows"] if r.get("purchase_price") and r["purchase_price"].get("as_of") is None]
    if len(rows) < 2:
        return None

    def ranked(key: str, scale: float, unit: str) -> str:
        ordered = sorted((r for r in rows if r.get(key)), key=lambda r: r[key])
        return ", ".join(f"{r['name']} {_amount(r[key] * scale, yuan_rate)}{unit}" for r in ordered)

    per_gb = ranked("usd_per_gb", 1, "/GB")
    per_pf = ranked("usd_per_bf16_tflop", 1000, "/PFLOPS")
    first_gb = min(rows, key=lambda r: r.get("usd_per_gb") or float("inf"))["name"]
    first_pf = min(rows, key=lambda r: r.get("usd_per_bf16_tflop") or float("inf"))["name"]
    memory_first = i.get("rank_by") == "usd_per_gb"
    # "which wins and by how much": the runner-up's price per PFLOP/s over the winner's
    costs = sorted(r["usd_per_bf16_tflop"] for r in rows if r.get("usd_per_bf16_tflop"))
    by_en = by_zh = ""
    if len(costs) >= 2 and costs[0]:
        lead = costs[1] / costs[0]
        by_en = f" ({num(lead)}x the compute per dollar)"
        by_zh = f"（每元算力是后者的 {num(lead)} 倍）"
    gb_en = f"by {sign} per GB of memory, **{first_gb}** is cheapest: {per_gb}"
    pf_en = f"by {sign} per dense BF16 PFLOP/s, **{first_pf}**{by_en}: {per_pf}"
    gb_zh = f"按每 GB 显存价格，**{first_gb}** 最便宜：{per_gb.replace(', ', '，')}"
    pf_zh = f"按每 PFLOPS（BF16 稠密）价格，**{first_pf}** 最便宜{by_zh}：{per_pf.replace(', ', '，')}"
    en = f"At your quotes, {gb_en}; {pf_en}." if memory_first else f"At your quotes, {pf_en}; {gb_en}."
    zh = f"按你的报价，{gb_zh}；{pf_zh}。" if memory_first else f"按你的报价，{pf_zh}；{gb_zh}。"
    if o.get("rank_by") == "usd_per_gb_s" and all(r.get("usd_per_gb_s") for r in rows):
        # serving: decoding reads every weight per token, so tokens per dollar follow the price of bandwidth
        fast = sorted(rows, key=lambda r: r["usd_per_gb_s"])
        times = num(fast[1]["usd_per_gb_s"] / fast[0]["usd_per_gb_s"])
        listed = ", ".join(f"{r['name']} ${num(r['usd_per_gb_s'])}" for r in fast)
        en = (
            f"At your quotes, **{fast[0]['name']}** gives {times}x the decode throughput per dollar (memory "
            f"bandwidth per dollar, which bounds tokens/s when serving): $ per GB/s {listed}. {en}"
        )
        zh = (
            f"按你的报价，**{fast[0]['name']}** 每美元的解码吞吐是后者的 {times} 倍（推理解码受显存带宽限制，"
            f"按每 GB/s 带宽的价格算）：{listed}。{zh}"
        )
    return en, zh


def _rented(o: dict[str, Any]) -> tuple[str, str] | None:
    """At the user's hourly prices: what a PFLOP-hour costs on each card, of peak or of work at their MFU."""
    rows = [r for r in o["rows"] if (r.get("cheapest_cloud") or {}).get("pricing") == "quoted"]
    useful = o.get("rank_by") == "cloud_usd_per_useful_pflop_hour"
    key = "cloud_usd_per_useful_pflop_hour" if useful else "cloud_usd_per_bf16_tflop_hour"
    scale = 1 if useful else 1000  # $ per TFLOP-hour -> per PFLOP-hour
    rows = sorted((r for r in rows if r.get(key)), key=lambda r: r[key])
    if len(rows) < 2:
        return None
    best, next_ = rows[0], rows[1]
    times = num(next_[key] / best[key])

    def each(r: dict[str, Any]) -> str:
        mfu = f" x {pct(r['mfu'])} MFU" if useful else ""
        return f"{r['name']} ${num(r[key] * scale)} (${num(r['cloud_usd_per_gpu_hour'])}/h, {num(r['bf16_dense_tflops'])} TFLOPS{mfu})"

    listed = "; ".join(each(r) for r in rows)
    if useful:
        en = (
            f"At your prices and MFUs, **{best['name']}** is {times}x cheaper per training token: "
            f"$ per PFLOP-hour of useful work (dense BF16 x MFU): {listed}."
        )
        zh = (
            f"按你的价格和 MFU，**{best['name']}** 每个训练 token 便宜 {times} 倍："
            f"每 PFLOP 小时有效算力（BF16 稠密 × MFU）的价格：{listed}。"
        )
    else:
        en = (
            f"At your prices, **{best['name']}** gives {times}x the compute per dollar (same MFU assumed): "
            f"$ per dense BF16 PFLOP-hour: {listed}."
        )
        zh = (
            f"按你的价格，**{best['name']}** 每美元算力是后者的 {times} 倍（按相同 MFU）："
            f"每 PFLOP 小时（BF16 稠密）的价格：{listed}。"
        )
    return en, zh


def _job_model(job: dict[str, Any]) -> str:
    """The run's model as the reader knows it: the preset's name, or its size (and active size) when derived."""
    if "derived" not in job["model"]:
        return str(job["model"])
    active = f" ({num(job['active_params_b'])}B active)" if job["active_params_b"] < job["params_b"] else ""
    return f"{num(job['params_b'])}B{active}"


def _days_lead(rows: list[dict[str, Any]], counts: dict[str, int], job: dict[str, Any]) -> tuple[str, str]:
    """Each option at its own count: which finishes first, and the GPU-hours each burns."""
    rows = sorted(rows, key=lambda r: r["job_days"])
    best, worst = rows[0], rows[-1]
    model = _job_model(job)
    tokens = "" if job["per_billion_tokens"] else f" on {num(job['tokens_b'])}B tokens"
    tokens_zh = "" if job["per_billion_tokens"] else f"（{num(job['tokens_b'])}B token）"
    mfu = pct(best["job_mfu"])
    ratio = worst["job_days"] / best["job_days"]
    times = num(ratio)
    if ratio < NEAR_TIE and all(r.get("job_cloud_usd") for r in rows):
        # "512 v5p or 256 v6e?": the same days either way, so what the run costs on each decides
        cheap = sorted(rows, key=lambda r: r["job_cloud_usd"])
        lo, hi = cheap[0], cheap[-1]
        en = (
            f"{counts[best['id']]} x {best['name']} and {counts[worst['id']]} x {worst['name']} finish {model}{tokens} "
            f"in about the same time ({num(best['job_days'])} vs {num(worst['job_days'])} days at {mfu} MFU), so the "
            f"price decides: **{lo['name']}** costs about **${num(lo['job_cloud_usd'])}** against "
            f"${num(hi['job_cloud_usd'])} ({num(hi['job_cloud_usd'] / lo['job_cloud_usd'])}x less) at catalog cloud rates."
        )
        zh = (
            f"{counts[best['id']]} 张 {best['name']} 和 {counts[worst['id']]} 张 {worst['name']} 训完 {model}{tokens_zh} "
            f"用时相近（{num(best['job_days'])} 对 {num(worst['job_days'])} 天，MFU {mfu}），所以看价格：**{lo['name']}** "
            f"约 **${num(lo['job_cloud_usd'])}**，另一种要 ${num(hi['job_cloud_usd'])}"
            f"（便宜 {num(hi['job_cloud_usd'] / lo['job_cloud_usd'])} 倍，按目录云价）。"
        )
        return en, zh
    en = (
        f"**{counts[best['id']]} x {best['name']}** finishes {model}{tokens} first: about **{num(best['job_days'])} "
        f"days** against {num(worst['job_days'])} on {counts[worst['id']]} x {worst['name']} ({times}x), at {mfu} MFU "
        f"({num(best['job_gpu_hours'])} vs {num(worst['job_gpu_hours'])} GPU-hours)."
    )
    zh = (
        f"**{counts[best['id']]} 张 {best['name']}** 训完 {model}{tokens_zh} 更快：约 **{num(best['job_days'])} 天**，"
        f"{counts[worst['id']]} 张 {worst['name']} 要 {num(worst['job_days'])} 天（{times} 倍，MFU {mfu}；"
        f"{num(best['job_gpu_hours'])} 对 {num(worst['job_gpu_hours'])} 卡时）。"
    )
    return en, zh


_JOB_EN = {
    None: "Pre-training",
    "full": "Full fine-tuning",
    "lora": "LoRA fine-tuning",
    "qlora": "QLoRA fine-tuning",
}
_JOB_ZH = {None: "预训练", "full": "全参微调", "lora": "LoRA 微调", "qlora": "QLoRA 微调"}


def job_lead(
    o: dict[str, Any], *, by_time: bool = False, yuan_rate: float | None = None
) -> tuple[str, str] | None:
    """The run on each card: its cost at each card's cloud price (its GPU-hours when a card has no price, or
    with ``by_time``: "which one fine-tunes it faster?"), the better card first, and the days on the GPUs given.
    With ``yuan_rate`` (the prices were given in yuan: "¥28/卡时"), the costs are in yuan at that rate."""
    job = o["job"]
    rows = [r for r in o["rows"] if r.get("job_gpu_hours")]
    if len(rows) < 2:
        return None
    counts = job.get("counts") or {}
    # "512 H200 or 256 B200": options of their own sizes are weighed on the days each takes
    by_days = len(set(counts.values())) > 1 and all(r.get("job_days") for r in rows)
    if by_days:
        return _days_lead(rows, counts, job)
    priced = all(r.get("job_cloud_usd") for r in rows) and not by_time
    key = "job_cloud_usd" if priced else "job_gpu_hours"
    rows = sorted(rows, key=lambda r: r[key])
    best, worst = rows[0], rows[-1]
    kind = job.get("finetune")
    model = _job_model(job)
    per = job["per_billion_tokens"]
    if kind is None and per:
        kind = "training"  # a run of unnamed kind: neither pre-training nor a fine-tune said
    what_en = f"{_JOB_EN.get(kind, 'Training')} {model}" + (
        " per billion tokens" if per else f" on {num(job['tokens_b'])}B tokens"
    )
    what_zh = f"{model} {_JOB_ZH.get(kind, '训练')}" + (
        "每十亿 token" if per else f"（{num(job['tokens_b'])}B token）"
    )
    mfu = pct(best["job_mfu"])

    def cost(usd: float) -> str:
        return _amount(usd, yuan_rate)

    def hours(r: dict[str, Any]) -> str:
        return f"{num(r['job_gpu_hours'])} GPU-hours at {cost(r['cloud_usd_per_gpu_hour'])}/h"

    def hours_zh(r: dict[str, Any]) -> str:
        return f"{num(r['job_gpu_hours'])} 卡时 × 每卡时 {cost(r['cloud_usd_per_gpu_hour'])}"

    times = worst[key] / best[key]
    if priced and times < NEAR_TIE:
        en = (
            f"{what_en} costs about the same on {best['name']} ({cost(best[key])}: {hours(best)}) and on "
            f"{worst['name']} ({cost(worst[key])}: {hours(worst)}), at {mfu} MFU"
        )
        zh = (
            f"{what_zh}在 {best['name']}（{cost(best[key])}：{hours_zh(best)}）和 {worst['name']}"
            f"（{cost(worst[key])}：{hours_zh(worst)}）上花费相近（MFU {mfu}）"
        )
    elif priced:
        en = (
            f"{what_en} is cheaper on **{best['name']}**: about **{cost(best[key])}** ({hours(best)}) against "
            f"{cost(worst[key])} on {worst['name']} ({hours(worst)}), {num(times)}x less, at {mfu} MFU"
        )
        zh = (
            f"{what_zh}用 **{best['name']}** 更省钱：约 **{cost(best[key])}**（{hours_zh(best)}），"
            f"{worst['name']} 要 {cost(worst[key])}（{hours_zh(worst)}），相差 {num(times)} 倍（MFU {mfu}）"
        )
    elif times < NEAR_TIE:
        en = (
            f"{what_en} takes about the same time on {best['name']} and {worst['name']}: {num(best[key])} vs "
            f"{num(worst[key])} GPU-hours at {mfu} MFU"
        )
        zh = f"{what_zh}在 {best['name']} 和 {worst['name']} 上用时相近：{num(best[key])} 对 {num(worst[key])} 卡时（MFU {mfu}）"
    else:
        en = (
            f"{what_en} is {num(times)}x faster on **{best['name']}**: {num(best[key])} GPU-hours against "
            f"{num(worst[key])} on {worst['name']}, at {mfu} MFU"
        )
        zh = (
            f"{what_zh}用 **{best['name']}** 快 {num(times)} 倍：{num(best[key])} 卡时，{worst['name']} 要 "
            f"{num(worst[key])} 卡时（MFU {mfu}）"
        )
    if not by_time and (unpriced := [r["name"] for r in rows if not r.get("job_cloud_usd")]):
        en += f"; {' and '.join(unpriced)} has no catalog cloud price: give its price per hour to compare the cost"
        zh += f"；目录里没有 {'、'.join(unpriced)} 的云上价格，给出每小时价格即可比较费用"
    if job.get("gpus") and best.get("job_days") and worst.get("job_days"):
        en += f"; on {job['gpus']} of each it runs {num(best['job_days'])} vs {num(worst['job_days'])} days"
        zh += f"；各用 {job['gpus']} 张，分别需 {num(best['job_days'])} 天和 {num(worst['job_days'])} 天"
    return en + ".", zh + "。"


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    rows_in = o["rows"]
    first = rows_in[0] if rows_in else {}
    ranking = o.get("ranking") or []
    top = ranking[0]["name"] if ranking else first.get("name", "")
    en = f"Side by side ({o['ranking_criterion']}): **{top}** ranks first."
    zh = f"对比（排序依据：{_CRITERION_ZH.get(o.get('rank_by', ''), o['ranking_criterion'])}）：**{top}** 排第一。"
    if 2 <= len(rows_in) <= 3:
        # a few cards: the figures that tell them apart, in one sentence
        def vs(key: str) -> str:
            return " vs ".join(num(r.get(key)) for r in rows_in)

        names = " vs ".join(r["name"] for r in rows_in)
        figures = (
            f"{vs('bf16_dense_tflops')} dense BF16 TFLOPS, {vs('memory_gb')} GB at {vs('memory_bandwidth_gb_s')} GB/s, "
            f"{vs('tdp_w')} W, scale-up {vs('scale_up_bandwidth_gb_s')} GB/s"
        )
        figures_zh = (
            f"BF16 稠密算力 {vs('bf16_dense_tflops')} TFLOPS，显存 {vs('memory_gb')} GB、带宽 {vs('memory_bandwidth_gb_s')} GB/s，"
            f"功耗 {vs('tdp_w')} W，卡间互联 {vs('scale_up_bandwidth_gb_s')} GB/s"
        )
    lead = _lead(o, against=(call.input.get("gpus") or [None])[0] if view.asked == "ratio" else None)
    quoted = call.input.get("prices_usd") and _quoted(o, call.input, view.yuan_rate())
    if quoted:
        lead = quoted  # the user's quotes answer: every card at its price, per GB and per PFLOP/s
    if call.input.get("cloud_prices_usd") and (rented := _rented(o)):
        lead = rented  # the user's hourly prices answer: a PFLOP-hour on each card, of peak or of useful work
    # "按 bf16 算力/价格比哪个划算？910B 12 万一张": compute per money was asked, so the quotes lead, not the run
    by_money = bool(quoted) and view.rank_by in PRICE_PERFORMANCE
    if (
        o.get("job")
        and not by_money
        and (run := job_lead(o, by_time=view.asked == "ratio", yuan_rate=view.yuan_rate()))
    ):
        lead = run  # "TPU v5p or H100 for this run?": what the run costs and how long it takes on each
    if lead:
        en, zh = lead  # who leads and by how much says what "ranks first" would
    if pick := o.get("datacenter_pick"):
        # racks running around the clock: a GeForce card's licence rules it out, whatever it leads on
        consumer = " and ".join(r["name"] for r in rows_in if r.get("segment") == "consumer")
        en = (
            f"For data-centre racks running around the clock, **{pick}**: {consumer} is a consumer card (the "
            f"GeForce driver licence excludes data-centre deployment) with cooling built for desktop cases. {en}"
        )
        zh = (
            f"机房机架 7x24 运行选 **{pick}**：{consumer} 是消费级卡（GeForce 驱动许可不允许数据中心部署），"
            f"散热也是按台式机箱设计的。{zh}"
        )
    if 2 <= len(rows_in) <= 3:
        en = f"{en} {names}: {figures}." if lead else f"{names}: {figures}. {en}"
        zh = f"{zh}{names}：{figures_zh}。" if lead else f"{names}：{figures_zh}。{zh}"
    rows = [Row(en=r["name"], zh=r["name"],
                value=f"{num(r.get('memory_gb'))} GB {r.get('memory_type', '')}, {num(r.get('memory_bandwidth_gb_s'))} GB/s, "
                      f"{num(r.get('bf16_dense_tflops'))} BF16 TFLOPS, {num(r.get('tdp_w'))} W"
                      + (f", ${num(r['usd_per_bf16_tflop'])}/TFLOP" if r.get("usd_per_bf16_tflop") else "")
                      + (f"; the run {num(r['job_gpu_hours'])} GPU-h" if r.get("job_gpu_hours") else "")
                      + (f", {num(r['job_days'])} days" if r.get("job_days") else "")
                      + (f", ${num(r['job_cloud_usd'])}" if r.get("job_cloud_usd") else ""))
            for r in rows_in]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


_FIGURES = [("memory_gb", "memory", "显存", "GB"), ("memory_bandwidth_gb_s", "memory bandwidth", "显存带宽", "GB/s"),
            ("scale_up_bandwidth_gb_s", "GPU-to-GPU link", "卡间互联", "GB/s"), ("fp8_dense_tflops", "FP8", "FP8 算力", "TFLOPS"),
            ("tdp_w", "power", "功耗", "W")]  # fmt: skip


def _apart(rows: list[dict[str, Any]]) -> tuple[str, str]:
    """What tells tied cards apart ("A800 和 A100 有啥区别": the GPU-to-GPU link), as a clause."""
    if len(rows) != 2:
        return "", ""
    differ = [(en, zh, unit, a, b) for key, en, zh, unit in _FIGURES
              if (a := rows[0].get(key)) != (b := rows[1].get(key))]  # fmt: skip
    reach = _reach(rows)
    if not differ and not reach:
        return "; the catalog's figures are the same", "；目录中的各项指标相同"
    en = ", ".join(
        ([reach[0]] if reach else [])
        + [
            f"{name} {num(a) if a else 'none'} vs {num(b) if b else 'none'} {unit}"
            for name, _, unit, a, b in differ
        ]
    )
    zh = "，".join(
        ([reach[1]] if reach else [])
        + [
            f"{name} {num(a) if a else '无'} 对 {num(b) if b else '无'} {unit}"
            for _, name, unit, a, b in differ
        ]
    )
    return f"; they differ in {en}", f"；区别在于{zh}"


def _reach(rows: list[dict[str, Any]]) -> tuple[str, str] | None:
    """How many cards each one's GPU-to-GPU link joins, when that differs: a PCIe A100's NVLink bridge joins a
    pair (the other cards talk over PCIe) where the SXM A100's NVSwitch joins all eight, at the same 600 GB/s
    per card. That, not the peak, is what sets them apart for sharded multi-GPU training."""
    if len(rows) != 2:
        return None
    cards = [r.get("scale_up_cards") if r.get("scale_up_bandwidth_gb_s") else 0 for r in rows]
    if cards[0] == cards[1] or 0 in cards:
        return None

    def joins(row: dict[str, Any], n: int | None) -> tuple[str, str]:
        if n:
            return (
                f"on {row['name']} an NVLink bridge joins {n} cards (the rest talk over PCIe)",
                f"{row['name']} 的 NVLink 桥接只连 {n} 张卡、其余走 PCIe",
            )
        return f"on {row['name']} every card of the server is linked", f"{row['name']} 整机所有卡互联"

    (a_en, a_zh), (b_en, b_zh) = (joins(row, n) for row, n in zip(rows, cards, strict=True))
    return f"GPU-to-GPU link: {a_en}, {b_en}", f"卡间互联：{a_zh}，{b_zh}"


# two cards closer than this on the criterion ranked are called nearly equal, not a winner and a loser
NEAR_TIE = 1.1


def _lead(o: dict[str, Any], against: str | None = None) -> tuple[str, str] | None:
    """The answer to "which is faster, and by how much?": the first card over the last on the criterion (or
    over ``against``, the card one has now, for an upgrade), or a tie called a tie."""
    ranking = sorted(o.get("ranking") or [], key=lambda r: r["rank"])
    label = o["ranking_criterion"].split(",")[0]
    label_zh = _CRITERION_ZH.get(o.get("rank_by", ""), label).split("，")[0]
    rows = {r.get("id"): r for r in o.get("rows") or []}
    if against and against in rows and against not in {r["id"] for r in ranking} and ranking:
        # "现有V100要不要升级": the card one has lacks the figure (V100 has no BF16); the best one, and why
        name = rows[against]["name"]
        return (
            f"On {label}, **{ranking[0]['name']}** leads ({num(ranking[0]['value'])}); {name} has no {label} "
            "figure (it predates that format), so its jobs run in FP16 or FP32 instead.",
            f"按{label_zh}，**{ranking[0]['name']}** 最高（{num(ranking[0]['value'])}）；{name} 不支持这种格式"
            "（没有对应指标），只能用 FP16 或 FP32 训练。",
        )
    if (
        against
        and len(ranking) > 1
        and (base := next((r for r in ranking if r["id"] == against), None))
        and base["rank"] != ranking[0]["rank"]
    ):
        # the upgrade over the card one has; "B200 比 H200 快多少" names the faster card first, and it stays first
        ranking = [*(r for r in ranking if r["id"] != against), base]
    if len(ranking) < 2 or not all(r["value"] for r in ranking):
        return None
    top, bottom = ranking[0], ranking[-1]
    if top["rank"] == bottom["rank"]:
        names = " and ".join(r["name"] for r in ranking)
        apart_en, apart_zh = _apart(o.get("rows") or [])
        return (
            f"On {label}, {names} tie ({num(top['value'])}){apart_en}.",
            f"按{label_zh}，{'、'.join(r['name'] for r in ranking)} 打平（{num(top['value'])}）{apart_zh}。",
        )
    high, low = max(top["value"], bottom["value"]), min(top["value"], bottom["value"])
    times = num(high / low)
    if high / low < NEAR_TIE and len(ranking) == 2:
        # "RTX 6000 Ada or L40S?": 364 against 362 TFLOPS decides nothing; what sets them apart does
        apart_en, apart_zh = _apart(o.get("rows") or [])
        return (
            f"On {label}, {top['name']} and {bottom['name']} are nearly equal ({num(top['value'])} vs "
            f"{num(bottom['value'])}){apart_en}.",
            f"按{label_zh}，{top['name']} 与 {bottom['name']} 几乎相同（{num(top['value'])} 对 {num(bottom['value'])}）"
            f"{apart_zh}。",
        )
    # "H100 PCIe vs SXM for training?": the link's reach, beside the peak, for sharded multi-GPU training
    # (the two cards ranked: a third compared may lack the criterion's figure, "V100 has no BF16")
    reach = _reach([rows[r["id"]] for r in ranking if r["id"] in rows]) if len(ranking) == 2 else None
    return (
        f"On {label}, **{top['name']}** leads {bottom['name']} by {times}x ({num(top['value'])} vs {num(bottom['value'])})"
        + (f"; they also differ in the {reach[0]}" if reach else "")
        + ".",
        f"按{label_zh}，**{top['name']}** 胜过 {bottom['name']}：{num(top['value'])} 对 {num(bottom['value'])}，相差 {times} 倍"
        + (f"；另外，{reach[1]}" if reach else "")
        + "。",
    )


CALCULATOR = Calculator(
    name="gpu_compare",
    title=("GPU comparison", "GPU 对比"),
    triggers=words(
        r"\bcompare\b",
        r"\bvs\.?\b",
        r"versus",
        r"difference between",
        r"side by side",
        r"对比",
        r"比较",
        r"区别",
        r"哪个(?:更|好)",
        r"\breplace\b",
        r"stacks? up",
        r"替代|代替|平替|取代",
        r"差在哪|差别|有(?:什么|啥)不同|不同之处|\bwhat'?s different\b|\bhow do(?:es)? .{1,30} differ\b",
        r"\b(?:faster|slower|better|cheaper)\b[^?.]{0,30}\bthan\b",
        # "better to add more A100s or buy H100s?": two cards weighed against each other
        r"\b(?:better|best|smarter|wiser)\b[^?.]{0,12}\bto\b[^?.]{0,40}\bor\b",
        r"比\s*\S{1,12}?(?:快|慢|强|弱)",
        # "if we upgrade A100 to B200, how much faster?", "从A100换到H100能快多少"
        r"how much (?:faster|slower|quicker|better|more throughput)",
        r"\bspeed[- ]?ups?\b",
        r"\bx faster\b",
        r"(?:快|提升|提速|加速)(?:了)?\s*(?:多少|几倍|多少倍)",
        r"(?:快|强)几倍",
        r"差(?:多少|几倍|距(?:有)?多大)|相差多少|差距(?:有)?多大|\bhow big (?:is )?the gap\b|\bhow far behind\b",
        r"\bcompared? (?:to|with)\b",
        r"\bagainst (?:the |our )?",
        r"相比|相较|跟.{1,16}比|和.{1,16}比",
        # "…or…, which gives more per dollar?", "性价比哪个高", "谁更划算"
        r"\bwhich\b[^?.]{0,30}\b(?:better|more|less|faster|cheaper|wins|best|gives|offers)\b",
        r"哪个(?:高|低|强|划算|便宜|快|值|合适)",
        r"谁(?:更|的)?(?:好|强|高|快|划算|便宜)",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"compare", "ratio"}),
)
