"""An accelerator's own figures, looked up in the catalog with their sources and date."""

from __future__ import annotations

import re
from typing import Any

from assistant.calculators.common import Calculator, Plan, Row, Summary, View, num, pct, words
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog
from tools.gpu_spec import PRICE_FIELDS

_LABELS = {
    "memory_gb": ("memory", "显存"),
    "memory_bandwidth_gb_s": ("memory bandwidth", "显存带宽"),
    "bf16_dense_tflops": ("BF16 compute", "BF16 算力"),
    "fp16_dense_tflops": ("FP16 compute", "FP16 算力"),
    "fp8_dense_tflops": ("FP8 compute", "FP8 算力"),
    "tf32_dense_tflops": ("TF32 compute", "TF32 算力"),
    "fp32_tflops": ("FP32 (vector) compute", "FP32（非张量）算力"),
    "tdp_w": ("maximum power (TDP)", "最大功耗（TDP）"),
    "scale_up_bandwidth_gb_s": ("scale-up (NVLink-class) bandwidth", "卡间互联带宽"),
    "launch_year": ("launch year", "发布年份"),
    "form_factor": ("form factor", "形态"),
    "price_usd": ("price per card", "单卡价格"),
    "server_price_usd": ("price of an 8-GPU server", "8 卡服务器价格"),
    "cloud_usd_per_gpu_hour": ("cheapest cloud price", "最便宜的云上价格"),
}
_DETAIL_ZH = [
    ("not sold: rented in its vendor's cloud only", "不单独出售，只能在厂商的云上租用"),
    ("no price in the catalog", "目录中没有价格"),
    ("estimate price for one card", "单卡估算价"),
    ("street price for one card", "单卡市场价"),
    ("list price for one card", "单卡标价"),
    ("msrp price for one card", "单卡建议零售价"),
    (" for CPUs, RAM, NICs and chassis", "（CPU、内存、网卡和机箱）"),
    ("estimate: ", "估算："),
    ("estimate price of a ", "估算价："),
    ("street price of a ", "市场价："),
    ("list price of a ", "标价："),
    ("on-demand", "按需"),
    ("community", "社区云"),
    ("reserved-1y", "1 年预留"),
    ("reserved-3y", "3 年预留"),
    ("spot", "竞价"),
    (", as of ", "，截至 "),
    ("; about CNY ", "；约合人民币 "),
    (" CNY per USD ", " 元/美元 "),
    (" at ", "，汇率 "),
]


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    gpu, fields = slots.gpu, slots.spec_fields or (["bf16_dense_tflops"] if slots.achieved_tflops else [])
    if not gpu and slots.server and fields:
        # "how much is a DGX H100?": the server's price, looked up under the accelerator it carries
        gpu = catalog.server(slots.server).accelerator_id
        fields = ["server_price_usd" if f == "price_usd" else f for f in fields]
    if not (gpu and fields):
        return None
    payload: dict[str, Any] = {"gpus": [gpu, *slots.other_gpus][:8], "fields": fields}
    if slots.achieved_tflops:
        # "210 TFLOPS per GPU, is that good?": the share of the peak it reaches, beside the peak
        payload.update(achieved_tflops=slots.achieved_tflops, fields=["bf16_dense_tflops"])

    count = slots.gpu_count or (slots.servers * (slots.gpus_per_node or 8) if slots.servers else None)
    one_server = fields == ["server_price_usd"] and count is not None and count <= 8  # "an 8x H100 server"
    if count and count > 1 and set(fields) & {"price_usd", "server_price_usd"} and not one_server:
        # "how much to buy 32 H100s?": the cards, and the 8-GPU servers that hold them
        payload.update(count=count, fields=list(dict.fromkeys([*fields, "price_usd", "server_price_usd"])))
    if slots.server_price and not slots.other_gpus and slots.rank_by in {"usd_per_tflop", "usd_per_gb"}:
        # "供应商报8卡H200服务器290万，每TFLOPS多少钱": the quote per unit of what the server holds, not the
        # catalog's prices
        payload.pop("count", None)
        payload.update(
            quote=slots.server_price,
            quote_currency=slots.server_price_currency or "USD",
            quote_gpus=slots.gpus_per_node or 8,
            fields=["bf16_dense_tflops", "memory_gb"],
        )
    return Plan(tool="gpu_spec", payload=payload)


