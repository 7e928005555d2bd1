"""Storage for the dataset and checkpoints, and the bandwidth to write a checkpoint."""

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
    duration,
    model_into,
    model_name,
    nodes,
    num,
    pct,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog

# the fine-tuning set assumed when none is given: generous for supervised fine-tuning (Tulu 3's SFT mix is about
# 939k samples; at ~1k tokens each, under 1B tokens)
FINETUNE_TOKENS_B = 1.0


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if not model_into(slots, payload):
        return None
    if slots.tokens_b:
        payload["dataset_tokens_b"] = slots.tokens_b
    elif slots.finetune and not slots.raw_data_tb:
        # a fine-tune's data is instructions and chats, not a pre-training corpus sized by Chinchilla's rule
        payload["dataset_tokens_b"] = FINETUNE_TOKENS_B
        assumptions.append(
            assumed(
                f"dataset: a fine-tuning set of about {num(FINETUNE_TOKENS_B)}B tokens; give yours",
                f"数据集：约 {num(FINETUNE_TOKENS_B)}B token 的微调数据；请给出实际大小",
            )
        )
    elif not slots.raw_data_tb:  # "数据集2TB": the raw text gives the tokens, at 4 bytes of text each
        payload["dataset_tokens_b"] = 20 * (slots.params_b or catalog.model(slots.model or "").params_b)
        assumptions.append(
            assumed(
                "dataset: Chinchilla-optimal tokens (20 per parameter)",
                "数据集：按 Chinchilla 最优 token 数（每参数 20 个）",
            )
        )
    payload["nodes"] = nodes(slots)
    if slots.finetune in {"lora", "qlora"}:
        payload["lora_rank"] = 16  # the common rank of PEFT examples and the QLoRA paper
    if slots.deadline_days:
        payload["run_days"] = slots.deadline_days
    if slots.checkpoints:
        payload["checkpoints_retained"] = slots.checkpoints
    elif slots.retention_days and slots.checkpoint_hours:
        # "a checkpoint every 2 h, kept for 48 h": the window over the interval
        payload["checkpoints_retained"] = max(1, round(slots.retention_days * 24 / slots.checkpoint_hours))
    if slots.weights_only_checkpoints is not None:
        payload["weights_only_retained"] = slots.weights_only_checkpoints
    if slots.token_bytes:
        payload["bytes_per_token_id"] = slots.token_bytes
    if slots.write_gb_s:
        payload["write_bandwidth_gb_s"] = slots.write_gb_s
    if slots.write_seconds:
        payload["checkpoint_write_seconds"] = slots.write_seconds
    if slots.checkpoint_hours:
        payload["checkpoint_interval_hours"] = slots.checkpoint_hours
    if slots.headroom is not None:
        payload["headroom_share"] = slots.headroom
    if slots.growth_share_per_year:
        payload["growth_per_year"] = slots.growth_share_per_year
        if slots.years:
            payload["growth_years"] = slots.years
    if slots.raw_data_tb and slots.data_tokenized and not slots.tokens_b:
        # "tokenized dataset is ~12TB": the shards as given, at the id width assumed (no raw text beside them)
        width = slots.token_bytes or 4
        payload.update(
            dataset_tokens_b=slots.raw_data_tb * 1e12 / width / 1e9,
            bytes_per_token_id=width,
            keep_raw_text=False,
        )
        assumptions.append(
            assumed(
                f"your {num(slots.raw_data_tb)} TB are the tokenised shards at {width} bytes per token id; no raw text kept beside them",
                f"你给的 {num(slots.raw_data_tb)} TB 是分词后的数据（每个 token id {width} 字节），不另存原始文本",
            )
        )
    elif slots.raw_data_tb:
        payload["dataset_raw_gb"] = slots.raw_data_tb * 1000
        if slots.data_compression:
            payload["raw_compression_ratio"] = slots.data_compression  # "40 TB of jsonl.zst"
        if slots.data_kept_share:
            payload["raw_kept_share"] = slots.data_kept_share  # "清洗后剩20%"
    return Plan(tool="storage", payload=payload, assumed=assumptions,
                ask=None if slots.tokens_b or slots.raw_data_tb else assumed("How large is the training dataset (tokens)?", "训练数据集有多少 token？"))  # fmt: skip


