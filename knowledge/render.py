"""Render catalog entries into bilingual passages, so spec questions are cited from the catalog's numbers.

Each entry becomes one passage with English and Chinese labels: a question in either language
finds it by keyword and by meaning, and the answer cites the same figure the calculators use.
"""

from __future__ import annotations

from langchain_core.documents import Document

from knowledge.catalog import (
    Accelerator,
    Catalog,
    CloudPrice,
    Entry,
    Interconnect,
    ModelArchitecture,
    PricePoint,
    Server,
    StorageTier,
)
from knowledge.chunking import content_hash

CATALOG_ROOT = "knowledge"

# field -> (English label, Chinese label, unit)
_LABELS: dict[str, tuple[str, str, str]] = {
    "vendor": ("Vendor", "厂商", ""),
    "architecture": ("Architecture", "架构", ""),
    "kind": ("Kind", "类型", ""),
    "segment": ("Segment", "定位", ""),
    "launch_year": ("Launched", "发布年份", ""),
    "form_factor": ("Form factor", "形态", ""),
    "host_interface": ("Host interface", "主机接口", ""),
    "memory_gb": ("GPU memory", "显存容量", "GB"),
    "memory_type": ("Memory type", "显存类型", ""),
    "memory_bandwidth_gb_s": ("Memory bandwidth", "显存带宽", "GB/s"),
    "bf16_dense_tflops": ("BF16 dense", "BF16 稠密算力", "TFLOPS"),
    "fp16_dense_tflops": ("FP16 dense", "FP16 稠密算力", "TFLOPS"),
    "fp8_dense_tflops": ("FP8 dense", "FP8 稠密算力", "TFLOPS"),
    "tf32_dense_tflops": ("TF32 dense", "TF32 稠密算力", "TFLOPS"),
    "fp32_tflops": ("FP32 (vector)", "FP32 算力", "TFLOPS"),
    "tdp_w": ("Max power (TDP)", "功耗", "W"),
    "tdp_estimated": (
        "Max power is an estimate: the vendor publishes no TDP",
        "功耗为估算值：厂商未公布 TDP",
        "",
    ),
    "scale_up_interconnect": ("Scale-up interconnect", "卡间互联", ""),
    "scale_up_bandwidth_gb_s": ("Scale-up bandwidth (both directions)", "互联带宽（双向合计）", "GB/s"),
    "scale_up_cards": ("Cards the scale-up link joins", "互联可连卡数", "cards"),
    "instances": ("Cloud instances (accelerators each)", "云实例（每实例加速卡数）", ""),
    "accelerator_id": ("Accelerator", "加速卡", ""),
    "accelerator_count": ("Accelerators per system", "每台加速卡数", ""),
    "cpu": ("CPUs", "处理器", ""),
    "cpu_cores_total": ("CPU cores", "CPU 核心数", ""),
    "ram_gb": ("System memory (host RAM)", "系统内存", "GB"),
    "nvme_tb": ("NVMe data storage", "NVMe 数据盘", "TB"),
    "nics": ("Network adapters", "网卡", ""),
    "compute_network_gbit_s": ("Compute network per node", "每节点计算网络带宽", "Gb/s"),
    "max_power_kw": ("Max system power", "整机最大功耗", "kW"),
    "rack_units": ("Rack units", "机架高度", "U"),
    "generation": ("Generation", "代次", ""),
    "unidirectional_gb_s": ("Bandwidth per direction", "单向带宽", "GB/s"),
    "per": ("Per", "计量单位", ""),
    "line_rate_gbit_s": ("Line rate", "线速", "Gb/s"),
    "latency_us": ("Latency", "延迟", "µs"),
    "seq_read_gb_s": ("Sequential read", "顺序读", "GB/s"),
    "seq_write_gb_s": ("Sequential write", "顺序写", "GB/s"),
    "random_read_kiops": ("4K random read", "4K 随机读", "k IOPS"),
    "usd_per_tb": ("Typical price", "参考价格", "USD/TB"),
    "typical_use": ("Typical use", "典型用途", ""),
    "item_id": ("Item", "对象", ""),
    "unit": ("Priced per", "计价单位", ""),
    "usd": ("Price", "价格", "USD"),
    "provider": ("Provider", "云厂商", ""),
    "instance_type": ("Instance type", "实例类型", ""),
    "accelerators_per_instance": ("Accelerators per instance", "每实例加速卡数", ""),
    "usd_per_accelerator_hour": ("Price per accelerator-hour", "每卡每小时价格", "USD"),
    "pricing": ("Pricing model", "计费方式", ""),
    "region": ("Region", "区域", ""),
    "family": ("Family", "系列", ""),
    "params_b": ("Parameters", "参数量", "B"),
    "active_params_b": ("Active parameters per token (MoE)", "每 token 激活参数（MoE）", "B"),
    "layers": ("Layers", "层数", ""),
    "hidden_size": ("Hidden size", "隐藏层维度", ""),
    "attention_heads": ("Attention heads", "注意力头数", ""),
    "kv_heads": ("KV heads", "KV 头数", ""),
    "head_dim": ("Head dimension", "每头维度", ""),
    "qk_head_dim": ("Query/key head dimension", "Q/K 每头维度", ""),
    "ffn_hidden_size": ("FFN hidden size", "FFN 中间维度", ""),
    "vocab_size": ("Vocabulary", "词表大小", ""),
    "max_context": ("Pre-training context", "预训练上下文长度", "tokens"),
    "context_window": ("Native context window", "原生上下文窗口", "tokens"),
    "experts": ("Routed experts", "路由专家数", ""),
    "experts_per_token": ("Experts per token", "每 token 激活专家数", ""),
    "shared_experts": ("Shared experts", "共享专家数", ""),
    "activation": ("Activation", "激活函数", ""),
    "training_tokens_t": ("Pre-training tokens", "预训练 token 数", "T"),
    "released_precision": ("Weights as released", "发布权重精度", ""),
    "electricity_usd_per_kwh": ("Electricity price", "电价", "USD/kWh"),
    "pue_air": ("PUE, air-cooled", "PUE（风冷）", ""),
    "pue_liquid": ("PUE, liquid-cooled", "PUE（液冷）", ""),
    "usd_to_cny": ("Exchange rate", "汇率（1 美元兑人民币）", "CNY per USD"),
    "maintenance_share_per_year": ("Maintenance per year, share of capex", "年维护费占采购额比例", ""),
    "server_overhead_share": ("Non-GPU server power, share of GPU TDP", "非 GPU 部件功耗占 GPU TDP 比例", ""),
    "workstation_host_kw": ("Workstation power besides the GPUs", "工作站除 GPU 外的功耗", "kW"),
    "workstation_psu_efficiency": ("Workstation power-supply efficiency", "工作站电源效率", ""),
}
_SKIP = {"id", "name", "sources", "as_of", "notes", "aliases", "zh"}

