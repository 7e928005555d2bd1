"""The hardware catalog: accelerators, reference servers, interconnects, storage tiers and prices.

The YAML files under ``knowledge/catalog/`` are the single source of truth for specs and prices.
They are validated here at load time; the calculators read the validated objects and the indexer
renders each entry into a passage, so a spec is answered and cited from the same number.

Units are in the field names: ``_gb`` is 10^9 bytes (vendor "GB"), ``_gb_s`` is GB/s, ``_tflops`` is
dense TFLOP/s (never the 2:4-sparse headline figure), ``_w`` is watts and ``_kw`` kilowatts.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from datetime import date
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, HttpUrl, ValidationError, model_validator

CATALOG_DIR = Path(__file__).parent / "catalog"

# a bound that catches a typo, not a product limit: the largest single-system scale-up domains announced are
# thousands of accelerators (a TPU7x pod is 9,216 chips)
MAX_ACCELERATORS_PER_SYSTEM = 16_384

Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9.-]*$", max_length=64)]
Positive = Annotated[float, Field(gt=0)]


class Source(BaseModel):
    """Where a figure comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str = Field(min_length=3, description="Publisher and document title.")
    url: HttpUrl


class Entry(BaseModel):
    """Fields every catalog entry carries: a stable id, its sources and the date they were read."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Slug
    sources: list[Source] = Field(min_length=1)
    as_of: date = Field(description="When the sources were read or the price was quoted.")
    notes: str = Field(default="", description="Caveats a buyer should know (configurable TDP, ...).")


# China-market makers beside Huawei: Cambricon (MLU), Kunlunxin (Baidu's XPU) and Hygon (DCU)
Vendor = Literal["NVIDIA", "AMD", "Intel", "Google", "AWS", "Huawei", "Cambricon", "Kunlunxin", "Hygon"]

# the FP8/BF16 dense ratio each maker's data sheet shows: NVIDIA and AMD tensor cores run FP8 at twice BF16, so a
# ratio near 1 means one of the two is a 2:4-sparse headline figure; Gaudi's MME runs FP8 at the BF16 rate, and so
# do the TPUs before Ironwood; Trainium3's MXFP8 runs at 3.75 times its BF16 (AWS: 2,517 against 671)
_FP8_RATIO: dict[str, tuple[float, float]] = {"Intel": (0.95, 2.5), "Google": (0.95, 2.5), "AWS": (1.5, 4.0)}
_FP8_RATIO_DEFAULT = (1.5, 2.5)


class ProseZh(BaseModel):
    """An accelerator's descriptive fields in Chinese, written beside the English so that a Chinese answer
    never shows an English phrase ("NVLink 4 bridge (pairs of cards only)")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    form_factor: str = Field(min_length=1)
    scale_up_interconnect: str = Field(min_length=1)
    memory_type: str | None = Field(
        default=None, description="Only where the English has words, not a part name."
    )