def _tier_name(o: dict[str, Any]) -> str:
    """The recommended tier's catalog name ("NVMe Gen4 data-centre SSD"), not its id."""
    names = {str(t["id"]): str(t["name"]) for t in o.get("tiers", [])}
    return names.get(str(o["recommended_tier"]), str(o["recommended_tier"]))


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    kept = f"{num(o['checkpoints_retained'])} full checkpoints of {num(o['full_checkpoint_gb'])} GB"
    kept_zh = f"保留 {num(o['checkpoints_retained'])} 个完整检查点（每个 {num(o['full_checkpoint_gb'])} GB）"
    if (light := call.input.get("weights_only_retained")) is not None:
        kept += f" and {light} weights-only ones of {num(o['weights_only_checkpoint_gb'])} GB"
        kept_zh += f"和 {light} 个仅权重检查点（每个 {num(o['weights_only_checkpoint_gb'])} GB）"
    if call.input.keys() & {"checkpoints_retained", "weights_only_retained"}:
        # the user said how many they keep: lead with that figure
        en = (
            f"Keeping {kept} takes **{num(o['checkpoints_gb'] / 1000)} TB**; with the {num(o['tokenized_gb'])} GB "
            f"dataset, scratch and headroom plan about {num(o['total_tb'])} TB ({num(o['total_tib'])} TiB)."
        )
        zh = (
            f"{kept_zh}需要 **{num(o['checkpoints_gb'] / 1000)} TB**；加上 {num(o['tokenized_gb'])} GB 数据集、临时文件和余量，"
            f"共约 {num(o['total_tb'])} TB（{num(o['total_tib'])} TiB）。"
        )
    else:
        base = o.get("base_model_gb") or 0
        # a LoRA fine-tune: the base model once, then checkpoints of the adapters alone
        base_en = f"the {num(base)} GB base model once, adapter " if base else "full "
        base_zh = f"基础模型 {num(base)} GB（存一份），每个适配器检查点 " if base else "每个完整检查点 "
        en = (
            f"Plan about **{num(o['total_tb'])} TB** of storage ({num(o['total_tib'])} TiB) with headroom: dataset "
            f"{num(o['tokenized_gb'])} GB tokenized, {base_en}checkpoints {num(o['full_checkpoint_gb'])} GB each, "
            f"{num(o['checkpoint_write_gb_s'])} GB/s to write one in time; hot tier: {_tier_name(o)}."
        )
        zh = (
            f"建议准备约 **{num(o['total_tb'])} TB** 存储（{num(o['total_tib'])} TiB，含余量）：分词后数据 {num(o['tokenized_gb'])} GB，"
            f"{base_zh}{num(o['full_checkpoint_gb'])} GB，按时写完需 {num(o['checkpoint_write_gb_s'])} GB/s；热数据层：{_tier_name(o)}。"
        )
    if view.period == "month" and (month := o.get("checkpoints_cold_usd_per_month")):
        # "and roughly what is that per month on S3?": the retained checkpoints at the object store's rate
        en = en.replace(
            f"takes **{num(o['checkpoints_gb'] / 1000)} TB**",
            f"takes **{num(o['checkpoints_gb'] / 1000)} TB**, about **${num(month)} a month** on S3 Standard "
            f"(${num(month / (o['checkpoints_gb'] / 1000))} per TB-month, catalog)",
            1,
        )
        zh = zh.replace(
            f"需要 **{num(o['checkpoints_gb'] / 1000)} TB**",
            f"需要 **{num(o['checkpoints_gb'] / 1000)} TB**，放在 S3 标准存储上每月约 **${num(month)}**（每 TB 每月 ${num(month / (o['checkpoints_gb'] / 1000))}，目录价）",
            1,
        )
    if view.asked == "weights_checkpoint" and not o.get("write_seconds_at_bandwidth"):
        model, bytes_ = model_name(call.input, o), call.input.get("weights_precision", "bf16").upper()
        copies = int(call.input.get("checkpoints_retained") or 1)
        # "keep 5 … and weights only?": the copies kept, at the weights-only size
        kept_tb = num(copies * o["weights_only_checkpoint_gb"] / 1000)
        all_en = f"; {copies} kept take **{kept_tb} TB**" if copies > 1 else ""
        all_zh = f"；保留 {copies} 个共 **{kept_tb} TB**" if copies > 1 else ""
        en = (
            f"A weights-only checkpoint of {model} ({bytes_}) is **{num(o['weights_only_checkpoint_gb'])} GB** "
            f"({num(o['weights_only_checkpoint_gib'])} GiB){all_en}; a resumable one with the optimizer states is "
            f"{num(o['full_checkpoint_gb'])} GB, and only it can resume training exactly. {en}"
        )
        zh = (
            f"{model} 只存权重的检查点（{bytes_}）约 **{num(o['weights_only_checkpoint_gb'])} GB**"
            f"（{num(o['weights_only_checkpoint_gib'])} GiB）{all_zh}；含优化器状态、可续训的完整检查点为 "
            f"{num(o['full_checkpoint_gb'])} GB，只有它能精确续训。{zh}"
        )
    elif view.asked == "checkpoint" and not o.get("write_seconds_at_bandwidth"):
        # "how big is a 70B checkpoint?": the checkpoint, resumable and weights-only, before the storage plan
        model, per_param = (
            model_name(call.input, o),
            num(call.input.get("full_checkpoint_bytes_per_param", 14)),
        )
        en = (
            f"A resumable checkpoint of {model} (weights, FP32 master copy and Adam moments, {per_param} bytes per "
            f"parameter) is **{num(o['full_checkpoint_gb'])} GB** ({num(o['full_checkpoint_gib'])} GiB); the weights "
            f"alone are {num(o['weights_only_checkpoint_gb'])} GB. {en}"
        )
        zh = (
            f"{model} 可续训的完整检查点（权重、FP32 主权重和 Adam 动量，每参数 {per_param} 字节）约 "
            f"**{num(o['full_checkpoint_gb'])} GB**（{num(o['full_checkpoint_gib'])} GiB）；只存权重为 "
            f"{num(o['weights_only_checkpoint_gb'])} GB。{zh}"
        )
    written = o.get("checkpoints_written")
    if (
        written
        and written > o["checkpoints_retained"]
        and "checkpoints_retained" not in call.input  # a retention the user gave is the plan asked about
        and view.asked in {"storage_total", "storage", None}
    ):
        # "每2小时存一次，训60天，盘要留多大": what the run writes, kept in full or only the newest few
        everything_tb = num(written * float(o["full_checkpoint_gb"]) / 1000)
        kept = o["checkpoints_retained"]
        en = (
            f"A checkpoint every {num(call.input['checkpoint_interval_hours'])} h for {num(call.input['run_days'])} "
            f"days writes {written} full checkpoints: keeping them all would take **{everything_tb} TB**; keeping "
            f"the newest {kept} (rotate or move older ones to object storage) needs the plan below. {en}"
        )
        zh = (
            f"每 {num(call.input['checkpoint_interval_hours'])} 小时存一次、训 {num(call.input['run_days'])} 天，共写 "
            f"{written} 个完整检查点：全部保留要 **{everything_tb} TB**；只保留最新 {kept} 个（旧的轮换删除或转存对象存储）"
            f"按下面的方案即可。{zh}"
        )
    if o.get("write_seconds_at_bandwidth"):
        # "our storage writes 5 GB/s: how long to save a checkpoint?": the time at the bandwidth they have
        seconds, light = o["write_seconds_at_bandwidth"], o["weights_only_write_seconds_at_bandwidth"]
        rate, model = num(call.input["write_bandwidth_gb_s"]), model_name(call.input, o)
        full = float(o["full_checkpoint_gb"])
        # the capacity plan only when kept checkpoints or capacity are asked; else what a faster save needs
        planned = bool(call.input.get("checkpoints_retained")) or view.asked in {"storage_total", "storage"}
        faster_en = faster_zh = ""
        if seconds > 120:
            faster_en = (
                f" Saving in 2 minutes needs {num(full / 120)} GB/s, in 1 minute {num(full / 60)} GB/s; "
                "asynchronous checkpointing instead hides most of the write behind training at the bandwidth you have."
            )
            faster_zh = (
                f"要 2 分钟存完需 {num(full / 120)} GB/s，1 分钟需 {num(full / 60)} GB/s；"
                "也可以用异步检查点，在现有带宽下把大部分写入藏到训练后面。"
            )
        write_en = (
            f"At {rate} GB/s, one full checkpoint of {model} ({num(full)} GB) takes about "
            f"**{duration(seconds)}** to write; a weights-only one ({num(o['weights_only_checkpoint_gb'])} GB) "
            f"{duration(light)}.{faster_en}"
        )
        write_zh = (
            f"按 {rate} GB/s，写一个 {model} 的完整检查点（{num(full)} GB）约需 **{duration(seconds, True)}**；"
            f"仅权重检查点（{num(o['weights_only_checkpoint_gb'])} GB）约 {duration(light, True)}。{faster_zh}"
        )
        if view.asked in {"storage_total", "storage"}:
            # "每2小时存一次，训60天，盘要留多大" after the write time: the capacity asked leads, the write time after
            en, zh = f"{en} {write_en}", f"{zh}{write_zh}"
        else:
            en, zh = write_en + (f" {en}" if planned else ""), write_zh + (zh if planned else "")
    if "checkpoint_write_seconds" in call.input and not o.get("write_seconds_at_bandwidth"):
        # "what write bandwidth so a save takes under 90 s?": the bandwidth for the pause they allow
        seconds, model = call.input["checkpoint_write_seconds"], model_name(call.input, o)
        light = o["weights_only_checkpoint_gb"] / seconds
        en = (
            f"Writing one full checkpoint of {model} ({num(o['full_checkpoint_gb'])} GB) within {num(seconds)} s "
            f"needs **{num(o['checkpoint_write_gb_s'])} GB/s** of aggregate write bandwidth; a weights-only one "
            f"({num(o['weights_only_checkpoint_gb'])} GB) needs {num(light)} GB/s. {en}"
        )
        zh = (
            f"要在 {num(seconds)} 秒内写完一个 {model} 的完整检查点（{num(o['full_checkpoint_gb'])} GB），需要 "
            f"**{num(o['checkpoint_write_gb_s'])} GB/s** 的总写入带宽；仅权重检查点（{num(o['weights_only_checkpoint_gb'])} GB）"
            f"需要 {num(light)} GB/s。{zh}"
        )
    if call.input.get("growth_per_year"):
        # "plan for 30% annual growth": what to buy for the years of growth planned, first
        grow, years = pct(call.input["growth_per_year"]), num(call.input.get("growth_years", 1))
        en = (
            f"With {grow} growth a year for {years} year{'s' if years != '1' else ''}, plan about "
            f"**{num(o['total_after_growth_tb'])} TB**; today's need is {num(o['total_tb'])} TB. " + en
        )
        zh = (
            f"按每年增长 {grow}、规划 {years} 年，约需 **{num(o['total_after_growth_tb'])} TB**；当前需求 {num(o['total_tb'])} TB。"
            + zh
        )
    rows = [Row(en="Tokenized dataset", zh="分词后数据", value=f"{num(o['tokenized_gb'])} GB"),
            Row(en="Weights-only checkpoint", zh="仅权重检查点", value=f"{num(o['weights_only_checkpoint_gb'])} GB"),
            Row(en="Full checkpoint", zh="完整检查点", value=f"{num(o['full_checkpoint_gb'])} GB"),
            Row(en="Checkpoints retained", zh="保留检查点", value=f"{o['checkpoints_retained']} ({num(o['checkpoints_gb'])} GB)"),
            Row(en="Total with headroom", zh="含余量合计", value=f"{num(o['total_tb'])} TB"),
            Row(en="After growth", zh="计入增长后", value=f"{num(o['total_after_growth_tb'])} TB"),
            Row(en="Checkpoint write bandwidth", zh="检查点写入带宽", value=f"{num(o['checkpoint_write_gb_s'])} GB/s")]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="storage",
    title=("Storage", "存储"),
    triggers=words(
        r"storage",
        r"\bdisk",
        r"checkpoint size",
        r"how big.*checkpoint",
        r"\btb of\b",
        r"存储",
        r"硬盘",
        r"磁盘",
        r"检查点.*(?:多大|大小)",
        r"数据集.*(?:多大|空间)",
        r"(?:占|要|需要)(?:用)?\s*多(?:少|大)\s*(?:的)?\s*(?:磁盘|硬盘)?空间",
        r"how much (?:disk )?space",
        # "how big is the raw text vs tokenized?": the corpus on disk
        r"how (?:big|large) (?:is|are|would be|will be) (?:the |our )?(?:raw|tokeni[sz]ed|corpus|dataset|data)",
        r"\braw text\b[^?.]{0,20}\btokeni[sz]ed\b",
        r"原始文本[^？?。]{0,10}(?:多大|大小)",
        r"(?:多少|几)\s*(?:块|个)?\s*(?:硬)?盘",
        r"(?:nvme|ssd)\s*(?:要|需要|得|应该)?\s*(?:配|装|买)?\s*多(?:大|少)",
        r"(?:配|装|买)\s*多(?:大|少)\s*(?:的)?\s*(?:nvme|ssd|盘)",
        r"how (?:much|big|many tb)\b[^?]{0,20}\b(?:nvme|ssd|drives?)",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"checkpoint", "weights_checkpoint", "storage"}),
)
