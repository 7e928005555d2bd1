"""Training storage: dataset, checkpoints, scratch and headroom, the checkpoint write rate and the tier."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from knowledge.catalog import Catalog, StorageTier
from tools.architecture import ArchitectureFields, describe, resolve_architecture
from tools.common import GB, GIB, CalculatorInputError, Reference, ToolInput, ToolOutput, find_server
from tools.gpu_memory import lora_params
from tools.messages import Message

WeightsPrecision = Literal["bf16", "fp16", "fp32", "fp8"]
TokenIdBytes = Literal[2, 4]
Role = Literal["local", "shared", "cold", "not suitable"]

TB = 1e12
TIB = 2**40
UINT16_IDS = 65_536  # uint16 holds token ids 0..65,535
WEIGHT_BYTES: dict[str, float] = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1}
DEFAULT_SERVER = "dgx-h100"  # whose local data NVMe stands in when the user names no server

BLOOM = Reference(
    title="BigScience tr11-176B-ml README: a checkpoint with FP32 optimizer states and BF16+FP32 weights is "
    "2.3TB, the BF16 weights alone 329GB (binary units)",
    url="https://github.com/bigscience-workshop/bigscience/blob/master/train/tr11-176B-ml/README.md",
)
ZERO = Reference(
    title="Rajbhandari et al., ZeRO (2019), §3.1: mixed-precision Adam keeps 2+2+12 bytes per parameter; a "
    "checkpoint saves all but the 2 bytes of gradients",
    url="https://arxiv.org/abs/1910.02054",
)
NANOGPT = Reference(
    title="karpathy/nanoGPT data/openwebtext/prepare.py: GPT-2 ids stored as uint16 (max id 50,256 < 2^16); "
    "9,035,582,198 tokens, train.bin ~17GB",
    url="https://github.com/karpathy/nanoGPT/blob/master/data/openwebtext/prepare.py",
)
OPENAI_TOKENS = Reference(
    title="OpenAI Help Center, What are tokens and how to count them: one token is ~4 characters of English",
    url="https://help.openai.com/en/articles/4936856-what-are-tokens-and-how-to-count-them",
)
# compressed text as delivered (jsonl.zst, .gz): lzbench 2.0.1 on the Silesia corpus, zstd 1.5.6 at its default
# level 3 keeps 31.39% of the bytes (3.19:1) and libdeflate -6 (gzip's format) 31.9% (3.14:1); web text compresses
# about as well, and `zstd -l` prints the real ratio of a file
LZBENCH = Reference(
    title="lzbench 2.0.1, Silesia corpus: zstd 1.5.6 -3 keeps 31.39% (3.19:1), libdeflate 1.23 -6 31.9% (3.14:1)",
    url="https://github.com/inikep/lzbench",
)
COMPRESSION_RATIOS: dict[str, float] = {"zstd": 3.19, "gzip": 3.14}


_VOCAB_TOO_LARGE = Message(
    "storage.vocab_too_large_for_uint16",
    en="uint16 holds ids 0-65,535 only; a vocabulary of {vocab} needs 4 bytes (int32)",
    zh="uint16 只能表示 0-65,535 的 id；{vocab} 个词的词表需要 4 字节（int32）",
)
_WIDTH_GIVEN = Message(
    "storage.id_width_given",
    en="{width} bytes per token id (given)",
    zh="每个 token id {width} 字节（用户给定）",
)
_VOCAB_UNKNOWN = Message(
    "storage.vocab_unknown",
    en="vocabulary unknown: 4 bytes (int32) per token id assumed; a vocabulary <= 65,536 "
    "(e.g. Llama 2's 32,000) allows uint16 and halves the tokenised size",
    zh="词表大小未知：按每个 token id 4 字节（int32）计；词表不超过 65,536（如 Llama 2 的 32,000）时可用 uint16，"
    "分词后的数据量减半",
)
_FITS_UINT16 = Message(
    "storage.vocab_fits_uint16",
    en="vocabulary {vocab} <= 65,536: token ids fit uint16 (2 bytes)",
    zh="词表 {vocab} 不超过 65,536：token id 可用 uint16 存储（2 字节）",
)
_NEEDS_INT32 = Message(
    "storage.vocab_needs_int32",
    en="vocabulary {vocab} > 65,536: token ids need int32 (4 bytes)",
    zh="词表 {vocab} 超过 65,536：token id 需用 int32 存储（4 字节）",
)
_NO_DATASET = Message(
    "storage.no_dataset",
    en="give dataset_tokens_b (billions of tokens) or dataset_raw_gb (GB of raw text)",
    zh="请给出 dataset_tokens_b（token 数，以十亿计）或 dataset_raw_gb（原始文本 GB 数）",
)
_BOTH_GIVEN = Message(
    "storage.raw_and_tokens_given",
    en="raw text and tokens both given: {ratio} raw bytes per token",
    zh="原始文本和 token 数都已给出：每 token 对应 {ratio} 字节原始文本",
)
_RAW_ESTIMATED = Message(
    "storage.raw_estimated",
    en="raw text estimated at {bytes} bytes per token (about 4 for English BPE; an assumption, give "
    "dataset_raw_gb for the real size)",
    zh="原始文本按每 token {bytes} 字节估算（英文 BPE 约为 4；这是假设，给出 dataset_raw_gb 可得到实际大小）",
)
_TOKENS_ESTIMATED = Message(
    "storage.tokens_estimated",
    en="tokens estimated at {bytes} raw bytes per token (about 4 for English BPE; an assumption, give "
    "dataset_tokens_b for the real count)",
    zh="token 数按每 token {bytes} 字节原始文本估算（英文 BPE 约为 4；这是假设，给出 dataset_tokens_b 可得到实际数量）",
)
_COMPRESSED = Message(
    "storage.compressed",
    en="the {stored} TB are compressed: x {ratio} = {text} TB of text (`zstd -l` prints the real ratio)",
    zh="这 {stored} TB 是压缩数据：× {ratio} = {text} TB 文本（`zstd -l` 可查看实际压缩比）",
)
_KEPT = Message(
    "storage.kept_after_cleaning",
    en="{share} of the text kept after cleaning and deduplication",
    zh="清洗、去重后保留 {share} 的文本",
)
_LORA = Message(
    "storage.lora",
    en="LoRA rank {rank}: checkpoints hold the {adapters}M adapter parameters; the {base} GB base model is "
    "stored once",
    zh="LoRA 秩 {rank}：检查点只含 {adapters}M 个适配器参数；{base} GB 的基础模型只存一份",
)
_SCHEDULE = Message(
    "storage.checkpoint_schedule",
    en="a checkpoint every {hours} h over {days} days: {written} written, the newest {retained} kept in full{history}",
    zh="{days} 天内每 {hours} 小时保存一个检查点：共写入 {written} 个，最新的 {retained} 个完整保留{history}",
)
_HISTORY = Message(
    "storage.weights_only_history",
    en=", {older} older ones kept as weights only",
    zh="，更早的 {older} 个只保留权重",
)
_INTERVAL_TOO_LONG = Message(
    "storage.interval_longer_than_run",
    en="the checkpoint interval is longer than the run: only the final checkpoint is written",
    zh="检查点间隔比整个训练还长：只会写入最后一个检查点",
)
_NO_RUN_DAYS = Message(
    "storage.history_needs_run_days",
    en="give the run length to count the weights-only history",
    zh="请给出训练时长，才能算出只保留权重的历史检查点有多少个",
)
_RETAINED = Message(
    "storage.retained",
    en="{retained} full checkpoints retained (give run_days for the written count)",
    zh="保留 {retained} 个完整检查点（给出 run_days 可算出写入的总数）",
)
_WEIGHTS_ONLY_KEPT = Message(
    "storage.weights_only_kept",
    en="{kept} weights-only checkpoints kept besides the full ones (given)",
    zh="另外保留 {kept} 个只含权重的检查点（用户给定）",
)
_CHECKPOINT_BYTES = Message(
    "storage.checkpoint_bytes",
    en="full checkpoint {full} bytes per parameter; weights-only {weights} ({precision}); gradients are not saved",
    zh="完整检查点每参数 {full} 字节；仅权重检查点每参数 {weights} 字节（{precision}）；梯度不保存",
)
_SCRATCH = Message(
    "storage.scratch_headroom",
    en="scratch and logs {scratch} of data + checkpoints; headroom +{headroom} on top",
    zh="临时文件和日志按数据加检查点的 {scratch} 计；另加 {headroom} 余量",
)
_WRITE_TARGET = Message(
    "storage.write_target",
    en="one full checkpoint ({gb} GB) in {seconds} s{sharded}",
    zh="一个完整检查点（{gb} GB）要在 {seconds} 秒内写完{sharded}",
)
_SHARDED = Message(
    "storage.sharded",
    en=", sharded so that each of {nodes} servers writes 1/{nodes}",
    zh="，分片后 {nodes} 台服务器各写 1/{nodes}",
)
_STALL = Message(
    "storage.synchronous_stall",
    en="synchronous saves of {seconds} s every {hours} h stall training {stall} of the time: save "
    "asynchronously or less often",
    zh="每 {hours} 小时同步保存一次、每次 {seconds} 秒，训练有 {stall} 的时间停顿：请改为异步保存或降低保存频率",
)
_LOCAL_NVME = Message(
    "storage.local_nvme",
    en="local data NVMe {tb} TB per server ({origin})",
    zh="每台服务器本地数据 NVMe {tb} TB（{origin}）",
)
_GIVEN = Message("storage.given", en="given", zh="用户给定")
_FROM_CATALOG = Message("storage.from_catalog", en="catalog {server}", zh="目录中的 {server}")
_NO_SHARED_TIER = Message(
    "storage.no_shared_tier",
    en="the catalog has no shared (parallel file system) tier; showing the fastest local one",
    zh="目录中没有共享存储层（并行文件系统）；这里给出最快的本地存储",
)
_CLIENT_TOO_SLOW = Message(
    "storage.client_too_slow",
    en="each server must write {need} GB/s, above the {have} GB/s one client gets from {tier}: lengthen "
    "checkpoint_write_seconds, save asynchronously to local NVMe first, or spread the job over more servers",
    zh="每台服务器需要写入 {need} GB/s，超过了单个客户端从 {tier} 获得的 {have} GB/s：请延长 "
    "checkpoint_write_seconds、先异步保存到本地 NVMe，或把任务分摊到更多服务器上",
)
_WEIGHTS_OVER_LOCAL = Message(
    "storage.weights_over_local_nvme",
    en="one weights-only checkpoint is larger than a server's local NVMe",
    zh="单个仅含权重的检查点就超过了一台服务器的本地 NVMe 容量",
)


# full checkpoints kept on the hot tier when none is said: the newest to resume from, and two before it
# in case the newest is corrupt or the loss diverged
DEFAULT_RETAINED = 3
# a synchronous save of a full checkpoint within two minutes, a common target when nothing is given
DEFAULT_WRITE_SECONDS = 120.0


class StorageInput(ToolInput, ArchitectureFields):
    """Inputs of the storage calculator: the data, the model (preset or size) and the checkpoint policy."""

    dataset_raw_gb: float | None = Field(
        default=None, gt=0, le=1e9, description="Raw training text (documents) to store, GB (10^9 bytes)."
    )
    dataset_tokens_b: float | None = Field(
        default=None, gt=0, le=1e7, description="Training tokens after tokenisation, billions."
    )
    raw_bytes_per_token: float = Field(
        default=4.0,
        gt=0,
        le=64,
        description="Raw text bytes per token, used to convert between the two dataset sizes "
        "(~4 for English with a BPE tokenizer; an assumption).",
    )
    bytes_per_token_id: TokenIdBytes | None = Field(
        default=None,
        description="Override the token id width: 2 (uint16, only for vocabularies <= 65,536) or 4 (int32). "
        "Default: derived from the model's vocabulary.",
    )
    raw_compression_ratio: float = Field(
        default=1.0,
        ge=1,
        le=50,
        description="How many times larger dataset_raw_gb is uncompressed (jsonl.zst: about 3.2; 1 for plain text).",
    )
    raw_kept_share: float = Field(
        default=1.0,
        gt=0,
        le=1,
        description="Share of dataset_raw_gb kept after cleaning and deduplication, the part that is tokenized.",
    )
    keep_raw_text: bool = Field(default=True, description="Store the raw text beside the tokenised shards.")
    weights_precision: WeightsPrecision = Field(
        default="bf16",
        description="Precision of a weights-only checkpoint (bf16/fp16 2, fp32 4, fp8 1 byte).",
    )
    full_checkpoint_bytes_per_param: float = Field(
        default=14.0,
        gt=0,
        le=64,
        description="Bytes per parameter of a resumable checkpoint: 14 = BF16 weights 2 + FP32 master 4 + "
        "Adam moments 8 (mixed-precision Adam).",
    )
    checkpoints_retained: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description=f"Full checkpoints kept on the hot tier at any time; default {DEFAULT_RETAINED}.",
    )
    checkpoint_interval_hours: float = Field(
        default=3.0, gt=0, le=100_000, description="Hours between checkpoints."
    )
    run_days: float | None = Field(
        default=None, gt=0, le=3650, description="Length of the training run, days (gives the written count)."
    )
    weights_only_retained: int | None = Field(
        default=None,
        ge=0,
        le=100_000,
        description="Weights-only checkpoints kept besides the full ones (e.g. one every 1,000 steps for "
        "evaluation); overrides the history that keep_weights_only_history counts.",
    )
    keep_weights_only_history: bool = Field(
        default=False,
        description="Also keep a weights-only copy of every checkpoint that rotates out (needs run_days).",
    )
    scratch_and_logs_share: float = Field(
        default=0.10,
        ge=0,
        le=1,
        description="Temporary files, data-loader indices, logs and profiles, as a share of data + checkpoints.",
    )
    headroom_share: float = Field(
        default=0.25, ge=0, le=1, description="Free space added on top of everything else (0.25 = +25%)."
    )
    growth_per_year: float = Field(
        default=0.0,
        ge=0,
        le=10,
        description="Yearly growth of the data and checkpoints kept (0.3 = +30% a year).",
    )
    growth_years: float = Field(default=1.0, gt=0, le=10, description="Years of growth to plan for.")
    checkpoint_write_seconds: float | None = Field(
        default=None,
        gt=0,
        le=86_400,
        description="Target time to write one full checkpoint, seconds (a synchronous save stalls training); "
        f"default {DEFAULT_WRITE_SECONDS:g}.",
    )
    nodes: int = Field(
        default=1, ge=1, le=100_000, description="Servers in the job; each writes its shard of a checkpoint."
    )
    write_bandwidth_gb_s: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Aggregate write bandwidth the storage delivers, GB/s: gives the time one checkpoint takes.",
    )
    server: str | None = Field(
        default=None,
        description="Catalog server whose local data NVMe is checked (default: DGX H100), e.g. 'DGX B200'.",
    )
    local_nvme_tb_per_node: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Override the local data NVMe per server, TB (10^12 bytes).",
    )
    local_nvme_drives_per_node: int = Field(
        default=8, ge=1, le=64, description="Data NVMe drives per server, striped (DGX nodes have 8)."
    )
    lora_rank: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="LoRA rank of a fine-tune that trains adapters only: its checkpoints hold the adapters "
        "and their optimizer state; the frozen base model is stored once.",
    )


class TierCheck(BaseModel):
    """One catalog storage tier held against the checkpoint write rate and the capacity."""

    id: str
    name: str
    kind: str
    role: Role = Field(description="Where it fits: local to a node, shared hot tier, cold copies, or not.")
    write_gb_s_per_node: float = Field(
        description="Write bandwidth one node gets, GB/s: drives x per-drive figure for local drives, the "
        "catalog's per-client figure for shared and object storage."
    )
    meets_write: bool
    capacity_tb: float | None = Field(description="Local capacity per node, TB; None when sized by quote.")
    meets_capacity: bool | None
    note: str


class StorageOutput(ToolOutput):
    """Capacity, checkpoint write rate and the recommended storage tiers."""

    model_name: str
    params_b: float
    vocab_size: int | None = Field(description="Vocabulary size used for the id width; None when unknown.")
    bytes_per_token_id: int
    tokens_b: float
    raw_text_gb: float = Field(description="Raw text stored, GB (0 when not kept).")
    tokenized_gb: float
    weights_only_checkpoint_gb: float
    weights_only_checkpoint_gib: float
    full_checkpoint_gb: float
    full_checkpoint_gib: float
    checkpoints_written: int | None = Field(
        description="Checkpoints written over the run; None without run_days."
    )
    checkpoints_retained: int
    checkpoints_gb: float = Field(description="Retained full checkpoints plus any weights-only history, GB.")
    base_model_gb: float = Field(
        default=0.0, description="The frozen base model a LoRA fine-tune keeps once beside its adapters, GB."
    )
    scratch_and_logs_gb: float
    subtotal_gb: float
    headroom_gb: float
    total_tb: float = Field(description="Total capacity with headroom, TB (10^12 bytes).")
    total_tib: float = Field(description="Total capacity with headroom, TiB (2^40 bytes).")
    total_after_growth_tb: float = Field(
        description="total_tb x (1 + growth_per_year) ^ growth_years: what to buy for the growth planned, TB."
    )
    checkpoint_write_gb_s: float = Field(
        description="Aggregate write rate to save one full checkpoint in time."
    )
    checkpoint_write_gb_s_per_node: float
    write_seconds_at_bandwidth: float | None = Field(
        default=None, description="Seconds to write one full checkpoint at write_bandwidth_gb_s."
    )
    weights_only_write_seconds_at_bandwidth: float | None = Field(
        default=None, description="Seconds to write one weights-only checkpoint at write_bandwidth_gb_s."
    )
    tiers: list[TierCheck]
    recommended_tier: str = Field(description="Catalog id of the hot tier for data and checkpoints.")
    cold_tier: str | None = Field(description="Catalog id of the tier for durable cold copies.")
    checkpoints_cold_usd_per_month: float | None = Field(
        default=None,
        description="The retained checkpoints kept on the cold tier when it is rented object storage: "
        "checkpoints TB x its $ per TB-month.",
    )
    recommendation: str


def _object_month(catalog: Catalog, cold: TierCheck | None, terabytes: float) -> float | None:
    """What keeping ``terabytes`` on the cold tier costs a month, when it is object storage priced per TB-month."""
    tier = next((t for t in catalog.storage if cold and t.id == cold.id), None)
    if tier is None or tier.kind != "object" or not tier.usd_per_tb:
        return None
    return terabytes * tier.usd_per_tb  # S3 Standard: $0.023 per GB-month = $23 per TB-month


def _local_capacity(inp: StorageInput, catalog: Catalog) -> tuple[float, str]:
    if inp.local_nvme_tb_per_node:
        return inp.local_nvme_tb_per_node, _GIVEN()
    name = inp.server or DEFAULT_SERVER
    server = find_server(catalog, name)
    return server.nvme_tb, _FROM_CATALOG(server=server.name)


def _token_width(inp: StorageInput, vocab: int | None) -> tuple[int, str]:
    if inp.bytes_per_token_id is not None:
        if inp.bytes_per_token_id == 2 and vocab is not None and vocab > UINT16_IDS:
            raise CalculatorInputError("bytes_per_token_id", _VOCAB_TOO_LARGE(vocab=f"{vocab:,}"))
        return inp.bytes_per_token_id, _WIDTH_GIVEN(width=inp.bytes_per_token_id)
    if vocab is None:
        return 4, _VOCAB_UNKNOWN()
    if vocab <= UINT16_IDS:
        return 2, _FITS_UINT16(vocab=f"{vocab:,}")
    return 4, _NEEDS_INT32(vocab=f"{vocab:,}")


def _check_tier(
    tier: StorageTier, *, drives: int, local_tb: float, need_tb: float, need_gb_s: float, nodes: int
) -> TierCheck:
    capacity: float | None = None
    meets_capacity: bool | None = None
    match tier.kind:
        case "nvme":
            write = drives * tier.seq_write_gb_s
            capacity, role = local_tb, "local"
            meets_capacity = need_tb <= local_tb if nodes == 1 else None
            note = f"{drives} drives striped in each server; {tier.typical_use}"
        case "parallel-fs":
            write, role = tier.seq_write_gb_s, "shared"
            note = f"per {tier.per}; capacity and total throughput grow with appliances (priced by quote)"
        case "object":
            write, role = tier.seq_write_gb_s, "cold"
            note = "durable cold copies; request rates per prefix, not bytes, are the usual limit"
        case _:  # hdd, sata-ssd
            write, role = drives * tier.seq_write_gb_s, "not suitable"
            note = f"not a hot tier for GPU training: {tier.typical_use}"
    return TierCheck(
        id=tier.id,
        name=tier.name,
        kind=tier.kind,
        role=role,
        write_gb_s_per_node=write,
        meets_write=write >= need_gb_s,
        capacity_tb=capacity,
        meets_capacity=meets_capacity,
        note=note,
    )


def _choose(
    checks: list[TierCheck], *, nodes: int, need_tb: float, local_tb: float, need_gb_s: float
) -> tuple[TierCheck, str, list[str]]:
    """The hot tier and why, plus warnings."""
    local = sorted((c for c in checks if c.role == "local"), key=lambda c: c.write_gb_s_per_node)
    shared = sorted((c for c in checks if c.role == "shared"), key=lambda c: c.write_gb_s_per_node)
    warnings: list[str] = []
    if nodes == 1:
        fitting = [c for c in local if c.meets_write and c.meets_capacity]
        if fitting:
            pick = fitting[0]
            why = (
                f"one server: local {pick.name} ({pick.write_gb_s_per_node:g} GB/s striped, {local_tb:g} TB) "
                f"covers the {need_gb_s:.3g} GB/s checkpoint write and the {need_tb:.3g} TB; no parallel file "
                "system is needed"
            )
            return pick, why, warnings
        short = (
            f"{need_tb:.3g} TB exceeds the {local_tb:g} TB of local NVMe"
            if need_tb > local_tb
            else f"{need_gb_s:.3g} GB/s exceeds what the local NVMe writes"
        )
        reason = f"one server, but {short}: a parallel file system (or a larger NVMe build) is needed"
    else:
        reason = (
            f"{nodes} servers read the same dataset and any server must read any checkpoint after a failure, "
            "so the hot tier must be shared: a parallel file system; local NVMe stays useful as a data "
            "cache and a fast staging tier for asynchronous checkpoints"
        )
    if not shared:
        pick = local[-1] if local else checks[0]
        warnings.append(_NO_SHARED_TIER())
        return pick, reason, warnings
    meeting = [c for c in shared if c.meets_write]
    pick = meeting[0] if meeting else shared[-1]
    if not pick.meets_write:
        warnings.append(
            _CLIENT_TOO_SLOW(need=f"{need_gb_s:.3g}", have=f"{pick.write_gb_s_per_node:g}", tier=pick.name)
        )
    why = f"{reason} ({pick.write_gb_s_per_node:g} GB/s per client against {need_gb_s:.3g} needed)"
    return pick, why, warnings


def storage(inp: StorageInput, catalog: Catalog) -> StorageOutput:
    """Size the storage for an LLM training run and pick the storage tier: dataset, checkpoints, headroom.

    Dataset: tokenised size = tokens x bytes per token id (2 bytes, uint16, only when the vocabulary is at
    most 65,536; else 4); raw text and tokens convert at raw_bytes_per_token (~4 for English, an assumption).
    Checkpoints: weights-only = parameters x 2 (BF16/FP16), 4 (FP32) or 1 (FP8) bytes; a resumable checkpoint
    adds the FP32 master copy and Adam moments (default 2 + 4 + 8 = 14 bytes per parameter); the run's
    checkpoint count follows from the interval and run length, and the retained ones are stored. Scratch and
    logs, then headroom (default +25%), give the total in TB (10^12) and TiB (2^40). The write rate to save
    one full checkpoint within a target time is compared with the catalog storage tiers: local NVMe is
    enough for one server; several servers need a shared parallel file system; object storage holds cold
    copies.
    """
    arch = resolve_architecture(catalog, inp)
    if inp.dataset_tokens_b is None and inp.dataset_raw_gb is None:
        raise CalculatorInputError("dataset_tokens_b", _NO_DATASET())
    vocab = arch.vocab_size if (inp.model or inp.vocab_size) else None
    width, width_note = _token_width(inp, vocab)
    params = arch.params_b * 1e9
    assumptions = [describe(arch), width_note]
    warnings: list[str] = []

    if inp.dataset_tokens_b is not None:
        tokens = inp.dataset_tokens_b * 1e9
        raw = inp.dataset_raw_gb * GB if inp.dataset_raw_gb else tokens * inp.raw_bytes_per_token
        if inp.dataset_raw_gb:
            assumptions.append(_BOTH_GIVEN(ratio=f"{raw / tokens:.2f}"))
        elif inp.keep_raw_text:
            assumptions.append(_RAW_ESTIMATED(bytes=f"{inp.raw_bytes_per_token:g}"))
    else:
        assert inp.dataset_raw_gb is not None
        raw = inp.dataset_raw_gb * GB
        # a compressed delivery (jsonl.zst) holds several times its size in text; cleaning keeps a share of it
        tokens = raw * inp.raw_compression_ratio * inp.raw_kept_share / inp.raw_bytes_per_token
        assumptions.append(_TOKENS_ESTIMATED(bytes=f"{inp.raw_bytes_per_token:g}"))
        if inp.raw_compression_ratio > 1:
            assumptions.append(
                _COMPRESSED(
                    stored=f"{inp.dataset_raw_gb / 1000:g}",
                    ratio=f"{inp.raw_compression_ratio:g}",
                    text=f"{inp.dataset_raw_gb * inp.raw_compression_ratio / 1000:g}",
                )
            )
        if inp.raw_kept_share < 1:
            assumptions.append(_KEPT(share=f"{inp.raw_kept_share:.0%}"))
    raw_kept = raw if inp.keep_raw_text else 0.0
    tokenized = tokens * width

    weights_only = params * WEIGHT_BYTES[inp.weights_precision]
    full = params * inp.full_checkpoint_bytes_per_param
    base = 0.0
    if inp.lora_rank:
        # LoRA (Hu et al. 2021): the base model is frozen, so a checkpoint is the adapters, their FP32 master
        # copy and Adam moments; the base model is kept once
        trained = lora_params(arch, inp.lora_rank)
        base = weights_only
        weights_only = trained * WEIGHT_BYTES[inp.weights_precision]
        full = trained * inp.full_checkpoint_bytes_per_param
        assumptions.append(
            _LORA(rank=inp.lora_rank, adapters=f"{trained / 1e6:,.0f}", base=f"{base / GB:,.0f}")
        )
    written: int | None = None
    retained = inp.checkpoints_retained or DEFAULT_RETAINED
    history = 0
    if inp.run_days is not None:
        written = max(1, math.ceil(inp.run_days * 24 / inp.checkpoint_interval_hours - 1e-9))
        retained = min(retained, written)
        history = written - retained if inp.keep_weights_only_history else 0
        assumptions.append(
            _SCHEDULE(
                hours=f"{inp.checkpoint_interval_hours:g}",
                days=f"{inp.run_days:g}",
                written=written,
                retained=retained,
                history=_HISTORY(older=history) if history else "",
            )
        )
        if inp.checkpoint_interval_hours > inp.run_days * 24:
            warnings.append(_INTERVAL_TOO_LONG())
    elif inp.keep_weights_only_history and inp.weights_only_retained is None:
        raise CalculatorInputError("run_days", _NO_RUN_DAYS())
    else:
        assumptions.append(_RETAINED(retained=retained))
    if inp.weights_only_retained is not None:
        history = inp.weights_only_retained
        assumptions.append(_WEIGHTS_ONLY_KEPT(kept=history))
    checkpoints = retained * full + history * weights_only
    assumptions.append(
        _CHECKPOINT_BYTES(
            full=f"{inp.full_checkpoint_bytes_per_param:g}",
            weights=f"{WEIGHT_BYTES[inp.weights_precision]:g}",
            precision=inp.weights_precision,
        )
    )

    data = raw_kept + tokenized + checkpoints + base
    scratch = data * inp.scratch_and_logs_share
    subtotal = data + scratch
    headroom = subtotal * inp.headroom_share
    total = subtotal + headroom
    assumptions.append(
        _SCRATCH(scratch=f"{inp.scratch_and_logs_share:.0%}", headroom=f"{inp.headroom_share:.0%}")
    )

    write_seconds = inp.checkpoint_write_seconds or DEFAULT_WRITE_SECONDS
    need = full / GB / write_seconds
    need_per_node = need / inp.nodes
    assumptions.append(
        _WRITE_TARGET(
            gb=f"{full / GB:,.0f}",
            seconds=f"{write_seconds:g}",
            sharded=_SHARDED(nodes=inp.nodes) if inp.nodes > 1 else "",
        )
    )
    stall = write_seconds / (inp.checkpoint_interval_hours * 3600)
    if stall > 0.05:
        warnings.append(
            _STALL(
                seconds=f"{write_seconds:g}", hours=f"{inp.checkpoint_interval_hours:g}", stall=f"{stall:.0%}"
            )
        )

    local_tb, local_origin = _local_capacity(inp, catalog)
    assumptions.append(_LOCAL_NVME(tb=f"{local_tb:g}", origin=local_origin))
    checks = [
        _check_tier(
            tier,
            drives=inp.local_nvme_drives_per_node,
            local_tb=local_tb,
            need_tb=total / TB,
            need_gb_s=need_per_node,
            nodes=inp.nodes,
        )
        for tier in catalog.storage
    ]
    pick, why, tier_warnings = _choose(
        checks, nodes=inp.nodes, need_tb=total / TB, local_tb=local_tb, need_gb_s=need_per_node
    )
    warnings += tier_warnings
    cold = next((c for c in checks if c.role == "cold"), None)
    recommendation = f"hot tier: {pick.name}, because {why}."
    if cold:
        recommendation += (
            f" Cold tier: {cold.name} for the raw dataset, tokenised shards and checkpoints kept beyond the "
            "retained window (its catalog price is per TB-month, not a purchase price)."
        )
    if weights_only > local_tb * TB:
        warnings.append(_WEIGHTS_OVER_LOCAL())

    tier_sources = [
        Reference(title=f"{s.title} (catalog: {t.id})", url=str(s.url))
        for t in catalog.storage
        if t.id in {pick.id, cold.id if cold else ""}
        for s in t.sources[:1]
    ]
    return StorageOutput(
        formula=(
            "tokenised = tokens x id bytes (2 if vocab <= 65,536 else 4); raw = tokens x raw bytes per token; "
            "checkpoints = retained x params x full bytes/param (+ history x params x weight bytes); "
            "total = (data + checkpoints) x (1 + scratch share) x (1 + headroom); "
            "after growth = total x (1 + growth per year) ^ years; "
            "write rate = params x full bytes/param / target seconds, / nodes per server"
        ),
        assumptions=assumptions,
        warnings=warnings,
        sources=[ZERO, BLOOM, NANOGPT, OPENAI_TOKENS, *tier_sources]
        + ([LZBENCH] if inp.raw_compression_ratio > 1 and inp.dataset_tokens_b is None else []),
        model_name=arch.name,
        params_b=arch.params_b,
        vocab_size=vocab,
        bytes_per_token_id=width,
        tokens_b=tokens / 1e9,
        raw_text_gb=raw_kept / GB,
        tokenized_gb=tokenized / GB,
        weights_only_checkpoint_gb=weights_only / GB,
        weights_only_checkpoint_gib=weights_only / GIB,
        full_checkpoint_gb=full / GB,
        full_checkpoint_gib=full / GIB,
        checkpoints_written=written,
        checkpoints_retained=retained,
        checkpoints_gb=checkpoints / GB,
        base_model_gb=base / GB,
        scratch_and_logs_gb=scratch / GB,
        subtotal_gb=subtotal / GB,
        headroom_gb=headroom / GB,
        total_tb=total / TB,
        total_tib=total / TIB,
        total_after_growth_tb=total * (1 + inp.growth_per_year) ** inp.growth_years / TB,
        checkpoint_write_gb_s=need,
        checkpoint_write_gb_s_per_node=need_per_node,
        write_seconds_at_bandwidth=full / GB / inp.write_bandwidth_gb_s if inp.write_bandwidth_gb_s else None,
        weights_only_write_seconds_at_bandwidth=(
            weights_only / GB / inp.write_bandwidth_gb_s if inp.write_bandwidth_gb_s else None
        ),
        tiers=checks,
        recommended_tier=pick.id,
        cold_tier=cold.id if cold else None,
        checkpoints_cold_usd_per_month=_object_month(catalog, cold, checkpoints / TB),
        recommendation=recommendation,
    )