class Accelerator(Entry):
    """One accelerator (GPU, TPU chip or other) with per-device figures."""

    name: str
    vendor: Vendor
    architecture: str
    kind: Literal["gpu", "tpu", "accelerator"] = "gpu"
    segment: Literal["datacenter", "workstation", "consumer"]
    aliases: list[str] = Field(default_factory=list)
    launch_year: int = Field(ge=2015, le=2030)
    form_factor: str = Field(description="SXM5, PCIe, OAM, NVL, superchip board, TPU tray, ...")
    host_interface: str = Field(description="How the device attaches to the host, e.g. 'PCIe Gen5 x16'.")
    memory_gb: Positive = Field(description="Usable device memory per accelerator, GB (10^9 bytes).")
    memory_type: str = Field(description="HBM3, HBM3e, HBM2e, GDDR6X, GDDR7, ...")
    memory_bandwidth_gb_s: Positive = Field(description="Device memory bandwidth, GB/s.")
    bf16_dense_tflops: Positive | None = Field(description="Dense BF16 tensor TFLOP/s (no sparsity).")
    fp16_dense_tflops: Positive | None = Field(description="Dense FP16 tensor TFLOP/s (no sparsity).")
    fp8_dense_tflops: Positive | None = Field(description="Dense FP8 tensor TFLOP/s; null if unsupported.")
    tf32_dense_tflops: Positive | None = Field(description="Dense TF32 tensor TFLOP/s; null if none.")
    fp32_tflops: Positive | None = Field(description="FP32 vector (non-tensor) TFLOP/s.")
    tdp_w: Positive = Field(
        description="Maximum board/module power of the SKU the entry names, W. Where one name covers air- and "
        "liquid-cooled versions, the air-cooled one's (its highest setting); a liquid figure only for a SKU that "
        "is liquid-cooled by name or only ships liquid-cooled (GB200, MI355X). The other versions are in notes."
    )
    tdp_estimated: bool = Field(
        default=False,
        description="The vendor publishes no TDP: tdp_w is a rough estimate (basis in notes), not a spec.",
    )
    scale_up_interconnect: str = Field(description="NVLink 4, Infinity Fabric, ICI, RoCE ports, ...")
    scale_up_bandwidth_gb_s: Positive | None = Field(
        description="Total scale-up bandwidth per device, GB/s, both directions added (NVLink 4 = 900)."
    )
    scale_up_cards: int | None = Field(
        default=None,
        ge=2,
        description="How many cards the scale-up link joins, where fewer than a server holds: 2 for an NVLink "
        "bridge (the other cards talk over PCIe). None: every card of the server (NVSwitch, a full mesh) or no "
        "scale-up link.",
    )
    instances: dict[str, int] = Field(
        default_factory=dict,
        description="Cloud instance types built on it and how many it holds ('trn2.48xlarge': 16), beyond "
        "those the cloud price list names.",
    )
    zh: ProseZh = Field(description="form_factor, scale_up_interconnect and memory_type in Chinese.")

    @model_validator(mode="after")
    def _check_consistency(self) -> Accelerator:
        if self.fp8_dense_tflops and self.bf16_dense_tflops:
            ratio = self.fp8_dense_tflops / self.bf16_dense_tflops
            low, high = _FP8_RATIO.get(self.vendor, _FP8_RATIO_DEFAULT)
            if not low <= ratio <= high:
                raise ValueError(
                    f"FP8/BF16 dense ratio {ratio:.2f} is outside {low}-{high}: one of the two is likely sparse"
                )
        return self

    @property
    def names(self) -> list[str]:
        """Every name this accelerator answers to: id, full name and aliases."""
        return [self.id, self.name, *self.aliases]


class Server(Entry):
    """A reference server: an 8-GPU DGX/HGX node, an OEM platform, or a rack-scale system sold as one unit
    (GB200/GB300 NVL72, Huawei CloudMatrix 384), whose figures are then per system."""

    name: str
    vendor: str
    aliases: list[str] = Field(default_factory=list)
    accelerator_id: Slug = Field(description="Id of the accelerator in accelerators.yaml.")
    accelerator_count: int = Field(
        ge=1,
        le=MAX_ACCELERATORS_PER_SYSTEM,
        description="Accelerators in one node or rack-scale system (8 for a DGX, 72 for an NVL72, 384 for a "
        "CloudMatrix 384).",
    )
    cpu: str = Field(description="CPU model and count, e.g. '2x Intel Xeon Platinum 8480C'.")
    cpu_cores_total: int = Field(ge=1)
    ram_gb: Positive = Field(description="Host system memory, GB.")
    nvme_tb: Positive = Field(description="Internal NVMe data/cache capacity, TB (OS drives excluded).")
    nics: str = Field(description="Compute and storage network adapters.")
    compute_network_gbit_s: Positive = Field(description="Total scale-out bandwidth per node, Gb/s.")
    max_power_kw: Positive = Field(description="Maximum system power draw, kW.")
    rack_units: int | None = Field(default=None, ge=1)


class Interconnect(Entry):
    """A link technology: scale-up (NVLink), host (PCIe) or scale-out (InfiniBand, Ethernet)."""

    name: str
    kind: Literal["scale-up", "host", "scale-out"]
    aliases: list[str] = Field(default_factory=list)
    generation: str
    unidirectional_gb_s: Positive = Field(
        description="Usable bandwidth in one direction, GB/s, per GPU (scale-up) or per port/link."
    )
    per: str = Field(description="What the bandwidth is per: 'GPU', 'x16 link', 'port', ...")
    line_rate_gbit_s: Positive | None = Field(default=None, description="Signalling rate, Gb/s.")
    latency_us: Positive | None = Field(default=None, description="Typical latency, microseconds.")


