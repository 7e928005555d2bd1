"""One summary per calculator: a direct sentence with the result and the rows of its table, in EN and ZH.

Every number here is read from the calculator's output (or its validated input); nothing is computed
in the composer beyond unit formatting.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from assistant.models import ToolCall
from knowledge.text import Language


class Row(BaseModel):
    en: str
    zh: str
    value: str

    def label(self, language: Language) -> str:
        return self.zh if language == "zh" else self.en


class Summary(BaseModel):
    headline_en: str
    headline_zh: str
    inputs: list[Row]
    results: list[Row]

    def headline(self, language: Language) -> str:
        return self.headline_zh if language == "zh" else self.headline_en


def num(value: float | int | None, digits: int = 3) -> str:
    """A readable number: thousands separators, no spurious decimals, 3.15e23 for huge values."""
    if value is None:
        return "-"
    v = float(value)
    if v != 0 and (abs(v) >= 1e12 or abs(v) < 1e-3):
        mantissa, exponent = f"{v:.{digits - 1}e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if v == int(v):
        return f"{int(v)}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(v))))
    text = f"{v:,.{decimals}f}"  # 999.96 rounds to "1,000"
    # only decimals lose their trailing zeros: "110" must stay 110
    return text.rstrip("0").rstrip(".") if "." in text else text


def span(low: float | None, high: float | None) -> str:
    """``656-936``, or one number when both ends round to the same text."""
    a, b = num(low), num(high)
    return a if a == b else f"{a}-{b}"


def _usd(value: float | None) -> str:
    """``$1,156,000``, or ``-`` when there is no price (never ``$-``)."""
    return "-" if value is None else f"${num(value)}"


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def money(amount: dict[str, Any] | None) -> str:
    if not amount:
        return "-"
    return f"${num(amount.get('usd'))} (¥{num(amount.get('cny'))})"


def _model_name(inp: dict[str, Any], out: dict[str, Any]) -> str:
    arch = out.get("workload", {}).get("architecture") or out.get("architecture") or {}
    if isinstance(arch, dict) and arch.get("name") and not arch.get("derived"):
        return str(arch["name"])
    size = inp.get("params_b") or arch.get("params_b") if isinstance(arch, dict) else inp.get("params_b")
    return f"{num(size)}B" if size else "the model"


def _training_compute(call: ToolCall) -> Summary:
    i, o = call.input, call.output
    w = o["workload"]
    model, tokens, gpu = _model_name(i, o), num(w["tokens_b"]), w["gpu"]
    hours = o["gpu_hours"]
    mfu = pct(o["mfu"])
    days = o.get("days")
    if days:
        en = (
            f"Training {model} on {tokens}B tokens takes about **{num(days['expected'])} days** on {i['gpus']} x {gpu} "
            f"at {mfu} MFU (range {span(days['low'], days['high'])} days), {num(hours['expected'])} GPU-hours in all."
        )
        zh = (
            f"在 {i['gpus']} 张 {gpu} 上以 MFU {mfu} 训练 {model}（{tokens}B token）约需 **{num(days['expected'])} 天**"
            f"（区间 {span(days['low'], days['high'])} 天），共 {num(hours['expected'])} GPU 小时。"
        )
    else:
        en = (
            f"Training {model} on {tokens}B tokens needs about **{num(hours['expected'])} GPU-hours** of {gpu} at {mfu} MFU "
            f"(range {span(hours['low'], hours['high'])})."
        )
        zh = (
            f"以 MFU {mfu} 在 {gpu} 上训练 {model}（{tokens}B token）约需 **{num(hours['expected'])} GPU 小时**"
            f"（区间 {span(hours['low'], hours['high'])}）。"
        )
    inputs = [Row(en="Model", zh="模型", value=model), Row(en="Training tokens", zh="训练 token", value=f"{tokens}B"),
              Row(en="GPU", zh="GPU", value=gpu), Row(en="GPUs", zh="GPU 数量", value=num(i.get("gpus"))),
              Row(en="MFU", zh="MFU", value=mfu),
              Row(en="Dense peak per GPU", zh="单卡稠密峰值", value=f"{num(w['peak_tflops_per_gpu'])} TFLOPS")]  # fmt: skip
    results = [Row(en="Training FLOPs", zh="训练计算量", value=f"{num(w['training_flops'])} FLOPs"),
               Row(en="GPU-hours", zh="GPU 小时", value=num(hours["expected"])),
               Row(en="Tokens/s per GPU", zh="每卡 tokens/s", value=num(o["tokens_per_second_per_gpu"]))]  # fmt: skip
    if days:
        results.insert(
            0,
            Row(
                en="Wall-clock days",
                zh="训练天数",
                value=f"{num(days['expected'])} ({span(days['low'], days['high'])})",
            ),
        )
    results.append(
        Row(
            en="Chinchilla-optimal tokens",
            zh="Chinchilla 最优 token",
            value=f"{num(w['chinchilla_tokens_b'])}B",
        )
    )
    return Summary(headline_en=en, headline_zh=zh, inputs=inputs, results=results)


def _gpus_for_deadline(call: ToolCall) -> Summary:
    i, o = call.input, call.output
    w = o["workload"]
    model, gpu, rng = _model_name(i, o), w["gpu"], o["gpus_range"]
    en = (
        f"To train {model} on {num(w['tokens_b'])}B tokens within {num(i['deadline_days'])} days you need "
        f"**{num(o['gpus'])} x {gpu}** ({num(o['nodes'])} {'server' if o['nodes'] == 1 else 'servers'} of 8) "
        f"at {pct(i.get('mfu', 0.4))} MFU; {span(rng['low'], rng['high'])} GPUs across the MFU range."
    )
    zh = (
        f"要在 {num(i['deadline_days'])} 天内训完 {model}（{num(w['tokens_b'])}B token），以 MFU {pct(i.get('mfu', 0.4))} 计"
        f"需要 **{num(o['gpus'])} 张 {gpu}**（{num(o['nodes'])} 台 8 卡服务器），按 MFU 区间为 {span(rng['low'], rng['high'])} 张。"
    )
    inputs = [Row(en="Model", zh="模型", value=model), Row(en="Training tokens", zh="训练 token", value=f"{num(w['tokens_b'])}B"),
              Row(en="Deadline", zh="工期", value=f"{num(i['deadline_days'])} d"), Row(en="GPU", zh="GPU", value=gpu)]  # fmt: skip
    results = [Row(en="GPUs (whole servers)", zh="GPU 数量（整机）", value=num(o["gpus"])),
               Row(en="Exact GPUs", zh="精确值", value=num(o["exact_gpus"])),
               Row(en="Days at that count", zh="该配置训练天数", value=num(o["days_at_gpus"])),
               Row(en="Training FLOPs", zh="训练计算量", value=f"{num(w['training_flops'])} FLOPs")]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=inputs, results=results)


def _throughput(call: ToolCall) -> Summary:
    i, o = call.input, call.output
    w = o["workload"]
    en = (
        f"{num(o['tokens_per_second_per_gpu'])} tokens/s per {w['gpu']} means an MFU of **{pct(o['implied_mfu'])}**; "
        f"{num(w['tokens_b'])}B tokens then take {num(o['days'])} days on {i['gpus']} GPUs."
    )
    zh = (
        f"每张 {w['gpu']} 每秒 {num(o['tokens_per_second_per_gpu'])} token 对应 MFU **{pct(o['implied_mfu'])}**；"
        f"训完 {num(w['tokens_b'])}B token 在 {i['gpus']} 张卡上需 {num(o['days'])} 天。"
    )
    rows = [Row(en="Implied MFU", zh="折算 MFU", value=pct(o["implied_mfu"])),
            Row(en="Achieved TFLOPS per GPU", zh="单卡实际 TFLOPS", value=num(o["achieved_tflops_per_gpu"])),
            Row(en="Days", zh="天数", value=num(o["days"])), Row(en="GPU-hours", zh="GPU 小时", value=num(o["gpu_hours"]))]  # fmt: skip
    return Summary(
        headline_en=en,
        headline_zh=zh,
        inputs=[Row(en="GPUs", zh="GPU 数量", value=str(i["gpus"]))],
        results=rows,
    )


_FIX_ZH = [
    ("turn on selective activation recomputation", "开启选择性激活重计算"),
    ("shard with ZeRO stage", "使用 ZeRO stage"),
    ("(FSDP full sharding)", "（FSDP 全分片）"),
    ("use full activation recomputation", "使用完整激活重计算"),
    ("halve the micro-batch to", "把微批减半到"),
    ("(keep the global batch with gradient accumulation)", "（用梯度累积保持全局 batch）"),
    ("raise tensor parallelism to", "把张量并行提高到"),
    ("(within one NVLink node)", "（在一台 NVLink 服务器内）"),
    (
        "offload optimizer states to host RAM (ZeRO-Offload; slower steps)",
        "把优化器状态卸载到主机内存（ZeRO-Offload，速度变慢）",
    ),
    ("GPUs with ZeRO stage 3", "张卡并使用 ZeRO stage 3"),
    (
        "fine-tune with LoRA instead of full training (a different job: adapters only)",
        "改用 LoRA 微调（只训练适配器，任务性质不同）",
    ),
    (
        "fine-tune with QLoRA (4-bit base; a different job: adapters only)",
        "改用 QLoRA 微调（4 bit 底座，只训练适配器）",
    ),
    (", and ", "，并且"),
    ("use ", "使用 "),
]


def _fix_zh(text: str) -> str:
    for en, zh in _FIX_ZH:
        text = text.replace(en, zh)
    return text


def _training_memory(call: ToolCall) -> Summary:
    i, o = call.input, call.output
    b = o["per_gpu"]
    model = _model_name(i, o)
    total = num(b["total_gb"])
    where = o.get("gpu") or (f"{num(o['gpu_memory_gb'])} GB" if o.get("gpu_memory_gb") else None)
    parts_en = (
        f"weights {num(b['weights_gb'])}, gradients {num(b['gradients_gb'])}, optimizer states "
        f"{num(b['optimizer_states_gb'])}, activations {num(b['activations_gb'])} GB"
    )
    parts_zh = (
        f"权重 {num(b['weights_gb'])}、梯度 {num(b['gradients_gb'])}、优化器状态 {num(b['optimizer_states_gb'])}、"
        f"激活 {num(b['activations_gb'])} GB"
    )
    if o["fits"] is None:
        en = f"Training {model} needs about **{total} GB per GPU** ({parts_en})."
        zh = f"训练 {model} 每卡约需 **{total} GB** 显存（{parts_zh}）。"
    elif o["fits"]:
        en = (
            f"Yes: {model} fits on {where} at about **{total} GB per GPU** of {num(o['gpu_memory_gb'])} GB, "
            f"{num(o['headroom_pct'])}% headroom ({parts_en})."
        )
        zh = (
            f"放得下：{model} 在 {where} 上每卡约需 **{total} GB**（共 {num(o['gpu_memory_gb'])} GB，余量 "
            f"{num(o['headroom_pct'])}%；{parts_zh}）。"
        )
    else:
        fix = o.get("suggestion")
        en = f"No: {model} needs about **{total} GB per GPU**, more than the {num(o['gpu_memory_gb'])} GB of {where} ({parts_en})."
        zh = f"放不下：{model} 每卡约需 **{total} GB**，超过 {where} 的 {num(o['gpu_memory_gb'])} GB（{parts_zh}）。"
        if fix:
            en += f" The smallest change that fits: {fix['change']} ({num(fix['total_gb'])} GB per GPU)."
            zh += f"能放下的最小改动：{_fix_zh(fix['change'])}（每卡 {num(fix['total_gb'])} GB）。"
        else:
            en += " No one or two changes make it fit: add GPUs and shard further."
            zh += "一两处改动都放不下：需要更多 GPU 并进一步切分。"
    inputs = [Row(en="Model", zh="模型", value=model), Row(en="GPUs", zh="GPU 数量", value=str(i["gpus"])),
              Row(en="Data parallel", zh="数据并行度", value=str(o["data_parallel"])),
              Row(en="ZeRO stage", zh="ZeRO stage", value=str(i.get("zero_stage", 0))),
              Row(en="Tensor / pipeline parallel", zh="张量/流水线并行", value=f"{i.get('tensor_parallel', 1)} / {i.get('pipeline_parallel', 1)}"),
              Row(en="Precision, optimizer", zh="精度、优化器", value=f"{i.get('precision', 'bf16-mixed')}, {i.get('optimizer', 'adamw')}"),
              Row(en="Sequence x micro-batch", zh="序列长度 x 微批", value=f"{i.get('seq_len', o['architecture']['max_context'])} x {i.get('micro_batch', 1)}")]  # fmt: skip
    results = [Row(en="Weights", zh="权重", value=f"{num(b['weights_gb'])} GB"),
               Row(en="Gradients", zh="梯度", value=f"{num(b['gradients_gb'])} GB"),
               Row(en="Optimizer states", zh="优化器状态", value=f"{num(b['optimizer_states_gb'])} GB"),
               Row(en="Activations", zh="激活", value=f"{num(b['activations_gb'])} GB"),
               Row(en="Total per GPU", zh="每卡合计", value=f"{num(b['total_gb'])} GB ({num(b['total_gib'])} GiB)")]  # fmt: skip
    if o.get("host_ram_for_offload_gb_per_gpu"):
        results.append(
            Row(
                en="Host RAM for offload, per GPU",
                zh="卸载所需主机内存（每卡）",
                value=f"{num(o['host_ram_for_offload_gb_per_gpu'])} GB",
            )
        )
    return Summary(headline_en=en, headline_zh=zh, inputs=inputs, results=results)


def _cluster_plan(call: ToolCall) -> Summary:
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
    zh = (
        f"推荐 **{num(first['gpus'])} 张 {first['gpu']}**（{num(first['nodes'])} 台服务器）：约 {num(first['days'])} 天"
        + (f"，约 ${num(cost)}" if cost else "")
        + "。"
    )
    if first.get("meets_deadline") is False:
        zh = f"没有方案能在 {num(i.get('deadline_days'))} 天内完成；最接近的是 {first['gpu']}，约 {num(first['days'])} 天。"
    elif first.get("within_budget") is False:
        zh = f"没有方案在预算 ${num(i.get('budget_usd'))} 以内；最便宜的是 {first['gpu']}，约 ${num(cost)}。"
    results = [Row(en=f"{n}. {opt['gpu']}", zh=f"{n}. {opt['gpu']}",
                   value=f"{num(opt['gpus'])} GPUs, {num(opt['days'])} d, cloud {_usd(opt.get('cloud_usd'))}, buy {_usd(opt.get('buy_usd'))}")
               for n, opt in enumerate(options[:5], 1)]  # fmt: skip
    inputs = [Row(en="Training tokens", zh="训练 token", value=f"{num(o['tokens_b'])}B"),
              Row(en="Deadline", zh="工期", value=f"{num(i.get('deadline_days'))} d" if i.get("deadline_days") else "-"),
              Row(en="Budget", zh="预算", value=f"${num(i.get('budget_usd'))}" if i.get("budget_usd") else "-")]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=inputs, results=results)


def _storage(call: ToolCall) -> Summary:
    o = call.output
    en = (
        f"Plan about **{num(o['total_tb'])} TB** of storage ({num(o['total_tib'])} TiB) with headroom: dataset "
        f"{num(o['tokenized_gb'])} GB tokenized, full checkpoints {num(o['full_checkpoint_gb'])} GB each, "
        f"{num(o['checkpoint_write_gb_s'])} GB/s to write one in time; hot tier: {o['recommended_tier']}."
    )
    zh = (
        f"建议准备约 **{num(o['total_tb'])} TB** 存储（{num(o['total_tib'])} TiB，含余量）：分词后数据 {num(o['tokenized_gb'])} GB，"
        f"每个完整检查点 {num(o['full_checkpoint_gb'])} GB，按时写完需 {num(o['checkpoint_write_gb_s'])} GB/s；热数据层：{o['recommended_tier']}。"
    )
    rows = [Row(en="Tokenized dataset", zh="分词后数据", value=f"{num(o['tokenized_gb'])} GB"),
            Row(en="Weights-only checkpoint", zh="仅权重检查点", value=f"{num(o['weights_only_checkpoint_gb'])} GB"),
            Row(en="Full checkpoint", zh="完整检查点", value=f"{num(o['full_checkpoint_gb'])} GB"),
            Row(en="Checkpoints retained", zh="保留检查点", value=f"{o['checkpoints_retained']} ({num(o['checkpoints_gb'])} GB)"),
            Row(en="Total with headroom", zh="含余量合计", value=f"{num(o['total_tb'])} TB"),
            Row(en="Checkpoint write bandwidth", zh="检查点写入带宽", value=f"{num(o['checkpoint_write_gb_s'])} GB/s")]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


def _host_ram(call: ToolCall) -> Summary:
    o = call.output
    en = (
        f"Fit **{num(o['recommended_ram_gib'])} GB of RAM per server** ({o['dimm_layout']}) for {o['gpus_per_node']} x {o['gpu']} "
        f"with {num(o['total_gpu_memory_gb'])} GB of GPU memory: host RAM is sized at {num(o['ratio'])}x GPU memory, not desktop figures."
    )
    zh = (
        f"每台服务器建议配 **{num(o['recommended_ram_gib'])} GB 内存**（{o['dimm_layout']}），对应 {o['gpus_per_node']} 张 {o['gpu']}、"
        f"共 {num(o['total_gpu_memory_gb'])} GB 显存：主机内存按显存的 {num(o['ratio'])} 倍配置，而不是桌面电脑的 8-16 GB。"
    )
    rows = [Row(en="GPU memory per server", zh="每台显存合计", value=f"{num(o['total_gpu_memory_gb'])} GB"),
            Row(en="RAM / GPU memory", zh="内存/显存比", value=f"{num(o['ratio'])}x"),
            Row(en="Recommended RAM", zh="建议内存", value=f"{num(o['recommended_ram_gib'])} GB ({o['dimm_layout']})")]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


def _network(call: ToolCall) -> Summary:
    o = call.output
    en = (
        f"One gradient all-reduce of {num(o['gradient_gb'])} GB across {o['total_gpus']} GPUs takes about **{num(o['allreduce_s'])} s** "
        f"({num(o['inter_node_gbit_s_per_gpu'])} Gb/s per GPU between servers, {num(o['intra_node_gb_s'])} GB/s inside)."
    )
    zh = (
        f"{o['total_gpus']} 张卡做一次 {num(o['gradient_gb'])} GB 的梯度 all-reduce 约需 **{num(o['allreduce_s'])} 秒**"
        f"（节点间每卡 {num(o['inter_node_gbit_s_per_gpu'])} Gb/s，节点内 {num(o['intra_node_gb_s'])} GB/s）。"
    )
    rows = [Row(en="Gradient size", zh="梯度大小", value=f"{num(o['gradient_gb'])} GB"),
            Row(en="All-reduce time", zh="all-reduce 时间", value=f"{num(o['allreduce_s'])} s"),
            Row(en="Bus bandwidth", zh="总线带宽", value=f"{num(o['busbw_gb_s'])} GB/s")]  # fmt: skip
    if o.get("comm_share_of_step") is not None:
        rows.append(Row(en="Share of step time", zh="占单步时间比例", value=pct(o["comm_share_of_step"])))
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


def _power_cost(call: ToolCall) -> Summary:
    o = call.output
    cost = o["yearly_energy_cost"]
    en = (
        f"{o['installed_gpus']} x {o['gpu']} draw about **{num(o['wall_power_kw'])} kW at the wall** (PUE {num(o['pue'])}), "
        f"{num(o['energy_mwh_per_year'])} MWh a year at {pct(o['utilization'])} use: **{money(cost)} per year** in electricity."
    )
    zh = (
        f"{o['installed_gpus']} 张 {o['gpu']} 在市电侧约 **{num(o['wall_power_kw'])} kW**（PUE {num(o['pue'])}），"
        f"利用率 {pct(o['utilization'])} 时每年 {num(o['energy_mwh_per_year'])} MWh，电费约 **{money(cost)} / 年**。"
    )
    rows = [Row(en="GPU power", zh="GPU 功耗", value=f"{num(o['gpu_power_kw'])} kW"),
            Row(en="IT power", zh="IT 负载", value=f"{num(o['it_power_kw'])} kW"),
            Row(en="Wall power", zh="市电侧功率", value=f"{num(o['wall_power_kw'])} kW"),
            Row(en="Energy per year", zh="年耗电", value=f"{num(o['energy_mwh_per_year'])} MWh"),
            Row(en="Electricity per year", zh="年电费", value=money(cost))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


def _tco(call: ToolCall) -> Summary:
    o = call.output
    t = o["totals"]
    names = {"buy": ("buying", "购买"), "lease": ("leasing", "租赁"), "cloud": ("cloud", "上云")}
    en = (
        f"Over {o['years']} years at {pct(o['utilization'])} utilisation, **{names[o['cheapest']][0]} is cheapest**: "
        f"buy {money(t['buy'])}, lease {money(t['lease'])}, cloud {money(t['cloud'])}."
    )
    zh = (
        f"{o['years']} 年、利用率 {pct(o['utilization'])} 时，**{names[o['cheapest']][1]}最划算**：购买 {money(t['buy'])}，"
        f"租赁 {money(t['lease'])}，上云 {money(t['cloud'])}。"
    )
    if o.get("break_even_month"):
        en += f" Buying overtakes cloud in month {o['break_even_month']}."
        zh += f"购买在第 {o['break_even_month']} 个月追平上云。"
    rows = [Row(en="Buy", zh="购买", value=money(t["buy"])), Row(en="Lease", zh="租赁", value=money(t["lease"])),
            Row(en="Cloud", zh="上云", value=money(t["cloud"])),
            Row(en="Cloud price", zh="云上单价", value=f"${num(o['cloud_usd_per_gpu_hour'])}/GPU-h"),
            Row(en="Break-even utilisation", zh="回本利用率", value=pct(o.get("break_even_utilization")))]  # fmt: skip
    inputs = [
        Row(en="GPUs", zh="GPU 数量", value=f"{o['gpus']} x {o['gpu']}"),
        Row(en="Years", zh="年限", value=str(o["years"])),
    ]
    return Summary(headline_en=en, headline_zh=zh, inputs=inputs, results=rows)


def _cloud_cost(call: ToolCall) -> Summary:
    o = call.output
    en = (
        f"{num(o['gpu_hours'])} GPU-hours of {o['gpu']} cost about **{money(o['total'])}** at "
        f"${num(o['price_used_usd_per_gpu_hour'])}/GPU-hour ({o['price_basis']})."
    )
    zh = f"{num(o['gpu_hours'])} 个 {o['gpu']} GPU 小时约 **{money(o['total'])}**，按 ${num(o['price_used_usd_per_gpu_hour'])}/卡时计。"
    rows = [Row(en="GPU-hours", zh="GPU 小时", value=num(o["gpu_hours"])),
            Row(en="Price used", zh="单价", value=f"${num(o['price_used_usd_per_gpu_hour'])}/GPU-h"),
            Row(en="Total", zh="合计", value=money(o["total"])),
            Row(en="At the median price", zh="按中位价", value=money(o.get("total_at_median")))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


def _inference_memory(call: ToolCall) -> Summary:
    o = call.output
    per = o["per_gpu"]
    en = (
        f"Serving needs about **{num(per.get('total_gb'))} GB per GPU** on {o['gpus']} x {o.get('gpu') or 'GPU'}; the KV cache is "
        f"{num(o['kv_kib_per_token'])} KiB per token ({num(o['kv_gb_per_sequence'])} GB per {num(o['context_tokens'])}-token sequence)"
        + (
            f", up to {num(o['max_concurrent_sequences'])} concurrent sequences."
            if o.get("max_concurrent_sequences")
            else "."
        )
    )
    zh = (
        f"推理每卡约需 **{num(per.get('total_gb'))} GB**（{o['gpus']} 张 {o.get('gpu') or 'GPU'}）；KV 缓存每 token "
        f"{num(o['kv_kib_per_token'])} KiB，每条 {num(o['context_tokens'])} token 的序列 {num(o['kv_gb_per_sequence'])} GB"
        + (
            f"，最多约 {num(o['max_concurrent_sequences'])} 路并发。"
            if o.get("max_concurrent_sequences")
            else "。"
        )
    )
    rows = [Row(en="KV cache per token", zh="每 token KV 缓存", value=f"{num(o['kv_kib_per_token'])} KiB"),
            Row(en="KV cache per sequence", zh="每条序列 KV 缓存", value=f"{num(o['kv_gb_per_sequence'])} GB"),
            Row(en="Per GPU", zh="每卡", value=f"{num(per.get('total_gb'))} GB"),
            Row(en="Max concurrent sequences", zh="最大并发序列", value=num(o.get("max_concurrent_sequences")))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


def _gpu_compare(call: ToolCall) -> Summary:
    o = call.output
    rows_in = o["rows"]
    first = rows_in[0] if rows_in else {}
    ranking = o.get("ranking") or []
    top = ranking[0]["name"] if ranking else first.get("name", "")
    en = f"Side by side ({o['ranking_criterion']}): **{top}** ranks first."
    zh = f"对比（排序依据：{o['ranking_criterion']}）：**{top}** 排第一。"
    rows = [Row(en=r["name"], zh=r["name"],
                value=f"{num(r.get('memory_gb'))} GB {r.get('memory_type', '')}, {num(r.get('memory_bandwidth_gb_s'))} GB/s, "
                      f"{num(r.get('bf16_dense_tflops'))} BF16 TFLOPS, {num(r.get('tdp_w'))} W"
                      + (f", ${num(r['usd_per_bf16_tflop'])}/TFLOP" if r.get("usd_per_bf16_tflop") else ""))
            for r in rows_in]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


def _generic(call: ToolCall) -> Summary:
    verdict = str(call.output.get("verdict") or call.output.get("recommendation") or call.name)
    return Summary(headline_en=verdict, headline_zh=verdict, inputs=[], results=[])


SUMMARIES: dict[str, Callable[[ToolCall], Summary]] = {
    "training_compute": _training_compute,
    "gpus_for_deadline": _gpus_for_deadline,
    "throughput_calibration": _throughput,
    "training_memory": _training_memory,
    "cluster_plan": _cluster_plan,
    "storage": _storage,
    "host_ram": _host_ram,
    "network": _network,
    "power_cost": _power_cost,
    "tco": _tco,
    "cloud_cost": _cloud_cost,
    "inference_memory": _inference_memory,
    "gpu_compare": _gpu_compare,
}


def summarize(call: ToolCall) -> Summary:
    return SUMMARIES.get(call.name, _generic)(call)
