"""Storage arithmetic on known figures: token-id bytes, data kept with growth and copies, read and write rates."""

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
    num,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if slots.token_bytes:
        payload["bytes_per_token_id"] = slots.token_bytes
    if slots.tokens_b and (slots.token_bytes or not (slots.params_b or slots.model)):
        # "8T tokens: how much disk?": the corpus itself, when no model makes it a training plan
        payload["tokens_b"] = slots.tokens_b
        if slots.model:
            payload["vocab_size"] = catalog.model(slots.model).vocab_size
    if slots.raw_data_tb and slots.tokenized_tb:
        # "原始语料 200TB，tokenize 后大概 40TB": the raw data and its tokenised shards, both kept, as told
        payload["raw_tb"] = slots.raw_data_tb + slots.tokenized_tb
        if slots.replicas:
            payload["replicas"] = slots.replicas
        assumptions.append(
            assumed(
                f"raw data {num(slots.raw_data_tb)} TB + tokenized {num(slots.tokenized_tb)} TB (as you gave them), both kept",
                f"原始数据 {num(slots.raw_data_tb)} TB + 分词后 {num(slots.tokenized_tb)} TB（用户给定），两份都保留",
            )
        )
    elif slots.raw_data_tb and not slots.data_tokenized and "tokens_b" not in payload and _to_tokenize(slots):
        # "2PB原始数据，清洗后剩20%，tokenize之后多少", "40 TB of jsonl.zst, we will tokenize it": the tokens that
        # text makes and their ids, not the raw bytes again
        payload["text_tb"] = slots.raw_data_tb
        if slots.data_compression:
            payload["compression_ratio"] = slots.data_compression
        if slots.data_kept_share:
            payload["kept_share"] = slots.data_kept_share
        if slots.replicas:
            payload["replicas"] = slots.replicas
    elif slots.raw_data_tb is not None:
        payload["raw_tb"] = slots.raw_data_tb
        if slots.growth_tb_per_day:
            payload.update(
                growth_tb_per_day=slots.growth_tb_per_day, retention_days=slots.retention_days or 365
            )
        if slots.replicas:
            payload["replicas"] = slots.replicas
    if "tokens_b" in payload and slots.replicas and slots.raw_data_tb is None:
        payload["replicas"] = slots.replicas  # "keep roughly 3x": the corpus, that many times
    if slots.tokens_per_second_per_gpu and slots.gpu_count:
        payload.update(tokens_per_second_per_gpu=slots.tokens_per_second_per_gpu, gpus=slots.gpu_count)
        if not slots.token_bytes:
            # the id width of today's vocabularies (Llama 3: 128,256 ids) is 4 bytes
            payload["bytes_per_token_id"] = 4
            assumptions.append(
                assumed(
                    "4 bytes per token id (int32: vocabularies above 65,536, as Llama 3's and Qwen's)",
                    "每个 token id 4 字节（int32：词表超过 65,536，如 Llama 3、Qwen）",
                )
            )
    elif slots.samples_per_second_per_gpu and slots.sample_mb and slots.gpu_count:
        # "64卡 每卡每秒40个clip 每个2MB": video or images, read whole
        payload.update(
            samples_per_second_per_gpu=slots.samples_per_second_per_gpu,
            sample_mb=slots.sample_mb,
            gpus=slots.gpu_count,
        )
    if slots.checkpoint_tb and slots.transfer_gbit:
        payload.update(checkpoint_tb=slots.checkpoint_tb, link_gbit_s=slots.transfer_gbit)
    if slots.checkpoint_tb and slots.write_seconds:
        payload.update(checkpoint_tb=slots.checkpoint_tb, write_seconds=slots.write_seconds)
    if slots.checkpoint_tb and (slots.servers or 0) > 1:
        # "2.1 TB, 16 nodes": what each node writes, and stages in host RAM for an asynchronous save
        payload.update(checkpoint_tb=slots.checkpoint_tb, nodes=slots.servers)
    if slots.checkpoint_tb and (slots.checkpoints or (slots.checkpoint_hours and slots.retention_days)):
        # "a 1.8 TB checkpoint every 30 min, kept for 48 h", "每个900GB，保留最近8个": the space they take
        payload["checkpoint_tb"] = slots.checkpoint_tb
        if slots.checkpoints:
            payload["checkpoints_kept"] = slots.checkpoints
        else:
            payload.update(
                checkpoint_interval_hours=slots.checkpoint_hours,
                checkpoint_window_hours=round((slots.retention_days or 0) * 24, 6),
            )
    if slots.storage_price_per_gb_month and payload.keys() & {
        "text_tb",
        "raw_tb",
        "tokens_b",
        "checkpoint_tb",
    }:
        # "保留20个，按 0.12元/GB/月 一个月多少钱": the capacity kept, at that price
        payload["price_per_gb_month"] = slots.storage_price_per_gb_month
        payload["currency"] = "CNY" if slots.storage_price_currency == "CNY" else "USD"
    if slots.disk_tb and payload.keys() & {"text_tb", "raw_tb", "tokens_b", "checkpoint_tb"}:
        payload["disk_tb"] = slots.disk_tb  # "单盘20TB 三副本 要多少块盘"
    if not payload.keys() - {"bytes_per_token_id"}:
        return None
    return Plan(tool="data_volume", payload=payload, assumed=assumptions)