class StorageTier(Entry):
    """A class of storage device or system, with typical performance and price."""

    name: str
    kind: Literal["hdd", "sata-ssd", "nvme", "parallel-fs", "object"]
    aliases: list[str] = Field(default_factory=list)
    seq_read_gb_s: Positive = Field(description="Sequential read per device (or per system), GB/s.")
    seq_write_gb_s: Positive = Field(description="Sequential write per device (or per system), GB/s.")
    random_read_kiops: Positive | None = Field(default=None, description="4K random read, thousand IOPS.")
    per: str = Field(description="'drive', 'system', 'client node', ...")
    usd_per_tb: Positive | None = Field(default=None, description="Typical price, USD per TB raw.")
    typical_use: str


class PricePoint(Entry):
    """A dated purchase price for an accelerator or a server."""

    item_id: Slug = Field(description="Id of an accelerator or server in the catalog.")
    kind: Literal["list", "street", "msrp", "estimate"]
    unit: Literal["accelerator", "server"]
    usd: Positive


class CloudPrice(Entry):
    """A dated on-demand cloud price, normalised to one accelerator-hour."""

    provider: str
    instance_type: str
    accelerator_id: Slug
    accelerators_per_instance: int = Field(ge=1)
    usd_per_accelerator_hour: Positive
    pricing: Literal["on-demand", "reserved-1y", "reserved-3y", "spot", "community"] = "on-demand"
    region: str = ""


class ModelArchitecture(Entry):
    """A published model architecture, used as a preset by the sizing calculators."""

    name: str
    aliases: list[str] = Field(default_factory=list)
    family: str = Field(description="Llama, GPT, Mistral, Qwen, DeepSeek, ...")
    params_b: Positive = Field(description="Total parameters, billions.")
    active_params_b: Positive | None = Field(
        default=None, description="Parameters active per token for MoE models, billions; null for dense."
    )
    layers: int = Field(ge=1)
    hidden_size: int = Field(ge=64)
    attention_heads: int = Field(ge=1)
    kv_heads: int = Field(ge=1, description="Key/value heads (fewer than attention heads with GQA/MQA).")
    head_dim: int | None = Field(
        default=None,
        ge=8,
        description="Per-head size when not hidden_size / heads (the value head's under MLA).",
    )
    qk_head_dim: int | None = Field(
        default=None,
        ge=8,
        description="Query/key head size when it differs from head_dim (DeepSeek-V3's MLA: 128 + 64 RoPE = 192).",
    )
    ffn_hidden_size: int = Field(ge=64, description="Intermediate size of the MLP (per expert for MoE).")
    vocab_size: int = Field(ge=256)
    max_context: int = Field(ge=128, description="Context length of the main pre-training stage, tokens.")
    context_window: int | None = Field(
        default=None,
        ge=128,
        description="Longest context the released model supports without scaling at inference (a long-context "
        "stage or RoPE extension), tokens; null when it is max_context.",
    )
    released_precision: Literal["bf16", "fp8", "mxfp4"] = Field(
        default="bf16",
        description="Precision of the weights as released (DeepSeek-V3 and R1 ship FP8; gpt-oss its MoE experts in "
        "MXFP4, the rest in BF16).",
    )
    experts: int | None = Field(default=None, ge=2, description="Routed experts per MoE layer.")
    experts_per_token: int | None = Field(
        default=None, ge=1, description="Routed experts each token goes through (top-k)."
    )
    shared_experts: int | None = Field(
        default=None,
        ge=1,
        description="Experts every token goes through besides the routed ones (DeepSeek-V3: 1); null when none.",
    )
    activation: Literal["gelu", "swiglu", "geglu", "relu"] = "swiglu"
    training_tokens_t: Positive | None = Field(
        default=None, description="Published pre-training tokens, trillions."
    )

    @model_validator(mode="after")
    def _check_shape(self) -> ModelArchitecture:
        if self.attention_heads % self.kv_heads:
            raise ValueError(
                f"{self.attention_heads} attention heads are not a multiple of {self.kv_heads} KV heads"
            )
        if self.active_params_b and self.active_params_b > self.params_b:
            raise ValueError("active parameters exceed total parameters")
        if self.experts_per_token and self.experts and self.experts_per_token > self.experts:
            raise ValueError(f"{self.experts_per_token} experts per token exceed the {self.experts} experts")
        return self

    @property
    def names(self) -> list[str]:
        return [self.id, self.name, *self.aliases]