def _shown(value: dict[str, Any], zh: bool) -> str:
    v, unit, detail = value["value"], value["unit"], value["detail"]
    if v is None:
        if value["field"] == "fp8_dense_tflops":  # the catalog leaves FP8 empty for parts without it
            return "无（不支持）" if zh else "none (not supported)"
        if value["field"] == "scale_up_bandwidth_gb_s":
            # "None (PCIe only, no NVLink)", or a link whose bandwidth the vendor does not publish
            link = detail.removesuffix(", both directions added")
            if zh and (link_zh := value.get("detail_zh")):
                return link_zh if link_zh.startswith("无") else f"未公布（{link_zh}）"
            if link.lower().startswith("none"):
                rest = link[4:].strip(" ()") or "not supported"
                return f"无（{rest}）" if zh else f"none ({rest})"
            return f"未公布（{link}）" if zh else f"not published ({link})"
        # TF32, FP32 or FP16 peaks: the part may lack the mode or the vendor may not publish it
        return "目录中无此数据（见说明）" if zh else "not in the catalog (see the notes)"
    if isinstance(v, str) or value["field"] == "launch_year":
        text = str(value.get("value_zh") or v) if zh else str(v)
    elif value["field"] in PRICE_FIELDS:
        text = f"**${num(v)}**" + ("/GPU-hour" if value["field"] == "cloud_usd_per_gpu_hour" else "")
        if zh and value["field"] == "cloud_usd_per_gpu_hour":
            text = f"**${num(v)}**/卡时"
        elif zh and (cny := re.search(r"CNY ([\d,.]+)", detail)):
            # a Chinese reader prices in yuan: the catalog's conversion first, the dollars it came from beside
            text = f"约 **¥{cny.group(1)}**（${num(v)}）"
    else:
        text = f"**{num(v)} {unit}**"
        if value["field"] in {"memory_bandwidth_gb_s", "scale_up_bandwidth_gb_s"} and v >= 1000:
            text += f"（{num(v / 1000)} TB/s）" if zh else f" ({num(v / 1000)} TB/s)"
    if zh and value.get("detail_zh"):
        detail = value["detail_zh"]  # the catalog's own Chinese
    elif detail and zh:
        for en, cn in _DETAIL_ZH:
            detail = detail.replace(en, cn)
        if text.startswith("约 **¥"):
            detail = re.sub(
                r"约合人民币 [\d,.]+，", "", detail
            )  # the yuan lead already says it; the rate stays
    return f"{text}（{detail}）" if detail and zh else f"{text} ({detail})" if detail else text


def _totals(call: ToolCall) -> tuple[str, str]:
    """'32 x H100: $960,000 as cards; 4 servers: $1,080,000', first, when a count was priced."""
    en: list[str] = []
    zh: list[str] = []
    names = {spec["id"]: spec["name"] for spec in call.output["specs"]}
    for t in call.output.get("totals", []):
        if t["field"] == "price_usd":
            en.append(f"{t['count']} x {names[t['id']]} cost about **${num(t['total_usd'])}** as cards")
            zh.append(f"{t['count']} 张 {names[t['id']]} 单买卡约 **${num(t['total_usd'])}**")
        else:
            en.append(f"in {t['units']} 8-GPU servers about **${num(t['total_usd'])}**")
            zh.append(f"装成 {t['units']} 台 8 卡服务器约 **${num(t['total_usd'])}**")
    if not en:
        return "", ""
    return "; ".join(en) + " (network and storage extra). ", "；".join(zh) + "（不含网络和存储）。"