def _to_tokenize(slots: Slots) -> bool:
    """Whether the raw data given is text still to be tokenized: said so, compressed, or cleaned down to a share."""
    return bool(slots.to_tokenize or slots.data_compression or slots.data_kept_share)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    en: list[str] = []
    zh: list[str] = []
    rows: list[Row] = []
    if (seconds := o.get("transfer_seconds")) is not None:
        # "how long to push a 1 TB shard over 2x200G?": the time at line rate, and at the 70-90% links deliver
        size, link = num(i["checkpoint_tb"]), num(i["link_gbit_s"])
        slow, fast = duration(seconds / 0.7), duration(seconds / 0.9)
        en.append(
            f"Copying {size} TB over {link} Gbit/s takes about **{duration(seconds)}** at line rate "
            f"({fast} to {slow} at the 70-90% of line rate copies usually reach)."
        )
        zh.append(
            f"{size} TB 走 {link} Gbit/s 链路，按线速约需 **{duration(seconds, zh=True)}**"
            f"（实际通常只跑到线速的 70%-90%，约 {duration(seconds / 0.9, zh=True)} 到 {duration(seconds / 0.7, zh=True)}）。"
        )
        rows.append(Row(en="Transfer time at line rate", zh="按线速传输时间", value=f"{num(seconds)} s"))
    if o.get("checkpoint_write_gb_s") is not None:
        en.append(
            f"Writing a {num(i['checkpoint_tb'])} TB checkpoint in {num(i['write_seconds'])} s needs about "
            f"**{num(o['checkpoint_write_gb_s'])} GB/s** of aggregate write bandwidth ({num(o['checkpoint_write_gbit_s'])} Gb/s)."
        )
        zh.append(
            f"要在 {num(i['write_seconds'])} 秒内写完 {num(i['checkpoint_tb'])} TB 的检查点，需要约 "
            f"**{num(o['checkpoint_write_gb_s'])} GB/s** 的聚合写带宽（{num(o['checkpoint_write_gbit_s'])} Gb/s）。"
        )
        rows.append(
            Row(
                en="Checkpoint write rate",
                zh="检查点写入带宽",
                value=f"{num(o['checkpoint_write_gb_s'])} GB/s",
            )
        )
    if o.get("checkpoint_share_gb") is not None:
        share, nodes = num(o["checkpoint_share_gb"]), i["nodes"]
        rate = o.get("checkpoint_write_gb_s_per_node")
        at_en = f" at {num(rate)} GB/s" if rate is not None else ""
        at_zh = f"，每台 {num(rate)} GB/s" if rate is not None else ""
        staging_en = (
            f"an asynchronous save first copies each node's share into pinned host RAM: **{share} GB of RAM per "
            f"node** ({num(i['checkpoint_tb'])} TB / {nodes} nodes), on top of what training uses."
        )
        staging_zh = (
            f"异步保存先把每台的那一份拷进锁页内存：**每台约 {share} GB 内存**（{num(i['checkpoint_tb'])} TB / "
            f"{nodes} 台），在训练本身占用的内存之外。"
        )
        if view.asked == "staging":
            en.insert(0, staging_en[0].upper() + staging_en[1:])
            zh.insert(0, staging_zh)
        else:
            en.append(f"Each of the {nodes} nodes writes its {share} GB share{at_en}; {staging_en}")
            zh.append(f"{nodes} 台各写自己的 {share} GB{at_zh}；{staging_zh}")
        rows.append(Row(en="Share per node", zh="每台分摊", value=f"{share} GB"))
    if o.get("checkpoints_tb") is not None:
        kept = o["checkpoints_kept"]
        en.insert(
            0,
            f"Keeping {kept} checkpoints of {num(i['checkpoint_tb'])} TB takes **{num(o['checkpoints_tb'])} TB** "
            f"(one more is on disk while the next is written).",
        )
        zh.insert(
            0,
            f"保留 {kept} 个 {num(i['checkpoint_tb'])} TB 的检查点需要约 **{num(o['checkpoints_tb'])} TB**"
            "（写下一个时旧的还没删，多算一个）。",
        )
        rows.insert(
            0, Row(en="Checkpoints kept", zh="保留检查点", value=f"{kept} x {num(i['checkpoint_tb'])} TB")
        )
        rows.insert(1, Row(en="Checkpoint storage", zh="检查点存储", value=f"{num(o['checkpoints_tb'])} TB"))
    if o.get("read_mb_s") is not None and i.get("samples_per_second_per_gpu"):
        rate, gb_s = num(o["read_mb_s"]), num(o["read_mb_s"] / 1000)
        made = f"{num(i['gpus'])} x {num(i['samples_per_second_per_gpu'])} x {num(i['sample_mb'])} MB"
        en.insert(
            0,
            f"Training reads about **{gb_s} GB/s** ({rate} MB/s = {made}, GPUs x samples/s per GPU x sample size), "
            "sustained for the whole run: that sets the shared storage's read bandwidth (NVMe or a parallel file "
            "system, or a local NVMe cache in front of slower capacity).",
        )
        zh.insert(
            0,
            f"训练持续读取约 **{gb_s} GB/s**（{rate} MB/s = {made}，卡数 × 每卡每秒样本数 × 每个样本大小），"
            "整个训练期间都要这么读：共享存储的读带宽按这个配（NVMe 或并行文件系统，或在慢速大容量层前加本地 NVMe 缓存）。",
        )
        rows.insert(0, Row(en="Data read rate", zh="数据读取速率", value=f"{gb_s} GB/s"))
    elif o.get("read_mb_s") is not None:
        en.append(
            f"The training data is read at only about **{num(o['read_mb_s'])} MB/s** ({num(i['gpus'])} GPUs x "
            f"{num(i['tokens_per_second_per_gpu'])} tokens/s x {i['bytes_per_token_id']} bytes): checkpoints, not data "
            "loading, set the storage bandwidth."
        )
        zh.append(
            f"训练数据的读取速率只有约 **{num(o['read_mb_s'])} MB/s**（{num(i['gpus'])} 张卡 × 每卡 "
            f"{num(i['tokens_per_second_per_gpu'])} token/s × {i['bytes_per_token_id']} 字节）：决定存储带宽的是检查点，不是数据读取。"
        )
        rows.append(Row(en="Data read rate", zh="数据读取速率", value=f"{num(o['read_mb_s'])} MB/s"))
    if o.get("token_ids_tb") is not None and i.get("text_tb"):
        en_text, zh_text, text_rows = _from_text(i, o)
        en.append(en_text)
        zh.append(zh_text)
        rows.extend(text_rows)
    elif o.get("token_ids_tb") is not None:
        width = "uint16" if i.get("bytes_per_token_id") == 2 else "uint32"
        text = o.get("raw_text_tb")
        per = num(i.get("text_bytes_per_token", 4))
        tokens = f"{num(i['tokens_b'] / 1000)}T" if i["tokens_b"] >= 1000 else f"{num(i['tokens_b'])}B"
        en.append(
            f"{tokens} tokens stored as {width} take **{num(o['token_ids_tb'])} TB** "
            f"({num(o['token_ids_tib'])} TiB) tokenized"
            + (f"; the raw text is about **{num(text)} TB** at {per} bytes per token" if text else "")
            + (
                ", before the unfiltered source data."
                if o.get("kept_tb")
                else ", before copies and the unfiltered source data."
            )
        )
        zh.append(
            f"{tokens} token 用 {width} 存储，分词后约 **{num(o['token_ids_tb'])} TB**"
            f"（{num(o['token_ids_tib'])} TiB）"
            + (f"；原始文本按每 token {per} 字节约 **{num(text)} TB**" if text else "")
            + ("，不含未清洗的原始数据。" if o.get("kept_tb") else "，不含副本和未清洗的原始数据。")
        )
        rows.append(Row(en="Token ids", zh="分词后数据", value=f"{num(o['token_ids_tb'])} TB"))
        if text:
            rows.append(Row(en="Raw text", zh="原始文本", value=f"{num(text)} TB"))
    if o.get("kept_tb") is not None and i.get("text_tb"):
        copies = i.get("replicas", 1)
        if copies > 1:
            en.append(
                f"With {copies} copies that is **{num(o['kept_tb'])} TB** ({num(o['kept_pb'])} PB) of raw capacity."
            )
            zh.append(f"{copies} 副本共需约 **{num(o['kept_tb'])} TB**（{num(o['kept_pb'])} PB）裸容量。")
            rows.append(Row(en="Capacity with copies", zh="含副本总容量", value=f"{num(o['kept_tb'])} TB"))
    elif o.get("kept_tb") is not None:
        en.append(
            f"Keeping it takes **{num(o['kept_tb'])} TB** ({num(o['kept_pb'])} PB) of raw capacity "
            f"with {i.get('replicas', 1)} cop{'y' if i.get('replicas', 1) == 1 else 'ies'}."
        )
        zh.append(
            f"总共需要约 **{num(o['kept_tb'])} TB**（{num(o['kept_pb'])} PB）裸容量（{i.get('replicas', 1)} 副本）。"
        )
        rows.append(Row(en="Capacity kept", zh="总容量", value=f"{num(o['kept_tb'])} TB"))
    if (monthly := o.get("monthly_cost")) is not None:
        sign = "¥" if i.get("currency") == "CNY" else "$"
        price = f"{sign}{num(i['price_per_gb_month'])}"
        en.insert(
            0,
            f"Storing {num(o['priced_gb'])} GB at {price} per GB-month costs about **{sign}{num(monthly)} a month**.",
        )
        zh.insert(0, f"按每 GB 每月 {price} 存 {num(o['priced_gb'])} GB，每月约 **{sign}{num(monthly)}**。")
        rows.insert(0, Row(en="Monthly storage cost", zh="每月存储费用", value=f"{sign}{num(monthly)}"))
    if (disks := o.get("disks")) is not None:
        total = o.get("kept_tb") or o.get("token_ids_tb") or o.get("checkpoints_tb")
        en.insert(
            0,
            f"You need **{disks} disks** of {num(i['disk_tb'])} TB for {num(total)} TB, before hot spares and "
            "file-system or RAID overhead (plan 10-20% more).",
        )
        zh.insert(
            0,
            f"需要 **{disks} 块** {num(i['disk_tb'])} TB 硬盘（{num(total)} TB），未计热备盘和文件系统/RAID 开销（再多留 10%-20%）。",
        )
        rows.insert(0, Row(en="Disks", zh="硬盘数", value=f"{disks} x {num(i['disk_tb'])} TB"))
    return Summary(headline_en=" ".join(en), headline_zh="".join(zh), inputs=[], results=rows)