class Defaults(Entry):
    """Default economic assumptions: electricity, PUE, FX rate, maintenance and lease rates."""

    electricity_usd_per_kwh: Positive
    pue_air: Positive = Field(ge=1)
    pue_liquid: Positive = Field(ge=1)
    usd_to_cny: Positive
    maintenance_share_per_year: float = Field(ge=0, le=1, description="Share of capex per year.")
    server_overhead_share: float = Field(
        ge=0, le=2, description="Non-GPU server power as a share of GPU TDP (CPUs, fans, NICs, drives)."
    )
    workstation_host_kw: float = Field(
        default=0.5, ge=0, le=2, description="A desk-side box's non-GPU draw: CPU, memory, drives, fans, kW."
    )
    workstation_psu_efficiency: float = Field(
        default=0.92, gt=0.5, le=1, description="A workstation power supply's efficiency near half load."
    )


class Catalog(BaseModel):
    """The whole validated catalog, with lookups by id or alias."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    accelerators: list[Accelerator]
    servers: list[Server]
    interconnects: list[Interconnect]
    storage: list[StorageTier]
    prices: list[PricePoint]
    cloud_prices: list[CloudPrice]
    models: list[ModelArchitecture]
    defaults: Defaults

    @model_validator(mode="after")
    def _check_references(self) -> Catalog:
        groups: dict[str, Iterable[Entry]] = {
            "accelerators": self.accelerators,
            "servers": self.servers,
            "interconnects": self.interconnects,
            "storage": self.storage,
            "prices": self.prices,
            "cloud_prices": self.cloud_prices,
            "models": self.models,
        }
        for group, entries in groups.items():
            seen: set[str] = set()
            for entry in entries:
                if entry.id in seen:
                    raise ValueError(f"{group}: duplicate id {entry.id!r}")
                seen.add(entry.id)
        accelerator_ids = {a.id for a in self.accelerators}
        server_ids = {s.id for s in self.servers}
        for server in self.servers:
            if server.accelerator_id not in accelerator_ids:
                raise ValueError(f"server {server.id!r}: unknown accelerator {server.accelerator_id!r}")
        for price in self.prices:
            known = accelerator_ids if price.unit == "accelerator" else server_ids
            if price.item_id not in known:
                raise ValueError(f"price {price.id!r}: unknown {price.unit} {price.item_id!r}")
        for cloud in self.cloud_prices:
            if cloud.accelerator_id not in accelerator_ids:
                raise ValueError(f"cloud price {cloud.id!r}: unknown accelerator {cloud.accelerator_id!r}")
        named: dict[str, list[Accelerator] | list[ModelArchitecture]] = {
            "accelerators": self.accelerators, "models": self.models,
        }  # fmt: skip
        for group, items in named.items():
            aliases: dict[str, str] = {}
            for item in items:
                for name in item.names:
                    key = normalize_name(name)
                    if aliases.setdefault(key, item.id) != item.id:
                        raise ValueError(
                            f"{group}: alias {name!r} names both {aliases[key]!r} and {item.id!r}"
                        )
        return self

    def accelerator(self, name: str) -> Accelerator:
        """Find an accelerator by id, name or alias ("H100", "h100-sxm", "H100 80GB")."""
        key = normalize_name(name)
        for acc in self.accelerators:
            if key in {normalize_name(n) for n in acc.names}:
                return acc
        raise UnknownItemError(name, "accelerator", self.closest_accelerators(name))

    def closest_accelerators(self, name: str, n: int = 3) -> list[str]:
        """Catalog names closest to ``name``, for "did you mean" messages."""
        by_key = {normalize_name(x): acc.id for acc in self.accelerators for x in acc.names}
        hits = difflib.get_close_matches(normalize_name(name), list(by_key), n=n * 3, cutoff=0.4)
        return list(dict.fromkeys(by_key[h] for h in hits))[:n]

    def server(self, name: str) -> Server:
        """Find a reference server by id or alias."""
        key = normalize_name(name)
        for server in self.servers:
            if key in {normalize_name(n) for n in (server.id, server.name, *server.aliases)}:
                return server
        names = [s.id for s in self.servers]
        raise UnknownItemError(name, "server", difflib.get_close_matches(name.lower(), names, n=3))

    def model(self, name: str) -> ModelArchitecture:
        """Find a model architecture preset by id, name or alias ("llama-2-70b", "Llama 2 70B")."""
        key = normalize_name(name)
        for model in self.models:
            if key in {normalize_name(n) for n in model.names}:
                return model
        by_key = {normalize_name(x): m.id for m in self.models for x in m.names}
        hits = difflib.get_close_matches(key, list(by_key), n=6, cutoff=0.5)
        raise UnknownItemError(name, "model", list(dict.fromkeys(by_key[h] for h in hits))[:3])

    def servers_for(self, accelerator_id: str) -> list[Server]:
        """The catalog's servers and systems built around an accelerator id, in file order."""
        return [s for s in self.servers if s.accelerator_id == accelerator_id]

    def prices_for(self, item_id: str) -> list[PricePoint]:
        """Purchase prices recorded for an accelerator or server id, newest first."""
        return sorted((p for p in self.prices if p.item_id == item_id), key=lambda p: p.as_of, reverse=True)

    def cloud_prices_for(self, accelerator_id: str) -> list[CloudPrice]:
        """Cloud prices per accelerator-hour for an accelerator id, cheapest first."""
        hits = (c for c in self.cloud_prices if c.accelerator_id == accelerator_id)
        return sorted(hits, key=lambda c: c.usd_per_accelerator_hour)

    def entries(self) -> Iterator[tuple[str, Entry]]:
        """Every entry with its group name, in file order."""
        yield from (("accelerators", e) for e in self.accelerators)
        yield from (("servers", e) for e in self.servers)
        yield from (("interconnects", e) for e in self.interconnects)
        yield from (("storage", e) for e in self.storage)
        yield from (("prices", e) for e in self.prices)
        yield from (("cloud_prices", e) for e in self.cloud_prices)
        yield from (("models", e) for e in self.models)
        yield ("defaults", self.defaults)


