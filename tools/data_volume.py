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
from tools.storage import LZBENCH, NANOGPT, OPENAI_TOKENS, TB, TIB, TokenIdBytes

UINT16_MAX_VOCAB = 65_536
UNITS = Reference(
    title="IEC 80000-13: TB = 10^12 bytes, TiB = 2^40 bytes",
    url="https://en.wikipedia.org/wiki/Byte#Multiple-byte_units",
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
            raise ValueError(
                "give tokens_b, text_tb, raw_tb, tokens_per_second_per_gpu, samples_per_second_per_gpu or "
                "checkpoint_tb"
            )
        if self.text_tb and (self.tokens_b or self.raw_tb is not None):
            raise ValueError("text_tb estimates the tokens: give it without tokens_b or raw_tb")
        if (self.tokens_per_second_per_gpu or self.samples_per_second_per_gpu) and not self.gpus:
            raise ValueError("a read rate per GPU needs gpus, the GPUs reading data")
        if bool(self.samples_per_second_per_gpu) != bool(self.sample_mb):
            raise ValueError("give samples_per_second_per_gpu and sample_mb together")
        if self.tokens_per_second_per_gpu and self.samples_per_second_per_gpu:
            raise ValueError("give tokens_per_second_per_gpu or samples_per_second_per_gpu, not both")
        kept = self.checkpoints_kept or (self.checkpoint_interval_hours and self.checkpoint_window_hours)
        if self.checkpoint_tb and not (self.write_seconds or kept or self.nodes or self.link_gbit_s):
            raise ValueError(
                "checkpoint_tb needs write_seconds (the time allowed to write it), the checkpoints kept "
                "(checkpoints_kept, or checkpoint_interval_hours with checkpoint_window_hours) or nodes "
                "(the servers sharing it)"
            )
        if self.nodes and not self.checkpoint_tb:
            raise ValueError("nodes splits a checkpoint: give checkpoint_tb, the size of one")
        if (self.checkpoints_kept or self.checkpoint_window_hours) and not self.checkpoint_tb:
            raise ValueError("checkpoints kept need checkpoint_tb, the size of one")
        if self.growth_tb_per_day and not self.retention_days:
            raise ValueError("growth_tb_per_day needs retention_days, how long data is kept")
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
                f"{inp.text_tb:g} TB compressed x {inp.compression_ratio:g} = {uncompressed:g} TB of text "
                "uncompressed (`zstd -l` or `gzip -l` prints your files' real ratio)"
            )
        if inp.kept_share < 1:
            assumptions.append(
                f"{inp.kept_share:.0%} kept after cleaning and deduplication: {text_tb:g} TB of text"
            )
    if tokens_b:
        size = tokens_b * 1e9 * width
        ids_tb, ids_tib = round_sig(size / TB), round_sig(size / TIB)
        if not inp.text_tb:
            text_tb = round_sig(tokens_b * 1e9 * inp.text_bytes_per_token / TB)
            formulas.append("token ids = tokens x bytes per id; raw text = tokens x text bytes per token")
        assumptions.append(f"{width} bytes per token id ({'uint16' if width == 2 else 'uint32'})")
        assumptions.append(
            f"{inp.text_bytes_per_token:g} bytes of raw text per token (English averages about 4; measure your "
            "tokenizer on a sample, Chinese text differs)"
        )
        if width == 2 and inp.vocab_size and inp.vocab_size > UINT16_MAX_VOCAB:
            warnings.append(
                f"a {inp.vocab_size:,}-token vocabulary does not fit uint16 (at most 65,536 ids): use 4 bytes"
            )
        elif width == 2:
            warnings.append(
                "uint16 holds ids only for vocabularies up to 65,536 (GPT-2's 50,257 fits; Llama 3's 128k does not)"
            )
    if inp.raw_tb is not None:
        grown = (inp.growth_tb_per_day or 0) * (inp.retention_days or 0)
        kept = round_sig((inp.raw_tb + grown) * inp.replicas)
        formulas.append("kept = (data now + growth per day x days) x copies")
        assumptions.append(
            f"{inp.raw_tb:g} TB now" + (f" + {inp.growth_tb_per_day:g} TB/day x {inp.retention_days:g} days" if grown else "")
            + f", {inp.replicas} cop{'y' if inp.replicas == 1 else 'ies'}"
        )  # fmt: skip
    elif inp.text_tb and ids_tb is not None:
        # the tokenized shards are what training keeps; the source text is archived once, elsewhere
        kept = round_sig(ids_tb * inp.replicas)
        formulas.append("kept = token ids x copies")
        if inp.replicas > 1:
            assumptions.append(f"{inp.replicas} copies of the token ids")
    elif inp.tokens_b and inp.replicas > 1 and ids_tb is not None and text_tb is not None:
        # "keep roughly 3x for dedup stages and versions": the text and its ids, that many times over
        kept = round_sig((ids_tb + text_tb) * inp.replicas)
        formulas.append("kept = (token ids + raw text) x copies")
        assumptions.append(f"{inp.replicas} copies of the raw text and the token ids (given)")
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
        assumptions.append(
            f"{inp.link_gbit_s:g} Gbit/s at line rate; TCP/RDMA overhead and the far end's write speed add to it "
            "(expect 70-90% of line rate in practice)"
        )
    share = share_rate = None
    if inp.checkpoint_tb and inp.nodes:
        # sharded saves (torch.distributed.checkpoint, Megatron's dist-ckpt) write from every rank, so each
        # server writes, and an asynchronous save stages, its own share
        share = round_sig(inp.checkpoint_tb * 1000 / inp.nodes)
        share_rate = round_sig(write / inp.nodes) if write is not None else None
        formulas.append("share per server = checkpoint size / servers")
        assumptions.append(
            f"the checkpoint is sharded evenly over {inp.nodes} servers; an asynchronous save copies each share "
            "into pinned host RAM first, then writes it in the background"
        )
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
                f"a checkpoint every {inp.checkpoint_interval_hours:g} h kept for {inp.checkpoint_window_hours:g} h: "
                f"{kept_count} at once"
            )
        # the newest is written before the oldest is deleted, so one more is on disk for a while
        store = round_sig(inp.checkpoint_tb * (kept_count + 1))
        formulas.append("checkpoint store = checkpoint size x (checkpoints kept + 1 being written)")
        assumptions.append(
            "one more checkpoint is on disk while the next is written, before the oldest is deleted"
        )
    disks = None
    if inp.disk_tb and (kept or ids_tb or store):
        # "20 TB disks, three copies: how many disks?": the capacity over one disk's, before spares and the
        # file system's own overhead
        disks = math.ceil((kept or ids_tb or store or 0) / inp.disk_tb - 1e-9)
        formulas.append("disks = capacity / disk size, rounded up")
        assumptions.append(f"{inp.disk_tb:g} TB per disk, before hot spares and file-system or RAID overhead")
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