def _tokens_zh(tokens_b: float) -> str:
    """A token count as Chinese engineers say it: "100 万亿" for 100T, "3,190 亿" for 319B."""
    if tokens_b >= 1000:
        return f"{num(tokens_b / 1000)} 万亿（{num(tokens_b / 1000)}T）"
    return f"{num(tokens_b * 10)} 亿（{num(tokens_b)}B）"


def _from_text(i: dict[str, Any], o: dict[str, Any]) -> tuple[str, str, list[Row]]:
    """Raw text still to be tokenized: the text kept, its tokens and the ids' size, in the order they follow."""
    width = "uint16" if i.get("bytes_per_token_id") == 2 else "uint32"
    ratio, share, per = (
        i.get("compression_ratio", 1),
        i.get("kept_share", 1),
        num(i.get("text_bytes_per_token", 4)),
    )
    tokens = o["tokens_b"]
    tokens_en = f"{num(tokens / 1000)}T" if tokens >= 1000 else f"{num(tokens)}B"
    steps_en = [f"{num(i['text_tb'])} TB"]
    steps_zh = [f"{num(i['text_tb'])} TB"]
    if ratio > 1:
        steps_en.append(f"x {num(ratio)} uncompressed")
        steps_zh.append(f"解压 x {num(ratio)}")
    if share < 1:
        steps_en.append(f"x {share:.0%} kept")
        steps_zh.append(f"清洗后保留 {share:.0%}")
    made_en = " ".join(steps_en) + f" = {num(o['raw_text_tb'])} TB of text"
    made_zh = "，".join(steps_zh) + f"，得到 {num(o['raw_text_tb'])} TB 文本"
    en = (
        f"Tokenized, the data takes about **{num(o['token_ids_tb'])} TB** ({num(o['token_ids_tib'])} TiB) as {width} ids: "
        f"{made_en}, about **{tokens_en} tokens** at {per} bytes of text per token"
        + (
            f" ({num(o['token_ids_tb'] / 2)} TB as uint16 if the vocabulary fits 65,536 ids)."
            if width == "uint32"
            else "."
        )
    )
    zh = (
        f"分词后约 **{num(o['token_ids_tb'])} TB**（{num(o['token_ids_tib'])} TiB，{width} 存储）：{made_zh}，"
        f"按每 token {per} 字节约 **{_tokens_zh(tokens)} token**"
        + (
            f"（词表不超过 65,536 时用 uint16 减半为 {num(o['token_ids_tb'] / 2)} TB）。"
            if width == "uint32"
            else "。"
        )
    )
    # the delivery kept beside the ids ("how much disk for raw + tokenized?"): both on disk
    both = i["text_tb"] + o["token_ids_tb"]
    en += f" With the {num(i['text_tb'])} TB as delivered kept beside the ids: about {num(both)} TB in all."
    zh += f"原始的 {num(i['text_tb'])} TB 也保留的话，合计约 {num(both)} TB。"
    rows = [
        Row(en="Text after cleaning", zh="清洗后文本", value=f"{num(o['raw_text_tb'])} TB"),
        Row(en="Tokens", zh="token 数", value=tokens_en),
        Row(en="Token ids", zh="分词后数据", value=f"{num(o['token_ids_tb'])} TB"),
    ]
    return en, zh, rows


CALCULATOR = Calculator(
    name="data_volume",
    title=("Data and checkpoint volume", "数据与检查点容量"),
    triggers=words(
        r"a^"
    ),  # chosen by the figures given: token width, raw data and growth, checkpoint size and time
    build=_build,
    summarize=_summarize,
    answers=frozenset({"storage", "bandwidth", "staging"}),
)