class UnknownItemError(LookupError):
    """A name that matches no catalog entry; carries the closest names."""

    def __init__(self, name: str, kind: str, suggestions: list[str]) -> None:
        hint = f"; closest: {', '.join(suggestions)}" if suggestions else ""
        super().__init__(f"unknown {kind} {name!r}{hint}")
        self.name = name
        self.kind = kind
        self.suggestions = suggestions


class CatalogError(ValueError):
    """A catalog file that cannot be read or does not validate; names the file."""


NAME_SEPARATORS = re.compile(r"[\s_\-/]+")


def normalize_name(name: str) -> str:
    """Fold case, spaces, dashes and underscores so "H100 SXM", "h100-sxm" and "H100_SXM" agree."""
    return NAME_SEPARATORS.sub("", name.strip().lower())


_FILES = {
    "accelerators": "accelerators.yaml",
    "servers": "servers.yaml",
    "interconnects": "interconnects.yaml",
    "storage": "storage.yaml",
    "prices": "prices.yaml",
    "cloud_prices": "cloud_prices.yaml",
    "models": "models.yaml",
    "defaults": "defaults.yaml",
}


# libyaml's loader when PyYAML was built with it: the same documents, read 8x faster (every start reads them)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read_yaml(path: Path) -> object:
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(f"{path}: {exc}") from exc


def load_catalog(directory: Path = CATALOG_DIR) -> Catalog:
    """Read and validate every catalog file in ``directory``; errors name the file and the field."""
    data: dict[str, object] = {}
    for key, filename in _FILES.items():
        data[key] = _read_yaml(directory / filename)
    try:
        return Catalog.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = str(first["loc"][0]) if first["loc"] else ""
        where = directory / _FILES.get(key, "")
        raise CatalogError(f"{where}: {exc}") from exc


@cache
def default_catalog() -> Catalog:
    """The packaged catalog, loaded and validated once per process."""
    return load_catalog(CATALOG_DIR)