_GROUP_TITLES: dict[str, tuple[str, str]] = {
    "accelerators": ("accelerator specifications", "加速卡规格"),
    "servers": ("reference server", "参考服务器配置"),
    "interconnects": ("interconnect", "互联技术"),
    "storage": ("storage tier", "存储层级"),
    "prices": ("purchase price", "采购价格"),
    "cloud_prices": ("cloud price", "云上价格"),
    "models": ("model architecture", "模型结构"),
    "defaults": ("default cost assumptions", "默认成本假设"),
}


def _format(value: object, unit: str) -> str:
    if isinstance(value, dict):  # "trn2.48xlarge: 16" -> "trn2.48xlarge x 16"
        return ", ".join(f"{key} x {_format(count, unit)}" for key, count in value.items())
    text = (f"{value:,.0f}" if value >= 100 else f"{value:g}") if isinstance(value, float) else str(value)
    if unit == "GB/s" and isinstance(value, float) and value >= 1000:
        text += f" GB/s ({value / 1000:g} TB/s)"
    elif unit:
        text += f" {unit}"
    return text


def _entry_name(entry: Entry, catalog: Catalog) -> str:
    match entry:
        case Accelerator() | Server() | Interconnect() | StorageTier() | ModelArchitecture():
            return entry.name
        case PricePoint():
            item = next((a.name for a in catalog.accelerators if a.id == entry.item_id), None)
            item = item or next((s.name for s in catalog.servers if s.id == entry.item_id), entry.item_id)
            return f"{item}"
        case CloudPrice():
            acc = next((a.name for a in catalog.accelerators if a.id == entry.accelerator_id), "")
            return f"{entry.provider} {entry.instance_type} ({acc})"
        case _:
            return "Defaults"


def render_entry(group: str, entry: Entry, catalog: Catalog) -> Document:
    """One catalog entry as a bilingual passage with citation metadata."""
    name = _entry_name(entry, catalog)
    en_title, zh_title = _GROUP_TITLES[group]
    title = f"{name}: {en_title} / {zh_title}"
    lines = [title, ""]
    aliases = getattr(entry, "aliases", [])
    if aliases:
        lines.append(f"Also called 又称: {', '.join(aliases)}")
    if isinstance(entry, Accelerator):
        lines.append(
            "All tensor TFLOPS below are dense, without 2:4 sparsity. 以下张量算力均为稠密值（不含稀疏）。"
        )
    for field in type(entry).model_fields:
        value = getattr(entry, field)
        if field in _SKIP or value is None or value == "" or value == {} or value == []:
            continue  # nothing to say: never "instances: {}"
        en, zh, unit = _LABELS.get(field, (field, field, ""))
        if isinstance(value, bool):  # a flag: its label is the statement, and only a set flag is said
            if value:
                lines.append(f"{en} {zh}")
            continue
        line = f"{en} {zh}: {_format(value, unit)}"
        # a worded field's Chinese beside its English ("SXM5 module / SXM5 模组"), never the model's repr
        worded = getattr(getattr(entry, "zh", None), field, None)
        lines.append(f"{line} / {worded}" if isinstance(worded, str) and worded != value else line)
    if entry.notes:
        lines.append(f"Notes 说明: {entry.notes}")
    lines.append("Sources 来源: " + "; ".join(f"{s.title} <{s.url}>" for s in entry.sources))
    lines.append(f"As of 数据日期: {entry.as_of.isoformat()}")
    text = "\n".join(lines)
    doc_id = f"catalog/{group}/{entry.id}"
    vendor = getattr(entry, "vendor", "")
    metadata: dict[str, str | int | float | bool] = {
        "chunk_id": doc_id,
        "doc_id": doc_id,
        "root": CATALOG_ROOT,
        "path": f"catalog/{group}.yaml",
        "title": title,
        "section": entry.id,
        "lang": "multi",
        "doc_type": "catalog",
        "catalog_group": group,
        "vendors": vendor if isinstance(vendor, str) else "",
        "as_of": entry.as_of.isoformat(),
        "url": str(entry.sources[0].url),
        "source_urls": "\n".join(str(s.url) for s in entry.sources),
        "source_titles": "\n".join(s.title for s in entry.sources),
        "position": 0,
    }
    metadata["content_hash"] = content_hash(text, metadata)
    return Document(id=doc_id, page_content=text, metadata=metadata)


def render_catalog(catalog: Catalog) -> list[Document]:
    """Every catalog entry as a passage."""
    return [render_entry(group, entry, catalog) for group, entry in catalog.entries()]