def _summarize(call: ToolCall, view: View) -> Summary:
    specs = call.output["specs"]
    total_en, total_zh = _totals(call)
    en_parts, zh_parts, rows = [], [], []
    for spec in specs:
        en_parts.append(
            f"{spec['name']}: "
            + ", ".join(f"{_LABELS[v['field']][0]} {_shown(v, False)}" for v in spec["values"])
            + f" (catalog, as of {spec['as_of']})"
        )
        zh_parts.append(
            f"{spec['name']}："
            + "，".join(f"{_LABELS[v['field']][1]} {_shown(v, True)}" for v in spec["values"])
            + f"（目录数据，截至 {spec['as_of']}）"
        )
        rows += [
            Row(en=f"{spec['name']}: {_LABELS[v['field']][0]}", zh=f"{spec['name']}：{_LABELS[v['field']][1]}",
                value=_shown(v, False).replace("**", ""))
            for v in spec["values"]
        ]  # fmt: skip
    en = "; ".join(en_parts) + "."
    zh = "；".join(zh_parts) + "。"
    lead = _ratio(specs)
    if lead:
        en, zh = f"{lead[0]} {en}", f"{lead[1]}{zh}"
    en, zh = total_en + en, total_zh + zh  # the total asked for, then the unit prices behind it
    link = [v for spec in specs for v in spec["values"] if v["field"] == "scale_up_bandwidth_gb_s"]
    if view.asked == "supports" and len(specs) == 1 and link:
        # "does the 4090 support NVLink? want to pool memory": no first, then what that means for memory
        if link[0]["value"]:
            en = f"Yes: the {specs[0]['name']} has NVLink-class links. {en}"
            zh = f"支持：{specs[0]['name']} 有 NVLink 级的卡间互连。{zh}"
        else:
            en = (
                f"No: the {specs[0]['name']} has no NVLink; its cards talk over PCIe only, and GPU memory never "
                f"pools into one large memory (with FSDP/ZeRO-3 each card holds a shard, at PCIe speed). {en}"
            )
            zh = (
                f"不支持：{specs[0]['name']} 没有 NVLink，卡间只走 PCIe；显存也不会合并成一块大显存（FSDP/ZeRO-3 下"
                f"每张卡各放一份分片，通信走 PCIe）。{zh}"
            )
    if (per_tflop := call.output.get("quote_per_tflop")) is not None:
        i = call.input
        sign = "¥" if i.get("quote_currency") == "CNY" else "$"
        name, gpus = specs[0]["name"], i.get("quote_gpus", 8)
        values = {v["field"]: v["value"] for v in specs[0]["values"]}
        tflops, gb = gpus * (values.get("bf16_dense_tflops") or 0), gpus * (values.get("memory_gb") or 0)
        per_gb = call.output["quote_per_gb"]
        en = (
            f"At your quote of {sign}{num(i['quote'])} for {gpus} x {name}: **{sign}{num(per_tflop)} per dense BF16 "
            f"TFLOPS** ({num(tflops)} TFLOPS in all) and **{sign}{num(per_gb)} per GB** of GPU memory ({num(gb)} GB). "
            + en
        )
        zh = (
            f"按你的报价 {sign}{num(i['quote'])}（{gpus} 张 {name}）：每 TFLOPS（BF16 稠密）**{sign}{num(per_tflop)}**"
            f"（共 {num(tflops)} TFLOPS），每 GB 显存 **{sign}{num(per_gb)}**（共 {num(gb)} GB）。" + zh
        )
    if (share := call.output.get("achieved_share")) is not None:
        achieved, name = num(call.input["achieved_tflops"]), specs[0]["name"]
        en = f"{achieved} TFLOP/s per {name} is **{pct(share)} MFU** of its dense BF16 peak. " + en
        zh = f"每卡 {achieved} TFLOP/s 相当于 {name} 稠密 BF16 峰值的 **{pct(share)}**（MFU）。" + zh
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows if len(specs) > 1 else [])


def _ratio(specs: list[dict[str, Any]]) -> tuple[str, str] | None:
    """ "A100 和 H100 的 FP16 算力差多少": how many times the first asked figure of the highest is the lowest's."""
    if len(specs) < 2:
        return None
    first = [spec["values"][0] for spec in specs]
    if (
        not all(isinstance(v["value"], (int, float)) and v["value"] for v in first)
        or first[0]["field"] == "launch_year"
    ):
        return None
    pairs = sorted(zip(specs, first, strict=True), key=lambda p: p[1]["value"], reverse=True)
    (top, high), (bottom, low) = pairs[0], pairs[-1]
    times = num(high["value"] / low["value"])
    en_label, zh_label = _LABELS[high["field"]]
    unit = high["unit"]
    if high["value"] == low["value"]:
        names = [spec["name"] for spec, _ in pairs]
        return (
            f"{' and '.join(names)} tie on {en_label}: {num(high['value'])} {unit} each.",
            f"{'、'.join(names)} 的{zh_label}打平：都是 {num(high['value'])} {unit}。",
        )
    return (
        f"**{top['name']}** has {times}x the {en_label} of {bottom['name']} "
        f"({num(high['value'])} vs {num(low['value'])} {unit}).",
        f"**{top['name']}** 的{' ' if zh_label[0].isascii() else ''}{zh_label}是 {bottom['name']} 的 {times} 倍（{num(high['value'])} 对 {num(low['value'])} {unit}）。",
    )


CALCULATOR = Calculator(
    name="gpu_spec",
    title=("Accelerator figures", "加速卡参数"),
    triggers=words(r"a^"),  # chosen by the figure asked about a named card (slots.spec_fields)
    build=_build,
    summarize=_summarize,
    answers=frozenset({"spec"}),
)
