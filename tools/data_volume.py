"""Storage arithmetic on figures a team already has: bytes of token ids, data that grows and is copied,
the read rate of a training job's data, the write rate to save a checkpoint in time, and the space the
checkpoints kept take.

Each result is a product or a quotient of the given figures; the calculator states the formula and
converts units (TB = 10^12 bytes, TiB = 2^40) so nobody has to.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, model_validator

from knowledge.catalog import Catalog
from tools.common import Reference, ToolInput, ToolOutput, round_sig
from tools.messages import Message
from tools.storage import LZBENCH, NANOGPT, OPENAI_TOKENS, TB, TIB, TokenIdBytes

UINT16_MAX_VOCAB = 65_536
UNITS = Reference(
    title="IEC 80000-13: TB = 10^12 bytes, TiB = 2^40 bytes",
    url="https://en.wikipedia.org/wiki/Byte#Multiple-byte_units",
)


_GIVE_SOMETHING = Message(
    "data_volume.give_something",
    en="give tokens_b, text_tb, raw_tb, tokens_per_second_per_gpu, samples_per_second_per_gpu or checkpoint_tb",
    zh="请给出 tokens_b、text_tb、raw_tb、tokens_per_second_per_gpu、samples_per_second_per_gpu 或 "
    "checkpoint_tb 之一",
)
_TEXT_ALONE = Message(
    "data_volume.text_alone",
    en="text_tb estimates the tokens: give it without tokens_b or raw_tb",
    zh="text_tb 用来估算 token 数：给了 text_tb 就不要再给 tokens_b 或 raw_tb",
)
_RATE_NEEDS_GPUS = Message(
    "data_volume.rate_needs_gpus",
    en="a read rate per GPU needs gpus, the GPUs reading data",
    zh="每卡读取速率需要配合 gpus（读取数据的 GPU 数）",
)
_SAMPLES_TOGETHER = Message(
    "data_volume.samples_together",
    en="give samples_per_second_per_gpu and sample_mb together",
    zh="samples_per_second_per_gpu 和 sample_mb 需要一起给出",
)
_TOKENS_OR_SAMPLES = Message(
    "data_volume.tokens_or_samples",
    en="give tokens_per_second_per_gpu or samples_per_second_per_gpu, not both",
    zh="tokens_per_second_per_gpu 和 samples_per_second_per_gpu 只给其中一个",
)
_CHECKPOINT_NEEDS = Message(
    "data_volume.checkpoint_needs",
    en="checkpoint_tb needs write_seconds (the time allowed to write it), the checkpoints kept "
    "(checkpoints_kept, or checkpoint_interval_hours with checkpoint_window_hours) or nodes "
    "(the servers sharing it)",
    zh="checkpoint_tb 需要配合 write_seconds（允许的写入时间）、保留的检查点数（checkpoints_kept，或 "
    "checkpoint_interval_hours 加 checkpoint_window_hours）或 nodes（分担它的服务器数）",
)
_NODES_NEED_CHECKPOINT = Message(
    "data_volume.nodes_need_checkpoint",
    en="nodes splits a checkpoint: give checkpoint_tb, the size of one",
    zh="nodes 用于分摊检查点：请给出 checkpoint_tb（单个检查点大小）",
)
_KEPT_NEED_CHECKPOINT = Message(
    "data_volume.kept_need_checkpoint",
    en="checkpoints kept need checkpoint_tb, the size of one",
    zh="保留的检查点需要配合 checkpoint_tb（单个检查点大小）",
)
_GROWTH_NEEDS_RETENTION = Message(
    "data_volume.growth_needs_retention",
    en="growth_tb_per_day needs retention_days, how long data is kept",
    zh="growth_tb_per_day 需要配合 retention_days（数据保留天数）",
)
_UNCOMPRESSED = Message(
    "data_volume.uncompressed",
    en="{stored} TB compressed x {ratio} = {text} TB of text uncompressed (`zstd -l` or `gzip -l` prints your "
    "files' real ratio)",
    zh="压缩后 {stored} TB × {ratio} = 解压后 {text} TB 文本（`zstd -l` 或 `gzip -l` 可查看文件的实际压缩比）",
)
_KEPT_SHARE = Message(
    "data_volume.kept_after_cleaning",
    en="{share} kept after cleaning and deduplication: {text} TB of text",
    zh="清洗、去重后保留 {share}：{text} TB 文本",
)
_ID_WIDTH = Message(
    "data_volume.id_width",
    en="{width} bytes per token id ({dtype})",
    zh="每个 token id 占 {width} 字节（{dtype}）",
)
_TEXT_PER_TOKEN = Message(
    "data_volume.text_per_token",
    en="{bytes} bytes of raw text per token (English averages about 4; measure your tokenizer on a sample, "
    "Chinese text differs)",
    zh="每个 token 约 {bytes} 字节原始文本（英文平均约 4 字节；中文不同，请用自己的分词器在样本上实测）",
)
_VOCAB_TOO_LARGE = Message(
    "data_volume.vocab_too_large_for_uint16",
    en="a {vocab}-token vocabulary does not fit uint16 (at most 65,536 ids): use 4 bytes",
    zh="{vocab} 个词的词表放不进 uint16（最多 65,536 个 id）：请用 4 字节",
)
_UINT16_LIMIT = Message(
    "data_volume.uint16_limit",
    en="uint16 holds ids only for vocabularies up to 65,536 (GPT-2's 50,257 fits; Llama 3's 128k does not)",
    zh="uint16 只能容纳不超过 65,536 个词的词表（GPT-2 的 50,257 可以；Llama 3 的 128k 不行）",
)
_DATA_NOW = Message(
    "data_volume.data_now",
    en="{raw} TB now{growth}, {copies}",
    zh="现有 {raw} TB{growth}，{copies}",
)
_GROWTH = Message(
    "data_volume.growth",
    en=" + {per_day} TB/day x {days} days",
    zh=" + 每天 {per_day} TB × {days} 天",
)
_ONE_COPY = Message("data_volume.one_copy", en="{copies} copy", zh="{copies} 份副本")
_COPIES = Message("data_volume.copies", en="{copies} copies", zh="{copies} 份副本")
_ID_COPIES = Message(
    "data_volume.id_copies", en="{copies} copies of the token ids", zh="token id 数据保留 {copies} 份"
)
_TEXT_AND_ID_COPIES = Message(
    "data_volume.text_and_id_copies",
    en="{copies} copies of the raw text and the token ids (given)",
    zh="原始文本和 token id 各保留 {copies} 份（用户给定）",
)
_LINE_RATE = Message(
    "data_volume.line_rate",
    en="{gbit} Gbit/s at line rate; TCP/RDMA overhead and the far end's write speed add to it (expect 70-90% "
    "of line rate in practice)",
    zh="按 {gbit} Gbit/s 线速计；TCP/RDMA 协议开销和对端的写入速度会拉长时间（实际通常为线速的 70%-90%）",
)
_SHARDED = Message(
    "data_volume.sharded",
    en="the checkpoint is sharded evenly over {nodes} servers; an asynchronous save copies each share into "
    "pinned host RAM first, then writes it in the background",
    zh="检查点平均分片到 {nodes} 台服务器上；异步保存时各台先把自己的分片拷进锁页主机内存，再在后台写盘",
)
_WINDOW = Message(
    "data_volume.checkpoint_window",
    en="a checkpoint every {interval} h kept for {window} h: {kept} at once",
    zh="每 {interval} 小时一个检查点、保留 {window} 小时：同时保留 {kept} 个",
)
_ONE_MORE = Message(
    "data_volume.one_more_checkpoint",
    en="one more checkpoint is on disk while the next is written, before the oldest is deleted",
    zh="写下一个检查点时最旧的还没删，盘上会多一个",
)
_DISK = Message(
    "data_volume.disk",
    en="{tb} TB per disk, before hot spares and file-system or RAID overhead",
    zh="每块盘 {tb} TB，未计热备盘和文件系统或 RAID 开销",
)


class DataVolumeInput(ToolInput):
    """Any of: tokens with their id width; raw data with growth, retention and copies; a training job's
    token rate; a checkpoint with its write deadline."""

    tokens_b: float | None = Field(default=None, gt=0, le=1e7, description="Tokens stored, billions.")
    bytes_per_token_id: TokenIdBytes = Field(
        default=4, description="2 (uint16, vocabulary up to 65,536) or 4 (uint32) bytes per token id."
    )
    text_bytes_per_token: float = Field(
        default=4.0,
        gt=0,
        le=64,
        description="Bytes of raw UTF-8 text per token (about 4 for English: OpenAI's ~4 characters per token).",
    )
    vocab_size: int | None = Field(
        default=None, ge=2, le=10_000_000, description="Vocabulary, to check uint16."
    )
    text_tb: float | None = Field(
        default=None,
        gt=0,
        le=1e7,
        description="Raw text still to be tokenized, TB as stored (with compression_ratio and kept_share): "
        "its tokens and their ids are estimated from it.",
    )
    compression_ratio: float = Field(
        default=1.0,
        ge=1,
        le=50,
        description="How many times larger text_tb is uncompressed (jsonl.zst: about 3.2; 1 for plain text).",
    )
    kept_share: float = Field(
        default=1.0,
        gt=0,
        le=1,
        description="Share of text_tb kept after cleaning, filtering and deduplication (0.2 keeps a fifth).",
    )
    disk_tb: float | None = Field(
        default=None, gt=0, le=1000, description="Capacity of one disk, TB: the disks the data needs."
    )
    price_per_gb_month: float | None = Field(
        default=None,
        gt=0,
        le=100,
        description="A storage price per GB-month, in currency: what the capacity kept costs a month.",
    )
    currency: Literal["USD", "CNY"] = Field(default="USD", description="Currency of price_per_gb_month.")
    raw_tb: float | None = Field(default=None, ge=0, le=1e7, description="Data on hand now, TB.")
    growth_tb_per_day: float | None = Field(default=None, ge=0, le=1e5, description="New data per day, TB.")
    retention_days: float | None = Field(
        default=None, gt=0, le=36_500, description="How long data is kept, days."
    )
    replicas: int = Field(default=1, ge=1, le=10, description="Copies kept (3 for three-way replication).")
    tokens_per_second_per_gpu: float | None = Field(
        default=None, gt=0, le=1e9, description="Tokens/s each GPU consumes while training (with gpus)."
    )
    samples_per_second_per_gpu: float | None = Field(
        default=None,
        gt=0,
        le=1e7,
        description="Samples (video clips, images) each GPU consumes per second (with gpus and sample_mb).",
    )
    sample_mb: float | None = Field(
        default=None, gt=0, le=1e6, description="Stored size of one sample, MB (10^6 bytes)."
    )
    gpus: int | None = Field(default=None, ge=1, le=1_000_000, description="GPUs in the training job.")
    checkpoint_tb: float | None = Field(default=None, gt=0, le=1e5, description="One checkpoint, TB.")
    write_seconds: float | None = Field(
        default=None, gt=0, le=1e6, description="Time allowed to write it, s."
    )
    link_gbit_s: float | None = Field(
        default=None,
        gt=0,
        le=1e6,
        description="A link the checkpoint is copied over (with checkpoint_tb), Gbit/s: the time to copy it at line rate.",
    )
    nodes: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="Servers writing the checkpoint (with checkpoint_tb): each writes, and an asynchronous save "
        "stages in pinned host RAM, its share.",
    )
    checkpoints_kept: int | None = Field(
        default=None, ge=1, le=100_000, description="Checkpoints kept at once (with checkpoint_tb)."
    )
    checkpoint_interval_hours: float | None = Field(
        default=None, gt=0, le=10_000, description="Hours between checkpoints (with checkpoint_window_hours)."
    )
    checkpoint_window_hours: float | None = Field(
        default=None, gt=0, le=1e6, description="How far back checkpoints are kept, hours ('the last 48 h')."
    )

    @model_validator(mode="after")
    def _something(self) -> DataVolumeInput:
        if not any(
            (
                self.tokens_b,
                self.text_tb,
                self.raw_tb is not None,
                self.tokens_per_second_per_gpu,
                self.samples_per_second_per_gpu,
                self.checkpoint_tb,
            )
        ):
            raise ValueError(_GIVE_SOMETHING())
        if self.text_tb and (self.tokens_b or self.raw_tb is not None):
            raise ValueError(_TEXT_ALONE())
        if (self.tokens_per_second_per_gpu or self.samples_per_second_per_gpu) and not self.gpus:
            raise ValueError(_RATE_NEEDS_GPUS())
        if bool(self.samples_per_second_per_gpu) != bool(self.sample_mb):
            raise ValueError(_SAMPLES_TOGETHER())
        if self.tokens_per_second_per_gpu and self.samples_per_second_per_gpu:
            raise ValueError(_TOKENS_OR_SAMPLES())
        kept = self.checkpoints_kept or (self.checkpoint_interval_hours and self.checkpoint_window_hours)
        if self.checkpoint_tb and not (self.write_seconds or kept or self.nodes or self.link_gbit_s):
            raise ValueError(_CHECKPOINT_NEEDS())
        if self.nodes and not self.checkpoint_tb:
            raise ValueError(_NODES_NEED_CHECKPOINT())
        if (self.checkpoints_kept or self.checkpoint_window_hours) and not self.checkpoint_tb:
            raise ValueError(_KEPT_NEED_CHECKPOINT())
        if self.growth_tb_per_day and not self.retention_days:
            raise ValueError(_GROWTH_NEEDS_RETENTION())
        return self


class DataVolumeOutput(ToolOutput):
    text_uncompressed_tb: float | None = Field(
        default=None, description="text_tb x compression ratio: the text uncompressed, TB."
    )
    tokens_b: float | None = Field(
        default=None,
        description="Tokens: as given, or estimated from text_tb (uncompressed x kept share / text bytes per token).",
    )
    token_ids_tb: float | None = Field(description="tokens x bytes per id, TB.")
    token_ids_tib: float | None
    raw_text_tb: float | None = Field(default=None, description="tokens x text bytes per token, TB.")
    kept_tb: float | None = Field(description="(data now + growth x days) x copies, TB.")
    kept_pb: float | None
    read_mb_s: float | None = Field(description="Training data read rate, MB/s (10^6 bytes).")
    checkpoint_write_gb_s: float | None = Field(
        description="Aggregate write rate to save a checkpoint in time."
    )
    checkpoint_write_gbit_s: float | None
    checkpoint_share_gb: float | None = Field(
        default=None,
        description="Each server's share of a checkpoint, GB: what it writes and, for an asynchronous save, "
        "first copies into pinned host RAM.",
    )
    checkpoint_write_gb_s_per_node: float | None = Field(
        default=None, description="Each server's share of the write rate, GB/s."
    )
    checkpoints_kept: int | None = Field(default=None, description="Checkpoints held at once.")
    transfer_seconds: float | None = Field(
        default=None, description="checkpoint_tb over link_gbit_s at line rate, seconds."
    )
    checkpoints_tb: float | None = Field(
        default=None, description="checkpoint size x checkpoints kept (+1 while the next is written), TB."
    )
    disks: int | None = Field(
        default=None, description="Disks of disk_tb for the capacity kept (or the token ids), rounded up."
    )
    priced_gb: float | None = Field(
        default=None,
        description="The capacity priced, GB: the checkpoints kept, else the data kept or its ids.",
    )
    monthly_cost: float | None = Field(
        default=None, description="priced_gb x price per GB-month, in the input's currency."
    )


def data_volume(inp: DataVolumeInput, catalog: Catalog) -> DataVolumeOutput:
    """Storage figures from what is known: size of tokenised data, data kept with growth and copies, the data
    read rate of a training job, and the write rate a checkpoint needs.

    Token ids: TB = tokens x 2 or 4 bytes / 10^12. Kept data: (raw TB + TB per day x days) x copies, or
    with tokens and no raw size, (token ids + raw text) x copies. Read
    rate: tokens/s per GPU x GPUs x bytes per id. Checkpoint write rate: checkpoint size / allowed seconds (GB/s and Gb/s).
    Checkpoints kept: size x (count kept, or window / interval, + 1 being written). With the servers writing
    it, each one's share (size / servers): what it writes and what an asynchronous save stages in host RAM.
    """
    assumptions: list[str] = []
    warnings: list[str] = []
    formulas: list[str] = []
    ids_tb = ids_tib = text_tb = kept = read = write = uncompressed = None
    width = inp.bytes_per_token_id
    tokens_b = inp.tokens_b
    if inp.text_tb:
        # "2 PB of raw data, 20% left after cleaning", "40 TB of jsonl.zst": the text the tokenizer sees, then its
        # tokens at the bytes of text per token
        uncompressed = round_sig(inp.text_tb * inp.compression_ratio)
        text_tb = round_sig(inp.text_tb * inp.compression_ratio * inp.kept_share)
        tokens_b = round_sig(
            inp.text_tb * inp.compression_ratio * inp.kept_share * TB / inp.text_bytes_per_token / 1e9
        )
        formulas.append(
            "tokens = text x compression ratio x share kept / text bytes per token; token ids = tokens x bytes per id"
        )
        if inp.compression_ratio > 1:
            assumptions.append(
                _UNCOMPRESSED(
                    stored=f"{inp.text_tb:g}", ratio=f"{inp.compression_ratio:g}", text=f"{uncompressed:g}"
                )
            )
        if inp.kept_share < 1:
            assumptions.append(_KEPT_SHARE(share=f"{inp.kept_share:.0%}", text=f"{text_tb:g}"))
    if tokens_b:
        size = tokens_b * 1e9 * width
        ids_tb, ids_tib = round_sig(size / TB), round_sig(size / TIB)
        if not inp.text_tb:
            text_tb = round_sig(tokens_b * 1e9 * inp.text_bytes_per_token / TB)
            formulas.append("token ids = tokens x bytes per id; raw text = tokens x text bytes per token")
        assumptions.append(_ID_WIDTH(width=width, dtype="uint16" if width == 2 else "uint32"))
        assumptions.append(_TEXT_PER_TOKEN(bytes=f"{inp.text_bytes_per_token:g}"))
        if width == 2 and inp.vocab_size and inp.vocab_size > UINT16_MAX_VOCAB:
            warnings.append(_VOCAB_TOO_LARGE(vocab=f"{inp.vocab_size:,}"))
        elif width == 2:
            warnings.append(_UINT16_LIMIT())
    if inp.raw_tb is not None:
        grown = (inp.growth_tb_per_day or 0) * (inp.retention_days or 0)
        kept = round_sig((inp.raw_tb + grown) * inp.replicas)
        formulas.append("kept = (data now + growth per day x days) x copies")
        assumptions.append(
            _DATA_NOW(
                raw=f"{inp.raw_tb:g}",
                growth=_GROWTH(per_day=f"{inp.growth_tb_per_day:g}", days=f"{inp.retention_days:g}")
                if grown
                else "",
                copies=(_ONE_COPY if inp.replicas == 1 else _COPIES)(copies=inp.replicas),
            )
        )
    elif inp.text_tb and ids_tb is not None:
        # the tokenized shards are what training keeps; the source text is archived once, elsewhere
        kept = round_sig(ids_tb * inp.replicas)
        formulas.append("kept = token ids x copies")
        if inp.replicas > 1:
            assumptions.append(_ID_COPIES(copies=inp.replicas))
    elif inp.tokens_b and inp.replicas > 1 and ids_tb is not None and text_tb is not None:
        # "keep roughly 3x for dedup stages and versions": the text and its ids, that many times over
        kept = round_sig((ids_tb + text_tb) * inp.replicas)
        formulas.append("kept = (token ids + raw text) x copies")
        assumptions.append(_TEXT_AND_ID_COPIES(copies=inp.replicas))
    if inp.tokens_per_second_per_gpu and inp.gpus:
        read = round_sig(inp.tokens_per_second_per_gpu * inp.gpus * width / 1e6)
        formulas.append("read rate = tokens/s per GPU x GPUs x bytes per id")
    elif inp.samples_per_second_per_gpu and inp.sample_mb and inp.gpus:
        # video clips or images: each GPU reads whole samples, far more bytes than token ids
        read = round_sig(inp.samples_per_second_per_gpu * inp.gpus * inp.sample_mb)
        formulas.append("read rate = samples/s per GPU x GPUs x MB per sample")
    if inp.checkpoint_tb and inp.write_seconds:
        write = round_sig(inp.checkpoint_tb * 1000 / inp.write_seconds)
        formulas.append("write rate = checkpoint size / allowed seconds")
    transfer = None
    if inp.checkpoint_tb and inp.link_gbit_s:
        # "push a 1 TB shard over 2x200G": bytes over the link's rate; protocols and storage keep it below
        transfer = round_sig(inp.checkpoint_tb * 1e12 * 8 / (inp.link_gbit_s * 1e9))
        formulas.append("transfer time = checkpoint bytes x 8 / link Gbit/s")
        assumptions.append(_LINE_RATE(gbit=f"{inp.link_gbit_s:g}"))
    share = share_rate = None
    if inp.checkpoint_tb and inp.nodes:
        # sharded saves (torch.distributed.checkpoint, Megatron's dist-ckpt) write from every rank, so each
        # server writes, and an asynchronous save stages, its own share
        share = round_sig(inp.checkpoint_tb * 1000 / inp.nodes)
        share_rate = round_sig(write / inp.nodes) if write is not None else None
        formulas.append("share per server = checkpoint size / servers")
        assumptions.append(_SHARDED(nodes=inp.nodes))
    kept_count = store = None
    if inp.checkpoint_tb and (
        inp.checkpoints_kept or (inp.checkpoint_interval_hours and inp.checkpoint_window_hours)
    ):
        if inp.checkpoints_kept:
            kept_count = inp.checkpoints_kept
        else:
            window, interval = inp.checkpoint_window_hours or 0.0, inp.checkpoint_interval_hours or 1.0
            kept_count = math.ceil(window / interval - 1e-9)
            assumptions.append(
                _WINDOW(
                    interval=f"{inp.checkpoint_interval_hours:g}",
                    window=f"{inp.checkpoint_window_hours:g}",
                    kept=kept_count,
                )
            )
        # the newest is written before the oldest is deleted, so one more is on disk for a while
        store = round_sig(inp.checkpoint_tb * (kept_count + 1))
        formulas.append("checkpoint store = checkpoint size x (checkpoints kept + 1 being written)")
        assumptions.append(_ONE_MORE())
    disks = None
    if inp.disk_tb and (kept or ids_tb or store):
        # "20 TB disks, three copies: how many disks?": the capacity over one disk's, before spares and the
        # file system's own overhead
        disks = math.ceil((kept or ids_tb or store or 0) / inp.disk_tb - 1e-9)
        formulas.append("disks = capacity / disk size, rounded up")
        assumptions.append(_DISK(tb=f"{inp.disk_tb:g}"))
    priced = monthly = None
    if inp.price_per_gb_month and (kept_count or kept or ids_tb):
        # "保留20个，按 0.12元/GB/月 一个月多少钱": what is kept in steady state, at the price given
        priced = round_sig(
            (inp.checkpoint_tb or 0) * kept_count * 1000 if kept_count else (kept or ids_tb or 0) * 1000
        )
        monthly = round_sig(priced * inp.price_per_gb_month)
        formulas.append("monthly cost = GB kept x price per GB-month")
    sources = [NANOGPT, OPENAI_TOKENS, UNITS] if tokens_b else [NANOGPT, UNITS]
    if inp.text_tb and inp.compression_ratio > 1:
        sources.append(LZBENCH)
    return DataVolumeOutput(
        formula="; ".join(formulas),
        assumptions=assumptions,
        warnings=warnings,
        sources=sources,
        text_uncompressed_tb=uncompressed,
        tokens_b=tokens_b,
        token_ids_tb=ids_tb,
        token_ids_tib=ids_tib,
        raw_text_tb=text_tb,
        kept_tb=kept,
        kept_pb=round_sig(kept / 1000) if kept is not None else None,
        read_mb_s=read,
        checkpoint_write_gb_s=write,
        checkpoint_write_gbit_s=round_sig(write * 8) if write is not None else None,
        checkpoint_share_gb=share,
        checkpoint_write_gb_s_per_node=share_rate,
        checkpoints_kept=kept_count,
        checkpoints_tb=store,
        transfer_seconds=transfer,
        disks=disks,
        priced_gb=priced,
        monthly_cost=monthly,
    )
