"""Slot filling: the quantities a sizing question states, read from English or Chinese text.

"70B", "7.5 billion", "700亿参数", "1.8万亿参数", "2T tokens", "2万亿token", "8×H100", "64 H100s",
"8卡A100", "两台8卡H800", "MFU 45%", "$500k", "50万美元", "300万元", "in 30 days", "一个月内"...
Each pattern is a small, tested rule; what no rule matches stays unset, and the caller decides the default.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field

from assistant.amounts import HARDWARE_BEFORE, clause, money_mentions, strip
from assistant.numbers import (
    AMOUNT,
    CN_DIGITS,
    DECIMAL,
    INTEGER,
    NUMBER,
    flags,
    scaled,
    to_number,
)
from knowledge.names import Mention, NameIndex, variant
from tools.common import SECONDS_PER_DAY
from tools.gpu_spec import PRICE_FIELDS
from tools.storage import COMPRESSION_RATIOS


class Slots(BaseModel):
    """Quantities stated in a message; ``None`` means not stated."""

    model: str | None = Field(default=None, description="Catalog model preset id, e.g. 'llama-2-70b'.")
    params_b: float | None = Field(default=None, description="Model size, billions of parameters.")
    active_params_b: float | None = Field(default=None, description="MoE active parameters, billions.")
    tokens_b: float | None = Field(default=None, description="Training tokens, billions.")
    gpu: str | None = Field(default=None, description="Catalog accelerator id.")
    ethernet_fabric: bool = Field(
        default=False,
        description="The compute fabric is RoCE or Ethernet ('roce 400G 交换机', 'Ethernet only').",
    )
    card_counts: dict[str, int] = Field(
        default_factory=dict,
        description="How many of each card, when builds with different counts are weighed ('4x 4090 or 2x 5090').",
    )
    other_gpus: list[str] = Field(
        default_factory=list, description="Further accelerators named (comparisons)."
    )
    gpu_count: int | None = None
    gpus_per_node: int | None = None
    finetune_options: list[str] = Field(
        default_factory=list,
        description="Fine-tuning methods weighed against each other ('full finetune or LoRA?'), in the order named.",
    )
    staff_per_server: bool = Field(
        default=False, description="staff_per_year is for each server ('运维每年每台5万'), not for the fleet."
    )
    lease_all_in: bool = Field(
        default=False, description="The rent includes hosting and power ('每月8万（含托管）')."
    )
    datacenter_use: bool = Field(
        default=False, description="The hardware goes into data-centre racks running around the clock."
    )
    driver_version: str | None = Field(default=None, description="The NVIDIA driver installed, e.g. '535'.")
    cuda_version: str | None = Field(default=None, description="The CUDA version wanted, e.g. '12.8'.")
    utilization_options: list[float] = Field(
        default_factory=list,
        description="Utilisations weighed side by side ('show at 100% and 70% utilization', '利用率60%和80%'), 0-1.",
    )
    tp_options: list[int] = Field(
        default_factory=list,
        description="Tensor-parallel sizes weighed on the same GPUs ('TP=4 one instance vs two TP=2'), in order.",
    )
    zero_options: list[int] = Field(
        default_factory=list,
        description="ZeRO stages weighed against each other ('zero1 2 3差在哪', 'ZeRO-2 vs ZeRO-3'), in order.",
    )
    offload_options: list[bool] = Field(
        default_factory=list,
        description="Without and with CPU offload, when what offloading saves is asked ('offload 能省多少').",
    )
    precision: str | None = Field(
        default=None,
        description="bf16, fp16, fp8, fp32, tf32; int8, int4 or fp4 for quantised serving weights.",
    )
    optimizer: str | None = None
    zero_stage: int | None = None
    tensor_parallel: int | None = None
    single_stream: bool = Field(
        default=False, description="One request decoded alone ('单请求', 'batch 1'): its own speed is asked."
    )
    pipeline_parallel: int | None = None
    seq_len: int | None = None
    transfer_gbit: float | None = Field(
        default=None,
        description="A link a copy goes over, Gbit/s ('2x200G to the storage', '出口带宽 25Gbps').",
    )
    long_context: bool = Field(
        default=False, description="'长上下文', 'long context' said with no length: read as 32k tokens."
    )
    micro_batch: int | None = None
    batch_tokens: float | None = Field(
        default=None,
        description="Tokens in one global batch (one step), when given as tokens ('global batch 4M tokens').",
    )
    recompute: str | None = Field(
        default=None,
        description="Activation recomputation: none, selective or full ('no activation checkpointing').",
    )
    global_batch: int | None = None
    mfu: float | None = Field(default=None, description="0-1.")
    finetune: str | None = Field(default=None, description="full, lora or qlora.")
    budget: float | None = None
    budget_currency: str | None = Field(default=None, description="USD or CNY.")
    deadline_days: float | None = None
    cloud_price_per_gpu_hour: float | None = None
    cloud_price_currency: str | None = None
    electricity_price_per_kwh: float | None = None
    electricity_currency: str | None = None
    utilization: float | None = Field(default=None, description="0-1.")
    years: float | None = None
    tokens_per_second_per_gpu: float | None = None
    concurrent: int | None = Field(default=None, description="Concurrent sequences being served.")
    # quantities people state that calculators use as given, not re-derived
    gpu_hours: float | None = Field(default=None, description="GPU-hours the user already knows.")
    training_flops: float | None = Field(default=None, description="Total training FLOPs the user states.")
    power_kw: float | None = Field(default=None, description="Power of everything described, kW.")
    power_at_wall: bool | None = Field(
        default=None, description="power_kw is measured at the wall (cooling in)."
    )
    server: str | None = Field(default=None, description="Catalog reference server id, e.g. 'dgx-h100'.")
    server_power_kw: float | None = Field(default=None, description="Power of one server, kW.")
    always_on_kw: float | None = Field(
        default=None, description="IT load drawn all year whatever the GPUs do (network, storage), kW."
    )
    gpu_power_kw: float | None = Field(default=None, description="Power per GPU, all in, kW.")
    switch_gbps: int | None = Field(default=None, description="Port speed of the fabric's switches, Gb/s.")
    oversubscription: float | None = Field(
        default=None,
        description="Leaf down:up ratio asked ('2:1 oversubscribed', '2:1 收敛'); 1 is non-blocking.",
    )
    link_gbit: float | None = Field(
        default=None,
        description="The link between servers the user has, Gb/s: per server (all its ports), or per GPU "
        "with link_per_gpu ('机间只有100G以太网', '8x400G per node', '200G RoCE per GPU').",
    )
    link_per_gpu: bool = Field(default=False, description="link_gbit is each GPU's, not the server's.")
    ring_only: bool = Field(
        default=False, description="A flat ring all-reduce is asked for ('ring', '环形')."
    )
    facility: bool = Field(default=False, description="rack_kw is a whole room's or site's IT power.")
    power_is_rating: bool = Field(default=False, description="server_power_kw is a maximum, not the draw.")
    write_gb_s: float | None = Field(default=None, description="Write bandwidth of the storage, GB/s.")
    pue: float | None = None
    servers: int | None = Field(default=None, description="Servers (nodes) the user states.")
    server_price: float | None = Field(default=None, description="Purchase price of one server.")
    network_storage_cost: float | None = Field(
        default=None, description="What the cluster's network and storage cost, as the user priced them."
    )
    network_storage_currency: str | None = None
    network_per_server: float | None = Field(
        default=None,
        description="What the network costs for each server ('IB 网络按每台 30 万'), in network_storage_currency; "
        "a share of the server's price (network_share) once that price is known.",
    )
    server_quotes: dict[str, float] = Field(
        default_factory=dict,
        description="Quoted price of one server per card, when several cards are quoted ('H20 8卡整机 110万/台，"
        "910B 8卡 95万/台'); in server_quotes_currency.",
    )
    server_quotes_currency: str | None = None
    card_prices: dict[str, float] = Field(
        default_factory=dict,
        description="Quoted price of one card, when several cards are priced ('MI300X $15k a card, H200 $30k'); "
        "in card_prices_currency.",
    )
    card_prices_currency: str | None = None
    peak_tflops: dict[str, float] = Field(
        default_factory=dict,
        description="Dense peak TFLOP/s per GPU the user plans with, per catalog card ('910B按320T算'); the key "
        "'*' when no card is named beside it.",
    )
    server_price_currency: str | None = None
    gpu_price: float | None = Field(default=None, description='Purchase price of one GPU ("$28k per GPU").')
    gpu_price_currency: str | None = None
    network_reserve: float | None = Field(
        default=None, description='Share of a budget kept for network and storage ("网络存储留20%").'
    )
    network_share: float | None = Field(
        default=None,
        description='Network (and storage) as a share of the servers\' price ("网络按整机15%", "add 15% of server cost '
        'for the IB fabric").',
    )
    infra_share: float | None = Field(
        default=None,
        description='What the rest of the cluster adds to the GPUs\' price ("plus 20% for infrastructure").',
    )
    monthly_bill: float | None = Field(default=None, description="A monthly (cloud) bill the user pays now.")
    monthly_bill_currency: str | None = None
    support_per_year: float | None = Field(
        default=None,
        description="Support and spares for owned hardware per year ('vendor support $15k/yr', '维保每年8万'), in "
        "support_currency; replaces the maintenance share.",
    )
    support_currency: str | None = None
    maintenance_share: float | None = Field(
        default=None, description="Ops/maintenance per year, share of capex."
    )
    checkpoints: int | None = Field(default=None, description="Checkpoints kept.")
    keeps_checkpoints: bool = Field(
        default=False, description="Checkpoints are to be kept, their number given or not ('ckpt想多留几个')."
    )
    weights_only_checkpoints: int | None = Field(
        default=None, description="Weights-only checkpoints kept besides the full ones."
    )
    checkpoint_hours: float | None = Field(default=None, description="Hours between checkpoints.")
    checkpoint_tb: float | None = Field(default=None, description="Size of one checkpoint, TB.")
    write_seconds: float | None = Field(default=None, description="Time allowed to write a checkpoint, s.")
    epochs: float | None = None
    samples: float | None = Field(default=None, description="Fine-tuning examples in the data set.")
    sample_tokens: float | None = Field(default=None, description="Average tokens per example.")
    step_time_s: float | None = Field(default=None, description="Measured seconds per training step.")
    node_tokens_per_second: float | None = Field(default=None, description="Tokens/s of one server.")
    demand_tokens_per_second: float | None = Field(default=None, description="Tokens/s to serve at peak.")
    headroom: float | None = Field(default=None, description="Spare capacity wanted, 0-1.")
    exclude_power: bool = Field(
        default=False,
        description="Electricity left out of a comparison ('先不算电费', 'ignore power for now').",
    )
    extras_share: float | None = Field(
        default=None,
        description="Costs beside the GPUs as a share of their bill ('add 10% for storage/egress'), 0-5.",
    )
    staff_per_year: float | None = Field(default=None, description="Operations staff per year, all people.")
    staff_currency: str | None = None
    power_bill_per_year: float | None = Field(
        default=None,
        description="The electricity bill per year the user states ('电费每台每年6万', 'power bill $8k/month' x 12).",
    )
    power_bill_currency: str | None = None
    power_bill_per_server: bool = Field(
        default=False, description="power_bill_per_year is each server's bill ('电费每台每年6万')."
    )
    colo_per_month: float | None = Field(
        default=None, description="Colocation rent per month, per colo_basis."
    )
    colo_currency: str | None = None
    colo_basis: Literal["server", "rack", "kw"] | None = Field(
        default=None, description="What colo_per_month is paid for; None: the whole deployment."
    )
    lease_per_month: float | None = Field(default=None, description="A lease payment per month (per server).")
    lease_currency: str | None = None
    lease_per_server: bool = Field(default=False, description="The lease payment is per server.")
    lease_is_rental: bool = Field(
        default=False,
        description="A rental of the provider's machine ('rent', '租'), whose upkeep the provider carries; "
        "a lease ('lease', '融资租赁') leaves maintenance to the lessee.",
    )
    discount_share: float | None = Field(default=None, description="Discount off a quoted price, 0-1.")
    requests_per_second: float | None = Field(default=None, description="Requests per second (QPS) to serve.")
    ttft_ms: float | None = Field(default=None, description="Time-to-first-token target, ms.")
    requests_per_day: float | None = Field(
        default=None, description="Requests a day to serve ('日均请求10万次')."
    )
    daily_users: float | None = Field(
        default=None,
        description="Daily active users of the service ('日活10万', '100k DAU'); their requests are assumed.",
    )
    tokens_per_request: float | None = Field(default=None, description="Output tokens per request.")
    prompt_tokens: int | None = Field(default=None, description="Input (prompt) tokens per request.")
    kv_precision: str | None = Field(
        default=None, description="Precision of a serving KV cache: fp8, int8, ..."
    )
    ports_per_gpu: int | None = Field(default=None, description="Compute-fabric ports per GPU.")
    ports_per_node: int | None = Field(default=None, description="Compute-fabric ports per server.")
    switch_ports: int | None = Field(default=None, description="Ports per network switch.")
    growth_share_per_year: float | None = Field(default=None, description="Yearly growth, 0.3 = +30%.")
    residual_share: float | None = Field(default=None, description="Resale value at the end, share of capex.")
    resale_amount: float | None = Field(
        default=None,
        description="What the hardware sells for at the end ('三年后能卖60万'), in resale_currency.",
    )
    resale_currency: str | None = Field(default=None, description="Currency of resale_amount.")
    compare_pue: float | None = Field(
        default=None, description="A second facility's PUE to price the same load at."
    )
    cloud_on_demand: bool = Field(
        default=False, description="The cloud is paid by the hour used ('on-demand', '按需'), not reserved."
    )
    cloud_on_demand_price: float | None = Field(
        default=None,
        description="An on-demand price per GPU-hour offered beside a reserved or committed one ('12-month "
        "take-or-pay at $2.40, or on-demand at $3.60'), in cloud_price_currency.",
    )
    scaling_efficiency: float | None = Field(
        default=None, description="Share of linear speed-up kept when GPUs are added, 0-1."
    )
    goodput: float | None = Field(
        default=None,
        description="Share of wall-clock time spent training (restarts, evaluation and stalls take the rest), 0-1.",
    )
    peak_factor: float | None = Field(default=None, description="Peak demand / average demand.")
    measured_totals: bool = Field(
        default=False, description="measured_runs hold each run's total rate already (one was given per GPU)."
    )
    measured_runs: list[tuple[int, float]] = Field(
        default_factory=list,
        description="Two runs of one job measured by the user: (GPUs, throughput), in the order given "
        "('从64卡到256卡, 1.2M涨到4.1M tokens/s').",
    )
    measured_unit: str | None = Field(default=None, description="The measured throughput's unit.")
    budget_all_in: bool = Field(
        default=False,
        description="The budget covers the network and storage too ('$1.2M all-in', '含网络存储').",
    )
    card_hourly: dict[str, float] = Field(
        default_factory=dict,
        description="An hourly cloud price per card, for two or more cards ('h100 is $2.10/hr and b200 is $4.60/hr').",
    )
    card_hourly_currency: dict[str, str] = Field(
        default_factory=dict,
        description="The currency of each card's hourly price, when named ('H100 $2.2/GPU-hr, A800 ¥6/卡时').",
    )
    card_mfu: dict[str, float] = Field(
        default_factory=dict,
        description="A measured MFU per card, for two or more cards ('~50% mfu on tpu and ~40% on h100').",
    )
    hours_per_year: float | None = Field(
        default=None, description="Hours a year the GPUs are used ('一年用5000小时', '8000 hours a year')."
    )
    layers: int | None = Field(
        default=None, description="The model's transformer layers, as the user gave them."
    )
    kv_heads: int | None = Field(default=None, description="Its key/value heads (GQA), as given.")
    attention_heads: int | None = Field(default=None, description="Its attention heads, as given.")
    hidden_size: int | None = Field(default=None, description="Its hidden size (d_model), as given.")
    samples_per_second_per_gpu: float | None = Field(
        default=None,
        description="Samples (video clips, images) each GPU reads per second ('每卡每秒40个clip').",
    )
    sample_mb: float | None = Field(default=None, description="Stored size of one sample, MB ('每个2MB').")
    token_bytes: int | None = Field(default=None, description="Bytes per stored token id (2 or 4).")
    raw_data_tb: float | None = None
    data_tokenized: bool = Field(
        default=False, description="The data size given is of the tokenised shards, not raw text."
    )
    tokenized_tb: float | None = Field(
        default=None,
        description="The tokenised shards' size, given beside the raw data's ('原始语料 200TB，tokenize 后大概 40TB').",
    )
    fabric_choice: bool = Field(
        default=False, description="InfiniBand or RoCE is asked ('IB or RoCE?', 'RoCE还是IB')."
    )
    ethernet_team: bool = Field(
        default=False,
        description="A reason to prefer Ethernet is given: the team knows Ethernet, never ran IB, a tight budget.",
    )
    took_days: float | None = Field(
        default=None, description="Days a finished run of the same job took ('64 张 A100 跑了 20 天')."
    )
    data_compression: float | None = Field(
        default=None, description="How many times larger the raw data is uncompressed ('jsonl.zst': 3.19)."
    )
    data_kept_share: float | None = Field(
        default=None, description="Share of the raw data kept after cleaning ('清洗后剩20%')."
    )
    to_tokenize: bool = Field(
        default=False, description="The raw data is still to be tokenized ('tokenize之后需要多少存储')."
    )
    disk_tb: float | None = Field(default=None, description="Capacity of one disk, TB ('单盘20TB').")
    storage_tb: float | None = Field(default=None, description="Data kept in priced cloud storage, TB.")
    storage_price_per_gb_month: float | None = Field(
        default=None, description="A storage price per GB-month."
    )
    storage_price_currency: str | None = None
    growth_tb_per_day: float | None = None
    replicas: int | None = None
    lora_adapters: int | None = Field(default=None, description="LoRA adapters served beside one base model.")
    years_committed: bool = Field(
        default=False,
        description="The years read are a cloud commitment's term ('if we commit for a year'), not a horizon.",
    )
    cloud_committed: bool = Field(
        default=False, description="The cloud price is reserved: every hour is paid."
    )
    achieved_tflops: float | None = Field(default=None, description="TFLOP/s per GPU a run measures.")
    cloud_price_per_instance: bool = Field(
        default=False, description="cloud_price_per_gpu_hour is the price of a whole instance-hour."
    )
    instance_gpus: int | None = Field(
        default=None,
        description='GPUs of the one cloud instance named with an hourly price ("p5.48xlarge at $55/hr").',
    )
    retention_days: float | None = Field(default=None, description="How long data is kept, days.")
    swapped: bool = Field(
        default=False,
        description="The card named is swapped in for one named before it ('replace the A100s with H100s').",
    )
    rack_kw: float | None = Field(default=None, description="Power budget of one rack, kW.")
    racks: int | None = Field(default=None, description='Racks the user has ("6 racks of 20 kW").')
    nodes_per_rack: int | None = Field(
        default=None, description='Servers one rack holds ("2 nodes per rack"), for colocation per rack.'
    )
    period: str | None = Field(default=None, description="hour, day, month or year: the figure asked per.")
    target_currency: str | None = Field(default=None, description="USD or CNY: the answer asked in.")
    usd_to_cny: float | None = Field(
        default=None, description="The exchange rate the user gives, CNY per USD."
    )
    offload: bool | None = Field(default=None, description="Optimizer (and parameters) offloaded to CPU.")
    rank_by: str | None = Field(default=None, description="What a comparison of cards is judged by.")
    job_compared: Literal["pretrain", "finetune", "training"] | None = Field(
        default=None,
        description="The cards compared are weighed on the training run asked about (its hours and cost on "
        "each): a pre-training, a fine-tune, or training of an unnamed kind.",
    )
    spec_fields: list[str] = Field(default_factory=list, description="A card's own figures asked about.")
    air_cooled_only: bool = Field(
        default=False,
        description="The racks or hall can only be air-cooled ('air-cooled only', '只有风冷', '没有液冷').",
    )
    site_abroad: bool = Field(
        default=False,
        description="The machines stand outside mainland China ('新加坡子公司', 'our Frankfurt site'), whatever "
        "currency the budget is in: no Chinese export-licence note.",
    )
    states_only: bool = Field(
        default=False,
        description="The model states alone are asked: 'not counting activations', '只算模型状态'.",
    )
    component: Literal["optimizer", "activations"] | None = Field(
        default=None,
        description="One part of training memory asked alone: 'how much is JUST the optimizer state', "
        "'activation memory per gpu', '激活占多少'.",
    )
    unknown_gpu: str | None = Field(default=None, description="A card named that the catalog does not hold.")
    card_memory_gb: float | None = Field(default=None, description="Memory per card, as the user states it.")
    circuit_amps: float | None = Field(default=None, description="Breaker rating of an outlet or circuit, A.")
    circuit_volts: float | None = Field(
        default=None, description="Its voltage, V (220 in a Chinese message)."
    )
    ram_gb: float | None = Field(
        default=None, description="Host RAM a server has or is quoted with, GB ('1T够不够')."
    )
    measured_gpus: int | None = Field(
        default=None,
        description="GPUs a throughput was measured on, when a follow-up projects it to gpu_count.",
    )

    def stated(self) -> dict[str, object]:
        """Only the slots the text set."""
        return self.model_dump(exclude_none=True, exclude_defaults=True)

    def merged_over(self, earlier: Slots) -> Slots:
        """These slots on top of ``earlier`` ones: what this message states wins, the rest carries over.

        Naming a new model preset drops the earlier size (and a new size drops the earlier preset),
        so "换成Llama 3 70B呢" does not keep the previous 34B; a new GPU drops the earlier comparison list.
        """
        stated = self.stated()
        carried = earlier.model_dump()
        gpu, price = self.gpu, self.cloud_price_per_gpu_hour
        if (
            len(earlier.card_hourly) >= 2
            and "card_hourly" not in stated
            and "gpu" in stated
            and gpu in earlier.card_hourly
            and "cloud_price_per_gpu_hour" in stated
            and price is not None
        ):
            # "A100 降到 ¥9 呢" after "H100 ¥28/卡时 vs A100 ¥12/卡时": that card's price changes, the comparison stays
            for key in ("gpu", "cloud_price_per_gpu_hour", "cloud_price_currency"):
                stated.pop(key, None)
            stated["card_hourly"] = {**earlier.card_hourly, gpu: price}
            if currency := stated.pop("cloud_price_currency", None):
                stated["card_hourly_currency"] = {**earlier.card_hourly_currency, gpu: currency}
        carried["job_compared"] = None  # set by the router for the turn that weighs cards on a run
        carried["component"] = (
            None  # "just the optimizer state" asks this turn's question, not the next one's
        )
        if (
            stated.get("params_b") is not None
            and stated["params_b"] == earlier.tokens_b
            and "tokens_b" not in stated
            and (earlier.params_b or earlier.model)
        ):
            # "老板说必须一个月内搞完 600B" after 72B on 600B tokens: the count of tokens said again, not a model
            del stated["params_b"]
        if "model" in stated or "params_b" in stated:
            for key in ("model", "params_b", "active_params_b"):
                carried[key] = None
        if "gpu" in stated:
            carried["other_gpus"] = []
            if "server_power_kw" not in stated:
                carried["server_power_kw"] = (
                    None  # "那换 8卡 L40S 的机器呢": the H100 server's 10.2 kW was its own
                )
            carried[
                "card_counts"
            ] = {}  # "what about a single RTX PRO 6000 instead": that card, as counted now
        if self.servers and "gpu_count" not in stated and earlier.gpu_count:
            # "总共 40 台" after "8卡机满载 10.2kW 一个柜放几台": forty of those machines, not the one described
            per = earlier.gpus_per_node or (earlier.gpu_count if earlier.gpu_count <= 16 else 8)
            carried["gpu_count"] = self.servers * per
            if earlier.power_kw and not earlier.servers and earlier.gpu_count <= 16:
                # ... whose 10.2 kW was one machine's draw
                carried["server_power_kw"] = carried["server_power_kw"] or earlier.power_kw
                carried["power_kw"] = None
        if "gpu_count" in stated and "servers" not in stated:
            carried["servers"] = (
                None  # "we want 64 gpus" after "4 NVL72 racks": the new count, in its own servers
            )
        if "retention_days" in stated and "checkpoints" not in stated:
            carried["checkpoints"] = (
                None  # "keep the last 24 hours" after "keep 10": the hours decide the count
            )
        if "finetune" in stated:
            carried["finetune_options"] = []  # "what if we do LoRA instead": that method alone
        if "zero_stage" in stated:
            carried["zero_options"] = []  # "那用ZeRO-3呢": that stage alone
        carried["offload_options"] = []  # what offloading saves is asked anew each time
        if "tensor_parallel" in stated:
            carried["tp_options"] = []  # "and TP 8?": that size alone
        if "utilization" in stated:
            carried["utilization_options"] = []  # "and at 40%?": that utilisation alone
        if stated.get("precision") == "fp8" and "mfu" not in stated and earlier.precision != "fp8":
            # "and with FP8?" after a BF16 run at 40% MFU: that MFU was of the BF16 peak; at the FP8 peak the
            # planned MFU is lower (FP8 seldom doubles the speed), so the FP8 default replaces it
            carried["mfu"] = None
        if stated.keys() & {"electricity_price_per_kwh", "power_bill_per_year", "pue"}:
            carried["exclude_power"] = False  # "加上电费 … 电价 0.7" after "先不算电费": power is in now
        if stated.get("cloud_on_demand"):
            # "but on-demand is $3.50, we'd pay only for what we use": no longer a reservation
            carried["cloud_committed"] = False
        if "mfu" in stated:
            # "what if we instead fix mfu to 40%": an assumed utilisation replaces what was measured
            carried["tokens_per_second_per_gpu"] = carried["step_time_s"] = None
            carried["gpu_hours"] = None
        if "tokens_per_second_per_gpu" in stated:
            carried["step_time_s"] = None  # a throughput measured per GPU replaces a step time
        if "step_time_s" in stated:
            carried["tokens_per_second_per_gpu"] = None
        if stated.keys() & _DURATIONS:
            # "reserve the 512 for a full year" after "for 3 weeks": the new period replaces the old one
            for key in _DURATIONS - stated.keys():
                carried[key] = None
        return Slots.model_validate({**carried, **stated})


# the ways a period is stated: one replaces the others in a follow-up
_DURATIONS = {"years", "deadline_days", "period"}


# --- model size -----------------------------------------------------------------------------------
_PARAMS_EN = flags(
    rf"(?<![A-Za-z0-9.$¥￥])(?<!per )(?<!每){DECIMAL}\s*-?\s*(b|bn|billion|t|trillion|m|million)(?![A-Za-z])"
    r"(?!\s*-?\s*(?:(?:output|input|generated|training)\s+)?(?:tokens?|toks?|usd|dollars?|bucks|rmb|cny|yuan|美元|元|budget|的?\s*预算|to spend|to invest|in (?:budget|funding|cash|capex)|of (?:budget|funding|capex)))"
    r"(?:[\s-]*(?:params?|parameters?|model|llm|dense|moe))?"
)
# the top of a range of model sizes after its first size: "7B到14B", "7B-13B", "7B ~ 14B", "7B to 13B"
_SIZE_RANGE_TAIL = flags(rf"\s*(?:到|至|~|～|–|—|-|to)\s*{DECIMAL}\s*(b|bn|billion)(?![A-Za-z])")
# two runs of one job the user measured: "从64卡scale到256卡, throughput从1.2M tokens/s涨到4.1M",
# "64 GPUs: 1.2M tok/s, 256 GPUs: 4.1M tok/s", "went from 8 to 32 GPUs and 12k to 41k tokens/s"
_SCALE = r"\s*([kmKM]|万)?"
_GPU_UNIT = r"(?:张|块)?\s*(?:卡|gpus?|cards?|[a-z]\d{2,3}s?)"
_RUN_GPUS = flags(
    rf"(?:从|from)?\s*{INTEGER}\s*{_GPU_UNIT}?\s*(?:scal\w*|扩(?:展|容)?|加|增加|go(?:ing|es)?|went|grew|up)?\s*"
    rf"(?:到|至|to|->|→|=>)\s*{INTEGER}\s*(?:{_GPU_UNIT}|\s(?=\s))"  # a card's name is blanked out by now
)
_RATE_UNIT = (
    r"(?:tokens?|toks?|samples?|seqs?|sequences?|it|images?)\s*(?:/|per\s*)\s*(?:s\b|sec\w*|秒)|tps\b|qps\b"
)
_RUN_RATES = flags(
    rf"(?:从|from)\s*{AMOUNT}{_SCALE}\s*(?:{_RATE_UNIT})?\s*(?:涨到|升到|提到|提升到|变成|到|至|to|->|→|=>)\s*{AMOUNT}{_SCALE}\s*({_RATE_UNIT})?"
)
# the unit of two runs given as a ratio ("涨了5倍"): the first run counts 1
RELATIVE = "x (relative)"
# how many times the throughput grew between the two runs: "吞吐只涨了5倍", "throughput only went up 5x"
_RUN_GAIN = flags(
    rf"(?:涨了|涨到|提升了|提高了|增加了|增长了|只有|变成|是原来的|gave|got|went up|grew|increased|improved|only)\s*"
    rf"(?:了|by|about|~|约|大概)?\s*{DECIMAL}\s*(?:倍|x|×|times)(?![A-Za-z])"
)
_RUN_PAIR = flags(
    rf"{INTEGER}\s*(?:{_GPU_UNIT}|\s(?=\s))[^\d。;；\n]{{0,24}}?{AMOUNT}{_SCALE}\s*({_RATE_UNIT}|tokens?\b|个?\s*token)"
)
_SAMPLE_WORD = r"(?:clips?|videos?|视频|片段|样本|samples?|图片|图像|images?|imgs?|张图)"
_SAMPLES_PER_GPU = flags(
    rf"每卡每秒\s*(?:大概|大约|约|能)?\s*(?:吃|读|处理|消耗|喂|跑)?\s*(?:大概|大约|约)?\s*{DECIMAL}\s*(?:个|条|张|段)?\s*{_SAMPLE_WORD}"
    rf"|{DECIMAL}\s*{_SAMPLE_WORD}\s*(?:/\s*s(?:ec)?|per\s*sec(?:ond)?|每秒)\s*(?:per|/|each|每)\s*(?:gpu|card|卡)"
    rf"|(?:each|every|per)\s*(?:gpu|card)\s*(?:eats|reads|consumes|processes|does|handles|needs)?\s*(?:~|about|around|roughly)?\s*{DECIMAL}\s*{_SAMPLE_WORD}\s*(?:/\s*s(?:ec)?|per\s*sec(?:ond)?|a second)"
)
_SAMPLE_SIZE = flags(
    r"(?:每个|每条|每段|单个|平均|each|avg\.?|average)\s*(?:大概|大约|约|~|about|around|roughly)?\s*"
    rf"{DECIMAL}\s*(mb|kb|gb)\b|{DECIMAL}\s*(mb|kb|gb)\s*(?:each|apiece|per\s*(?:clip|sample|image|video))"
)
# a whole cluster's training rate: "全集群吞吐每秒2.6万token", "cluster throughput is 1.2M tokens/s"
_CLUSTER_TPS = flags(
    rf"(?:全集群|整个集群|集群|整体|全局|总|global|total|cluster|aggregate|overall)\s*(?:的)?\s*(?:吞吐(?:量)?|throughput)?\s*"
    rf"(?:是|为|约|大概|有|of|is|=|:|~|about)?\s*每秒\s*(?:约|大概)?\s*{AMOUNT}{_SCALE}\s*(?:个)?\s*(?:tokens?|toks?)"
    rf"|(?:全集群|整个集群|集群|整体|全局|总|global|total|cluster|aggregate|overall)\s*(?:的)?\s*(?:吞吐(?:量)?|throughput)?\s*"
    rf"(?:是|为|约|大概|有|of|is|=|:|~|about)?\s*{AMOUNT}{_SCALE}\s*(?:个)?\s*(?:tokens?|toks?)\s*(?:/\s*s(?:ec)?\b|每秒|per\s*sec\w*)"
    # "550k tokens/s global throughput", "26k tok/s across the cluster": the rate, then the word that makes it whole
    rf"|{AMOUNT}{_SCALE}\s*(?:output\s+|generated\s+|decode\s+)?(?:tokens?|toks?)\s*(?:/\s*s(?:ec)?\b|per\s*sec\w*)\s*(?:of\s+)?(?:global|total|cluster|aggregate|overall|"
    rf"across (?:the |all )?(?:cluster|gpus|nodes|job))"
)
_PER_GPU_RATE = flags(r"per[\s-]*(?:gpu|card)|/\s*(?:gpu|card)|每卡|单卡|每张卡")
_THROUGHPUT_WORD = flags(rf"throughput|吞吐|每秒|per second|{_RATE_UNIT}")
_PARAMS_ZH = re.compile(rf"{NUMBER}\s*(万亿|千亿|亿|十亿|b|B|t|T)\s*(?:个)?\s*(?:参数|规模|的?模型|大模型)")
_PARAMS_ZH_BARE = re.compile(r"(千亿|万亿|百亿)(?:级|参数|规模)")
_PARAMS_ZH_AFTER = re.compile(
    rf"(?<!激活)参数(?:量|规模)?\s*(?:为|是|约|共)?\s*{NUMBER}\s*(万亿|千亿|亿|b|B|t|T)"
)
# "10B active", "激活100亿", and the naming "100B-A10B" (Qwen's 235B-A22B)
# "100B total, 10B active", "active params 10B", "激活100亿"; "总参数100B 激活10B": the 激活 there
# introduces the next number, it does not qualify the one before
_ACTIVE = flags(
    # ("总参 46B active 12B": "active" then a number names the active size, not the one before it)
    rf"{DECIMAL}\s*(b|billion)[\s-]*(?:active(?!\s*(?:params?|parameters?)?\s*(?:of|=|:|is|are)?\s*\d)|activated|激活(?!(?:参数)?(?:量)?\s*(?:为|是|约|才|只有|只|仅|就)?\s*[\d.]))"
    rf"|激活(?:参数)?(?:量)?\s*(?:为|是|约|才|只有|只|仅|就)?\s*{DECIMAL}\s*(b|亿)"
    rf"|(?<=b)\s*-\s*a{DECIMAL}(b)\b"
    rf"|\bactive\s*(?:params?|parameters?)?\s*(?:of|=|:|is|are)?\s*{DECIMAL}\s*(b|billion)\b"
)

# --- tokens ---------------------------------------------------------------------------------------
_TOKENS = flags(rf"{NUMBER}\s*(t|trillion|b|billion|m|million|万亿|亿|万)\s*(?:个)?\s*(?:tokens?|toks?|词元)")
_PER_UNIT = flags(r"(?:每|\bper|/|\ba|\bevery)\s*$")  # ("data 2.3T tokens": the a of "data" is no article)
# a count of tokens that is a rate: "每卡每秒 1 万 token", "1万 token/s"
_A_RATE_BEFORE = flags(r"每秒\s*(?:大概|大约|约|能|跑)?\s*$")
_A_RATE_AFTER = flags(r"\s*(?:/\s*s(?:ec)?\b|per\s*s(?:ec(?:ond)?)?\b|a\s*sec)")
_TOKENS_AFTER = flags(
    # ("token 翻倍 600B 呢", "tokens doubled to 600B": the new count, after the word that says it changed)
    rf"(?:tokens?|数据量|语料)\s*(?:数|数量|量)?\s*(?:of|:|=|为|是|约|共|改成|换成|变成|改为|增加到|加到|提到|翻倍(?:到|成)?|涨到|扩到"
    rf"|doubled?(?:\s+to)?|doubles\s+to|(?:increased?|grows?|grew|goes|went)\s+to|to|->|→)?\s*{NUMBER}\s*(t|b|m|万亿|亿)(?![A-Za-z])"
    # "dataset 翻倍到 600B", "data goes to 2T", "数据集扩到1.5T": the data's size, in tokens
    rf"|(?:dataset|data\s*set|data|corpus|训练数据|数据集|数据)\s*(?:size\s*)?(?:\w+\s+)?"
    rf"(?:翻倍到|增加到|扩到|变成|改成|到|is|of|goes to|grows to|doubles to|doubled to|to|=|:|为|是)\s*{NUMBER}\s*(t|b|万亿|亿)(?![A-Za-z])"
)

# --- GPUs -----------------------------------------------------------------------------------------
# a vendor word may sit between the count and the name the catalog matched: "8张NVIDIA GB200"
_VENDOR = r"(?:nvidia|amd|intel|google(?:\s+cloud)?|英伟达|华为)"
# "4 HGX H200 servers", "2 NVIDIA DGX H100": the count before a card, past its maker and its board's name
_COUNT_BEFORE = flags(
    rf"{NUMBER}\s*(?:[x×*]|张|块|颗|卡|个|片|台)?\s*(?:的)?\s*(?:{_VENDOR}\s*)?(?:hgx\s*|dgx\s*)?$"
)
_WAN_CARDS = flags(r"(\d+(?:\.\d+)?|[一二两三四五六七八九十]+)\s*万\s*(?:张|块|颗|卡)\s*(?:的)?\s*$")
_COUNT_AFTER = flags(rf"^\s*(?:s\b)?\s*(?:[x×*]|GPU\s*[x×*])\s*{INTEGER}")
_NODES = flags(
    rf"{NUMBER}\s*(?:台|个节点|节点|nodes?|servers?|machines?|boxes)\s*(?:of|的|，|,|each\s*with|with)?\s*"
    rf"{NUMBER}\s*(?:[x×*]|卡|张|块|GPUs?)?\s*(?:的)?\s*$"
)
# "12x 8-GPU A100 nodes", "16 x 8卡 H100 服务器": servers of so many GPUs each, before the name
# a cloud instance's shape: "8卡实例", "8-GPU instance", "an 8x H100 instance"
_INSTANCE_SHAPE = flags(
    rf"{NUMBER}\s*(?:卡|x|×|-?\s*gpus?)\s*(?:[A-Za-z]+\d+\w*\s*)?(?:的)?\s*(?:实例|云主机|instances?)"
)
# machines of a shape, counted as the question: "要几台 8卡 机器", "需要多少台8卡服务器", "how many 8-GPU nodes"
_MACHINES_ASKED_SHAPE = flags(
    r"(?:几|多少)\s*台\s*(\d{1,2})\s*卡\s*(?:的)?\s*(?:机器|服务器|整机|节点|机)?"
    r"|\bhow many\s+(\d{1,2})[- ]?(?:x\s*)?(?:gpu|card)\s*(?:nodes|servers|boxes|machines)\b"
)
# a machine's shape, in the plural: "round to whole 8-GPU nodes", "(4-GPU servers)": GPUs per node, not a count
_NODE_SHAPE = flags(
    rf"(?<!\ban )(?<!\ba )(?<!\bone )(?<!\bsingle ){INTEGER}\s*-\s*gpus?\s+(?:nodes|servers|boxes|machines|hosts)\b"
)
# an hourly price for a whole instance: "$98/hr per instance", "8卡实例每小时180元", "每台每小时"
_PER_INSTANCE = flags(
    r"instance|实例|云主机|per (?:node|server|box|machine)|每台|每节点|/\s*node"
    # "H100 8卡 一小时 ¥120", "8卡机每小时180": the price of the whole 8-card machine
    r"|\d+\s*卡\s*(?:机|整机|节点|服务器)?\s*[,，]?\s*(?:一|每)\s*个?\s*小时"
)
# a budget that also pays for the cluster's network and storage
_ALL_IN = flags(
    r"\ball[- ]in\b|(?:network(?:ing)?|storage|fabric|switch(?:es|ing)?)[^.?!。？]{0,30}?\b(?:included|incl\b)"
    r"|\bincl(?:uding|\.)?\s+(?:the\s+)?(?:network|storage|fabric)|(?:含|包含|包括|连同)(?:网络|存储|交换机)"
    r"|(?:网络|存储)[^。？?]{0,8}(?:都)?(?:含|包含|包括|算)在(?:内|里)"
)
# hours a year the GPUs are used: "一年用 5000 小时", "一年用满 8000 小时", "8,000 hours a year", "5000 h/yr"
_HOURS_PER_YEAR = flags(
    rf"(?:一年|每年|年)\s*(?:用|跑|使用|开|用满|跑满)?\s*(?:满|约|大概)?\s*{AMOUNT}\s*(?:个)?\s*小时"
    rf"|{AMOUNT}\s*(?:hours?|hrs?|h)\s*(?:a|per|/)\s*(?:year|yr)\b"
)
# what a run measures per GPU: "we get 210 TFLOPS per GPU", "每卡跑到350 TFLOPS"
_ACHIEVED_TFLOPS = flags(
    rf"(?:get|getting|got|see|seeing|measure[ds]?|reach(?:es|ing)?|hit(?:ting)?|achiev\w*|at|跑到|跑出|实测|达到|只有)\s*"
    rf"(?:about|around|~|约)?\s*{DECIMAL}\s*(?:tflop?s?|t(?![a-z])(?=\s*(?:算力|的算力|tflops|\(|（)))"
    rf"|{DECIMAL}\s*tflop?s?\s*(?:per|/|each|a)\s*(?:gpu|card)\b|每卡\s*(?:跑到|能跑|实测|达到)?\s*{DECIMAL}\s*tflop?s?"
    # a training log's line: Megatron's "throughput per GPU (TFLOP/s/GPU): 410", "TFLOPs/GPU = 385"
    rf"|tflop?s?\s*/\s*s?\s*/?\s*gpu\)?\s*[:=]\s*{DECIMAL}"
)
# a reserved or committed cloud price: paid for every hour of the term, used or not
_COMMITTED = flags(
    r"\breserved?\b|\breservations?\b|\bsavings plan\b|\bcommit(?:ted|ment)?\b|\b[13][- ]?(?:year|yr) (?:term|contract|reserved|commit)|包年|包月|包\s*\d\s*年|预留|长租|合约价|签\s*(?:约\s*)?[一两三四五\d]\s*年"
)
# a number of years that is a commitment's term: "if we commit for a year", "reserved for 3 years", "a 1-year
# commitment", "1 yr reserved"
_COMMIT_BEFORE = flags(
    r"\b(?:commit(?:ted|ting)?|reserv(?:ed|ing|e)|lock(?:ed)?\s+in|sign(?:ed|ing)?)\s+(?:to\s+|for\s+)?(?:a\s+)?$"
)
_COMMIT_AFTER = flags(r"^[\s-]*(?:commit(?:ment|ted)?|reserv(?:ed|ation)|term|contract|ri)\b")
# the most a GPU-hour costs: a smaller bare amount is a price per hour, never a budget
_HOURLY_CEILING = {"USD": 20.0, "CNY": 150.0}
# and below this, a price per kWh (electricity runs $0.04-0.30, ¥0.3-1.2; a GPU-hour costs more)
_KWH_CEILING = {"USD": 0.3, "CNY": 1.5}
_PER_GPU_PRICE = flags(r"per gpu|/\s*gpu|每卡|每张|gpu[- ]?h|卡时|per card")
_SERVERS_OF = flags(rf"{NUMBER}\s*[x×*]\s*{NUMBER}\s*-?\s*(?:gpus?|卡|张)\s*(?:的)?\s*$")
# "40 8xH100 boxes", "10 8-GPU H100 servers": the count of machines, then their GPUs each
# the circuit a machine plugs into: "a normal office outlet (15A)", "16A插座", "20 amp circuit"
_CIRCUIT_AMPS = flags(
    rf"{DECIMAL}\s*(?:a|amps?|安培?)\b[^.;。；?？]{{0,30}}?(?:outlet|circuit|breaker|socket|插座|线路|电路|空开|回路)"
    rf"|(?:outlet|circuit|breaker|socket|插座|线路|电路|空开|回路)[^.;。；?？\d]{{0,30}}?\(?\s*{DECIMAL}\s*(?:a|amps?|安)\b"
)
_VOLTS = flags(r"(\d{3})\s*(?:v|volts?|伏)\b")
# RAM stated in GB or TB beside its name: "512GB of RAM", "2TB DDR5", "配512G内存", "内存1.5T"
_RAM_GB = flags(
    rf"{DECIMAL}\s*(gb?|tb?)\s*(?:of\s+)?(?:host\s+|system\s+)?(?:ram|dram|ddr\d?|内存)(?!\s*带宽)"
    rf"|(?<!显)内存\s*(?:配|是|有|为|只有)?\s*{DECIMAL}\s*(gb?|tb?)\b"
)
_HOST_MEMORY = flags(r"(?<!显)内存|\bram\b|\bdram\b|\bddr\d?\b|host memory|system memory")
# a size whose sufficiency is asked: "512G够吗", "is 1TB enough", "768GB够不够用"
_SIZE_ENOUGH = flags(
    rf"{DECIMAL}\s*(gb?|tb?|gib|tib)\s*(?:的)?\s*(?:够吗|够不够|够用吗|够用|够|是否够|enough|sufficient|ok\b|okay)"
    rf"|\bis\s+{DECIMAL}\s*(gb?|tb?|gib|tib)\s+(?:enough|sufficient|ok|okay|fine)"
)
_DISTILL = flags(r"distill|蒸馏")
# DeepSeek-R1's distilled models and their bases (DeepSeek-R1 model card, "Distilled Model Evaluation" table)
_R1_DISTILLS = {70: "llama-3.1-70b", 8: "llama-3.1-8b", 32: "qwen2.5-32b", 14: "qwen2.5-14b", 7: "qwen2.5-7b"}
_EACH_MACHINE = flags(
    r"每台|每个?节点|每个?服务器|\beach\b|\bper (?:node|server|box|machine)\b"
    r"|\b(?:nodes|servers|boxes|machines)\s*(?:of|with)\s*\d+\s*(?:x\s*)?(?:gpus?|cards?)"
    # "4 台 A800 80G 8卡": the cards each of the machines counted holds (not "4台一共16卡")
    r"|(?:\d|[一两二三四五六七八九十])\s*台(?:(?!共|总|合计|一起)[^，,。；;？?]){0,24}?(?:\d+|[二四八]|十六)\s*卡"
)
# a link speed or a rate before "per node" describes the link, not the cards: "IB is only 200g per node"
_RATE_BEFORE = flags(r"(?:\d\s*(?:g|gb|gbps|gb/s|tb/s|kw|w|tokens?/s|tok/s)|\$\s*[\d.,]+\s*k?)\s*$")


def _counts_each_machine(text: str) -> bool:
    """Whether the text says what each machine holds ("2 nodes, 8 each", "每台8卡"), not a per-node rate."""
    return any(
        not _RATE_BEFORE.search(text[max(0, m.start() - 12) : m.start()])
        for m in _EACH_MACHINE.finditer(text)
    )


# the GPUs in each machine, said after the card: "H100 80GB nodes, 8 per node", "H100 servers with 8 GPUs each"
_PER_NODE_AFTER = flags(
    r"(?:[^.;。；?？\d]|\d+\s*gb){0,30}?(?:\b|(?<=\d))(\d+)\s*(?:gpus?|cards?)?\s*(?:per|each|a|/|in each|in a)\s*(?:node|server|box|machine)"
    r"|(?:[^.;。；?？\d]|\d+\s*gb){0,12}?(?:nodes?|servers?|boxes|machines)\s*(?:with|of)\s*(\d+)\s*(?:gpus?|cards?)"
)
_COUNT_OF_SERVERS = flags(rf"{NUMBER}\s+{NUMBER}\s*(?:[x×*]|-?\s*gpus?)\s*$")
_PLAIN_COUNT = flags(
    rf"{NUMBER}\s*(?:张|块|颗)\s*(?:GPU|显卡|卡|加速卡)|{AMOUNT}\s*-?\s*(?:(?:extra|more|additional|new|spare)\s+)?(?:GPUs?|cards|accelerators)\b(?![\s-]*(?:hours?|hrs?|h\b|days?|months?|小时))|{AMOUNT}\s*卡(?![A-Za-z0-9时])"
    # "那用256张呢", "128 of them": in a sizing conversation a bare count is of the cards talked about
    rf"|{NUMBER}\s*张(?!\s*(?:量|图|纸|表|照|票))"
    # (not "一张两万出头", "一张 25 万": the unit a price is for)
    rf"(?!\s*(?:约|大概|要|卖|是|报价)?\s*[¥$]?\s*(?:\d[\d.,]*|[一二两三四五六七八九十]+)\s*(?:万|元|块|w\b|k\b|美元|刀|千))"
    rf"|{AMOUNT}\s+of (?:them|those|these)\b"
    # "4090八卡机", "八卡服务器": a machine of so many cards, its count in Chinese numerals
    rf"|{NUMBER}\s*卡\s*(?:机|整机|服务器|机器|节点)"
)

# ("单卡输出3000 token/s" is a rate per card, not a count)
_SINGLE_CARD = flags(
    r"\b(?:on|with|using|to) (?:a single|one|just one|only one)\s+(?:card|gpu)\b"
    r"|(?:单卡|一张卡|一块卡)(?=\s*(?:呢|吗|\?|？|$|的话|能不能|够不够|行不行|可以吗|跑得动))"
    # "单卡能跑吗", "一张卡放得下么": what follows asks whether, naming no figure of its own
    r"|(?:单卡|一张卡|一块卡)(?=[^\d，,。；;！!]{0,8}(?:吗|么|呢|\?|？)\s*$)"
)
# a count of GPUs the work runs on, named after the card: "on 512 GPUs", "用64卡", "扩到256张卡"
_RUN_COUNT = flags(
    rf"(?:\bon|\bwith|\busing|\bacross|\bto|用|在|扩到|扩展到|换成)\s*{AMOUNT}\s*-?\s*(?:GPUs?\b|cards\b|张卡|张|卡(?![A-Za-z0-9时]))"
)

# --- training setup -------------------------------------------------------------------------------
_PRECISION = flags(r"\b(bf16|fp16|fp8|fp32|tf32|int8|int4|fp4)\b|(混合精度|mixed[- ]precision)")
_DISCOUNT = flags(
    rf"{DECIMAL}\s*%\s*(?:(?:committed|commit|reserved|volume|negotiated|enterprise)[\w-]*\s*)?(?:discount|off)\b|discount\s*(?:of)?\s*{DECIMAL}\s*%|(?:打|优惠)?\s*([1-9](?:\.\d)?|[一二三四五六七八九])\s*折"
)
# a number, a card and then hours: "2000 A100 GPU-hours", "2000张A100卡时"
_COUNT_OF_HOURS = flags(r"\d[\d,.]*\s*(?:k\s*)?(?:x\s*)?[\w -]{0,16}?(?:gpu|卡)[\s-]*(?:hours?|hrs?|小时|时)")
# data kept in storage beside a priced run: "存储 50TB", "40TB of storage"
_STORED = flags(
    rf"(?:存储|storage|存放|存)\s*(?:of|是|为|约|大概|~)?\s*{DECIMAL}\s*(tb|pb|gb)\b"
    rf"|{DECIMAL}\s*(tb|pb|gb)\s*(?:of\s*)?(?:cloud\s*|object\s*)?(?:storage|存储|数据)"
)
_PER_TB = flags(r"\s*tb\b")
# renting a provider's machine, not financing one's own: "rent at $18k a month", "租的报价每月12万"
_RENTAL = flags(r"\brent(?:al|ing|ed|s)?\b|(?<!融资)租")
_PER_SERVER = flags(r"per (?:server|node|box|machine)|each|每台|一台|单台|每个节点|/\s*(?:月\s*/\s*)?台")
_QPS = flags(
    rf"{DECIMAL}\s*(?:qps|rps|req(?:uest)?s?\s*(?:/|per)\s*s(?:ec(?:ond)?)?)\b|每秒\s*{DECIMAL}\s*(?:个)?\s*(?:请求|次请求|query)"
    # "峰值QPS 50", "QPS=120", "qps大概80"
    rf"|\b(?:qps|rps)\s*(?:(?:is|of|=|:|at|around|about|~|为|是|约|大约|大概|峰值|要|达到|有|peak|峰值大约)\s*){{0,3}}{DECIMAL}(?![\d.]|\s*(?:%|k\b|万))"
)
# a cloud paid by the hour used: "on-demand", "pay only for what we use", "按需", "用多少付多少"
_ON_DEMAND = flags(
    r"\bon[- ]demand\b|\bpay(?:ing)?\s+(?:only\s+)?(?:for\s+)?(?:what|the hours)\s+(?:we|you|i)\s+use|pay[- ]as[- ]you[- ]go"
    r"|按需|用多少付多少|按量(?:计费|付费)?"
)
# a time-to-first-token target: "p95 TTFT 要 < 2s", "time to first token under 500 ms", "首token延迟1秒以内"
_TTFT = flags(
    rf"(?:\bttft|time[- ]to[- ]first[- ]token|首\s*(?:个\s*)?(?:token|字|词|包)\s*(?:延迟|时延|时间|latency)?)"
    rf"[^。；;,，\d]{{0,14}}?{DECIMAL}\s*(ms\b|毫秒|s\b|secs?\b|seconds?\b|秒)"
)
# a day's requests arrive within a working day's busy hours: 3x the 24-hour average
BUSY_HOURS_A_DAY = 8
# a global batch given in tokens: "global batch 4M tokens", "batch size of 2M tokens", "全局batch 4M token"
_STEP_TOKENS = flags(
    rf"(?:global\s*)?batch(?:\s*size)?\s*(?:of|=|:|is|为|是)?\s*(?:~|about)?\s*{DECIMAL}\s*(k|m|b|万|百万)\s*tokens?"
    rf"|(?:每步|每个step|per step)\s*(?:约)?\s*{DECIMAL}\s*(k|m|万|百万)\s*(?:个)?\s*tokens?"
    rf"|{DECIMAL}\s*(k|m|万|百万)\s*(?:个)?\s*tokens?\s*(?:per|/|a|each|every)\s*(?:training\s*)?(?:step|iteration|iter)\b"
)
# requests a day: "2 million requests per day", "100k requests a day", "日均请求10万次", "每天10万个请求"
_QPD = flags(
    rf"{NUMBER}\s*(k|m|mn|million|万|千|百万|亿)?\s*(?:个|次)?\s*(?:requests?|reqs?|queries|calls|conversations|chats|请求|次请求|调用|次调用|对话|次对话|query)\s*(?:/|per|a|each|every)\s*day\b"
    rf"|(?:日均|每天|每日|一天)\s*(?:的)?\s*(?:请求|调用|访问|对话|query)?(?:量|数)?\s*(?:约|大概|有)?\s*{NUMBER}\s*(k|m|万|千|百万|亿)?\s*(?:次|个|条)?"
    rf"(?=\s*(?:请求|调用|对话|query|次|个|条|[，,。;；\s]|$))(?!\s*(?:个\s*)?(?:output\s*|输出\s*|生成\s*)?(?:tokens?|toks?|词元))"
    rf"|{NUMBER}\s*(k|m|万|千|百万|亿)?\s*(?:次|个)?\s*(?:请求|调用|对话)\s*/\s*(?:天|日)"
)
# output tokens a day to serve: "每天 5 亿 output token", "500M output tokens a day"
_DAILY_TOKENS = flags(
    rf"(?:每天|每日|一天|日均)\s*(?:要|需要|得)?\s*(?:生成|输出|产出|处理|推理|服务|跑)?\s*(?:约|大概|有)?\s*{NUMBER}\s*(k|m|b|bn|万|亿|百万|千万)?\s*(?:个)?\s*"
    r"(?:output\s*|输出\s*|生成(?:的)?\s*)?(?:tokens?|toks?|词元)"
    rf"|{NUMBER}\s*(k|m|b|bn|万|亿|百万|千万)?\s*(?:output|generated)\s*tokens?\s*(?:a|per|each|every|/)\s*day\b"
)
# requests a minute: "1200 requests per minute", "2000 req/min", "每分钟3000个请求"
_QPM = flags(
    rf"{DECIMAL}\s*(?:rpm|req(?:uest)?s?\s*(?:/|per|a)\s*min(?:ute)?)\b|每分钟\s*{DECIMAL}\s*(?:个)?\s*(?:请求|次请求|query)"
)
_RATING = flags(r"\bmax(?:imum)?\b|\brated\b|\bnameplate\b|\bpeak\b|最大|峰值|最高|满载|额定")
# people paid: "2个人", "two SREs", "3 engineers"
_PEOPLE = flags(
    rf"(?:{NUMBER}|\b(one|two|three|four|five|six)\b)\s*(?:个)?\s*(?:full[- ]time\s*)?"
    r"(?:人|people|persons?|admins?|engineers?|sres?|operators?|ftes?|运维)"
)
_QUOTES_PER_SERVER = flags(
    # "hgx b200 quoted $450k vs hgx h200 $320k (our quotes)": machines quoted side by side
    r"\b(?:our|vendor|vendors'?|the)\s+quotes?\b|\bquoted\b[^.?!]{0,40}\b(?:vs\.?|versus)\s"
    r"|"
    r"\bquotes?\b[^.?!]{0,20}(?::|\bon my desk\b|\bwe got\b|\bfrom\b)|报价\s*[:：]|\b\d\s*x\s*\w[\w -]{0,14}\b(?:server|node|box)s?\b\s*(?:at|for|=|:|-)?\s*[$¥]"
    r"|\b(?:quotes?d?|priced?s?)\b[^.?!]{0,30}\bper\s+(?:\d+[- ]?(?:gpu|card)\s+)?(?:node|server|box|machine)\b"
    r"|\bper\s+(?:\d+[- ]?(?:gpu|card)\s+)?(?:node|server|box)\s*(?:quotes?|prices?)?\s*:|(?:整机|每台)\s*(?:报价|价格)"
    # "报价 L20 8卡机 70万, H20 8卡机 110万": each machine's price after its card
    r"|报价\s|\d\s*卡\s*(?:机|整机|服务器|机器)\s*[\d.]"
)
# a reply that names a currency first: "USD.", "in dollars", "人民币。"
_CURRENCY_REPLY = flags(
    r"^\W*(?:it'?s |in |都是)?(usd|us dollars?|dollars?|bucks|rmb|cny|yuan|人民币|美元|美金|元)\b(?![\d])"
)
# an amount to spend with no currency named: "2 million to spend", "a budget of 5M"
_BARE_BUDGET = flags(
    rf"{DECIMAL}\s*(million|mn|m|k|billion|bn)\s*(?:to spend|to invest|in budget|of budget|budget\b|的?\s*预算)"
    rf"|\bbudget\s*(?:of|is|=|:|~|about|around)?\s*{DECIMAL}\s*(million|mn|m|k|billion|bn)\b"
    # "we have like 500k, what servers should we buy": an amount the team has, then what it buys
    rf"|\b(?:we|i)\s*(?:have|got|'ve got|can spend|could spend)\s*(?:like|about|around|roughly|~|maybe)?\s*{DECIMAL}\s*(million|mn|m|k|billion|bn)\b"
    rf"(?=[^.?!]{{0,60}}\b(?:buy|spend|get|server|cluster|gpus?|hardware)\b)"
)
_PER_RACK_COUNT = flags(
    r"(\d+|\bone|\ba single)\s*(?:nodes?|servers?|boxes|machines|systems?|units)\s*(?:per|a|each|/|in (?:a|each|one))\s*rack|(?:每|一|单)(?:个)?(?:机)?柜\s*(?:放|装|能放|可以放|可放|只放|只能放)?\s*(\d+|[一两二三四五六七八九十])\s*台"
)
# a colocation price that already pays for the electricity
_POWER_INCLUDED = flags(
    r"\bcolo(?:cation)?\s*(?:\+|and|&)\s*power\b|\bpower\s*(?:\+|and|&)\s*colo|\ball[- ]in(?:clusive)?\b|\bincl(?:uding|udes|\.)?\s*(?:the\s*)?(?:power|electricity|energy)|(?:power|electricity) (?:is )?included"
    # ("托管+电每台每月 1.5 万": hosting and its power in one monthly sum)
    r"|托管(?:费)?\s*(?:加|和|(?<![不未没])含|\+|及|、)?\s*电费|托管(?:费)?\s*(?:加|和|含|\+|及|、)\s*电(?![价费])|电费?\s*(?:加|和|\+|及|、)\s*托管|(?<![不未没])含电(?:费)?|(?<![不未没])包电(?:费)?"
    r"|电费(?:已)?(?:包含|在内|含在)|(?<![不未没])包含电费"
)
# a price said to be one card's: "$15k a card", "1.5w刀一张", "each GPU"
_PER_CARD_PRICE = flags(
    r"\b(?:a|per|each|one)\s+(?:card|gpu|accelerator)\b|\bper[- ]card\b|一张|每张|单卡|每卡(?!时)|张卡(?:价|报价)"
    # "gaudi 3 at $15k/card", "¥9.5万/张", "$30k apiece" (not "/gpu-hr" or "/卡时": those are hourly)
    r"|/\s*(?:card|gpu|卡|张)(?![\w-])(?!\s*(?:hr|hours?|h)\b)|\bapiece\b"
)
# "$310k per server, we need 4", "要买4台": how many of the machines just priced
_SERVERS_NEEDED = flags(
    r"\b(?:we|i)(?:'ll| will)?\s+(?:need|want|plan(?: to buy)?|would buy|are buying|buy|get|order)\s+(\d{1,4})\b"
    r"(?!\s*(?:x\b|[x×*]\s*\w|gpus?|cards|%|k\b|tb|gb|tokens?|b\b|days?|weeks?|months?|years?|hours?|kw))"
    r"|(?:要|需要|打算|准备|计划)(?:买|采购|上)?\s*(\d{1,4})\s*台"
)
_OF_THEM = flags(r"\s*(?:of (?:them|those|these|the (?:servers|nodes|boxes|machines))\b|台)")
_EACH_CLAUSE = flags(
    r"^\s*(?:每台|单台|每个节点|each (?:server|node|box|machine)|per (?:server|node|box|machine))"
)
_WORD_COUNT = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_MONTHLY_PAY = flags(r"(?:/|per|a|每)\s*(?:month|mo\b)|每(?:个)?月|月薪|monthly")
_YEARLY_PAY = flags(r"(?:/|per|a|每)\s*(?:year|yr|annum)|每年|一年")
# a rack's rent written without a currency: "机柜 8000/月", "机柜每月 8000", "rack 2500/month"
_RACK_RENT = flags(
    r"(?:机柜|柜子|机位|\brack)(?:费|租金|租)?\s*(?:每月|一个月|月租)?\s*(\d{3,6}(?:,\d{3})?)(?![\d.])\s*(?:元)?"
    r"\s*(?:/\s*(?:月|mo\b|month)|每月|一个月|per month|a month)"
    r"|(?:机柜|柜子|机位)(?:费|租金|租)?\s*(?:每月|一个月|月租)\s*(\d{3,6})(?![\d.万])"
)
_COLO_BASIS: list[tuple[Literal["server", "rack", "kw"], re.Pattern[str]]] = [
    ("kw", flags(r"(?:per|/|a|每)\s*(?:kw|千瓦)(?![a-z时])")),  # not "¥0.8/kWh", an electricity tariff
    (
        "rack",
        flags(r"(?:per|/|a|each|每)\s*(?:个)?\s*(?:rack|cabinet|机柜|柜)|for (?:a|one|each) rack"),
    ),
    ("server", flags(r"(?:per|/|a|each|每)\s*(?:server|node|box|machine|台|节点)")),
]
# a figure for everything described, not per server: "150 kW total", "合计200kW", "all together 90 kW"
_TOTAL_AFTER = flags(
    r"^\s*(?:in\s+)?(?:total|altogether|combined|overall|all together|together|all in)\b|^\s*(?:总|合计|一共)"
)
_TOTAL_BEFORE = flags(r"(?:\btotal|\boverall|\bcombined|\baltogether|总|合计|一共|加起来)[^.;。；\d]{0,12}$")
_EACH = flags(r"\beach\b|\bapiece\b|\bper\b|每|单台|/")
# what racks draw (a bill), not what they may carry (a fit): "4 racks drawing 40kW each", "机柜实际用电"
_RACK_DRAW = flags(
    r"\bdraw(?:s|ing)?\b|\bpull(?:s|ing)?\b|\bconsum(?:e|es|ing)\b|\busing\b|\bburn(?:s|ing)?\b|耗电|用电|实际功耗|实测"
)
# no 8-GPU server draws this much (DGX B300 is about 14.5 kW): more is the fleet's total
_MAX_SERVER_KW = 20.0
# a fleet of the servers just described: "we run 12 of them", "we have 24 of those"
_FLEET = flags(
    rf"(?:\b(?:we|i)\s*(?:run|have|own|operate|got|'ve got|ve got)\s+|[,，]\s*){NUMBER}\s+of (?:them|those|these)\b"
)
# a whole room's power budget: "机房一共 300kW IT 功率", "datacenter has 1.2 MW for IT"
_FACILITY_KW = flags(
    rf"(?:机房|数据中心|机楼|园区|\bfacility|\bdatacenter|\bdata cent(?:er|re)|\bhall|\bsite|\bcolo\b|\b(?:server |machine |our )?room\b)"
    # "风冷机房 每柜最多15kW": a figure per rack is the rack's budget, not the room's
    rf"(?:(?!每(?:个)?(?:机)?柜|单(?:个)?(?:机)?柜|per rack|each rack|racks?\b|机柜|每台|单台|per (?:server|node|box)|each)[^。.;；?？\n]){{0,24}}?{DECIMAL}\s*(kw|mw)\b"
    # "colo gives us 17 kW per rack": a rack's feed, whatever the sentence starts with
    rf"(?!\s*(?:per|a|an|each|/)\s*(?:rack|cabinet)|\s*(?:的)?\s*(?:机柜|rack|cabinet)"
    # "colo, 10.2kw max each": each machine's draw, not the room's
    rf"|\s*(?:max(?:imum)?|peak|nameplate|rated)?\s*(?:each|apiece|(?:per|/)\s*(?:node|server|box|machine))\b)"
    # "40kW for the whole room": the figure first, then the room it feeds
    rf"|{DECIMAL}\s*(kw|mw)\b(?:\s*(?:of\s*)?(?:it|critical|facility)?\s*(?:power|load|capacity))?\s*(?:for|in|of|across)\s*"
    r"(?:the|our|a)?\s*(?:new|whole|entire|existing|current)?\s*(?:room|hall|facility|site|data ?cent(?:er|re)|机房)"
)
_PER_REQUEST = flags(
    rf"{DECIMAL}\s*(?:output\s*)?tokens?\s*(?:each|per (?:request|response|query|answer)|a (?:request|response))"
    rf"|(?:each|every|per) (?:request|response|query|answer)\s*(?:generates|produces|outputs|returns|is|averages|has)?\s*(?:about|~)?\s*{DECIMAL}\s*(?:output\s*)?tokens?"
    rf"|每(?:个|次)?(?:请求|回答|回复)\s*(?:平均)?\s*(?:输出|生成|返回)?\s*(?:约)?\s*{DECIMAL}\s*(?:个)?\s*token"
    # "3000 requests per minute at ~500 output tokens", "每分钟6000个请求，每个输出300 token"
    rf"|\b(?:at|of|with)\s*(?:~|about|around)\s*{DECIMAL}\s*(?:output\s*)?tokens?\b"
    rf"|(?:，|,|;|；)\s*每个\s*(?:请求)?\s*(?:平均)?\s*(?:输出|生成|返回)\s*(?:约)?\s*{DECIMAL}\s*(?:个)?\s*token"
    # the output side of a request's shape: "400 prompt and 250 completion tokens", "500 in / 300 out",
    # "输入2k输出500" (never a rate: "1800 generated tokens/s" is a throughput)
    rf"|{DECIMAL}\s*(?:k(?![a-z])\s*)?(?:output|completion|generated|gen|decode|response|out)\s*(?:tokens?|toks?)?(?![\w/])(?!\s*(?:tokens?|toks?)?\s*(?:/\s*s|per\s*s|a\s*s|每秒))"
    rf"|(?:输出|生成|回复|回答)\s*(?:约|平均|大概)?\s*{DECIMAL}\s*(?:k(?![a-z]))?\s*(?:个)?\s*(?:tokens?|toks?)?(?![A-Za-z0-9_/])(?!\s*(?:tokens?|toks?)?\s*(?:/\s*s|per\s*s|a\s*s|每秒))"
    # "input 2k output 300", "output ~400": the word before the figure
    rf"|\b(?:output|completion)s?\s*(?:of|is|=|:|~|about|around)?\s*(?:~|about)?\s*{DECIMAL}(?!\s*(?:k\b|%|/|tokens?\s*/|tok/))"
)
# the input side of a request's shape: "400 prompt and 250 completion", "500 in / 300 out", "输入2k"
_PROMPT_TOKENS = flags(
    rf"{AMOUNT}\s*(k)?\s*(?:prompts?|inputs?|in)\s*(?:tokens?|toks?)?\s*(?:/|and|,|\+|&)"
    rf"|(?:prompts?|input)\s*(?:of|is|~|about|=|:)?\s*(?:~|about)?\s*{AMOUNT}\s*(k)?\s*(?:tokens?|toks?)"
    rf"|(?:输入|prompt)\s*(?:约|平均|大概)?\s*{AMOUNT}\s*(k)?\s*(?:个)?\s*(?:tokens?|toks?)?(?![A-Za-z0-9_/])"
    # "平均 input 2k output 300": the word before the figure, a request's side beside it
    rf"|\binputs?\s*(?:of|is|=|:|~|about|around)?\s*(?:~|about)?\s*{AMOUNT}\s*(k)?(?=\s*(?:tokens?\s*)?(?:[,，/+&]|and\b)?\s*(?:output|out\b|completion|输出))"
)
# a model's shape, as users give it: "64 layers, 8 KV heads", "80层 GQA 8", "hidden 8192, 64 heads"
_SHAPE = [
    (
        "layers",
        flags(
            rf"{INTEGER}\s*(?:transformer\s*)?(?:layers|层)(?!\s*(?:of|switch|交换))|\blayers?\s*[=:]\s*{INTEGER}|num_hidden_layers\s*[=:]?\s*{INTEGER}"
        ),
    ),
    (
        "kv_heads",
        flags(
            rf"{INTEGER}\s*(?:个\s*)?(?:kv|key[/-]?value)\s*(?:heads?|头)|\b(?:kv[_\s]heads|num_key_value_heads)\s*[=:]?\s*{INTEGER}|\bgqa\s*[=:-]?\s*{INTEGER}\b"
        ),
    ),
    (
        "attention_heads",
        flags(
            rf"{INTEGER}\s*(?:个\s*)?(?:attention\s*|注意力\s*|query\s*)?(?<!kv )(?<!kv)(?:heads|头)(?<!kv heads)|\b(?:num_attention_heads|n_heads)\s*[=:]?\s*{INTEGER}"
        ),
    ),
    (
        "hidden_size",
        flags(
            rf"(?<!head )(?<!head_)\b(?:hidden(?:\s*(?:size|dim))?|d_model|dim)\s*(?:of|=|:|is)?\s*{INTEGER}|隐藏层?(?:维度|大小)\s*(?:为|是)?\s*{INTEGER}"
        ),
    ),
]
_KV_PRECISION = flags(
    r"kv\s*(?:cache|缓存)?\s*(?:也|都|also|too)?\s*(?:in|用|使用|采用|存成|存为|改成|改为|换成|变成|改用|改回|改|换回|换|切到|调成|回到|还是|仍然|仍是|是|量化(?:成|为|到)?|=|:|at|as|to|switched to|goes to)?\s*(fp8|int8|fp16|bf16)"
    # "quantize the kv cache to fp8", "把KV cache量化到FP8"
    r"|kv\s*(?:cache|缓存)?\s*(?:to|into|down to|成|到|为)\s*(fp8|int8|fp16|bf16)"
    r"|(fp8|int8|fp16|bf16)\s*(?:的\s*)?kv"
    # "weights and KV are both FP8", "权重和KV都用FP8": the cache as well as the weights
    r"|(?:weights?|权重)\s*(?:and|&|\+|和|跟|与)\s*(?:the\s*)?kv(?:\s*cache|缓存)?\s*(?:are|is|都|也)?\s*(?:both|all)?\s*"
    r"(?:in|用|是|为|改成|换成)?\s*(fp8|int8)"
    # "go FP8 for both weights and KV cache", "FP8 for the weights and the KV": the precision named first
    r"|(fp8|int8)\s*(?:for|on)\s*(?:both\s*)?(?:the\s*)?(?:weights?|model)\s*(?:and|&|\+)\s*(?:the\s*)?kv"
)
_QUANTISED = [
    # "a q4 70b", "Q4_K_M", "int4": llama.cpp's 4-bit quantisations too
    (flags(r"\b4[- ]?bit\b|4\s*比特|4\s*位量化|\bawq\b|\bgptq\b|\bq4(?:_[a-z0-9_]+)?\b"), "int4"),
    (flags(r"\b8[- ]?bit\b|8\s*比特|8\s*位量化"), "int8"),
]
_OPTIMIZERS = [
    (flags(r"8[- ]?bit\s*adam|adam\s*8[- ]?bit|adam-8bit"), "adam-8bit"),
    (flags(r"\badamw\b"), "adamw"),
    (flags(r"\badam\b"), "adam"),
    (flags(r"\bsgd\b.*momentum|momentum\s*sgd|动量"), "sgd-momentum"),
    (flags(r"\bsgd\b"), "sgd"),
    (flags(r"\badafactor\b"), "adafactor"),
]
# several stages named together: "zero1 2 3", "ZeRO-1/2/3", "zero2 vs zero3", "ZeRO stage 2和3"
_ZERO_STAGE_NUMBER = r"[0-3](?![\d.]|\s*(?:卡|张|台|块|个|nodes?|gpus?|x\b|b\b|bit))"
_ZERO_STAGES = flags(
    rf"zero[\s_-]*(?:stage[\s_-]*)?({_ZERO_STAGE_NUMBER}(?:\s*(?:/|,|，|、|和|与|跟|and|or|vs\.?|还是|\s)\s*"
    rf"(?:zero[\s_-]*)?(?:stage[\s_-]*)?{_ZERO_STAGE_NUMBER})+)"
)
_ZERO = flags(r"zero\s*[- ]?\s*(?:stage\s*)?([0-3])\b|\bzero\s*stage\s*([0-3])|(fsdp)")
_TP = flags(
    rf"(?:\btp|tensor[- ]parallel(?:ism)?|张量并行)\s*(?:=|:|of|degree|度|为)?\s*{INTEGER}"
    # "两卡tensor并行", "2卡张量并行", "4-way tensor parallel": the cards one model is split over
    rf"|(?<![\d.])(\d|[两二三四八])\s*(?:卡|张卡|张|-way|way)\s*(?:做)?\s*(?:tensor\s*并行|tensor[- ]parallel|张量并行|\btp\b)"
)
# one whole copy of the model per card: "each gpu holds its own copy of the weights", "no tensor parallel",
# "每张卡各放一份权重", "单卡一个副本", "不做张量并行"
_OWN_COPY = flags(
    r"\b(?:each|every|per)\s+(?:gpu|card)\b[^.?;]{0,30}\b(?:own|full|whole|complete)\s+(?:copy|replica)"
    r"|\bone\s+(?:full\s+)?(?:copy|replica)\s+(?:of the (?:model|weights)\s+)?per\s+(?:gpu|card)\b"
    r"|\b(?:no|without)\s+(?:tensor[- ]parallel(?:ism)?|tp)\b|\breplicas? of (?:one|a single|1) (?:gpu|card)\b"
    r"|(?:每张?卡|单卡)\s*(?:各)?\s*(?:放|存|有|装|一)\s*(?:一)?\s*(?:份|个)\s*(?:完整)?\s*(?:权重|模型|副本)|不(?:做|用|开)\s*(?:张量并行|tp)"
)
# an MFU said of a card: "~50% mfu on tpu", "~40% on h100" (with MFU named in the message), "H100 跑到 40% MFU"
_MFU_ON_CARD = flags(
    rf"~?\s*{DECIMAL}\s*%\s*(?:mfu\s*)?(?:on|for|with|w/|在)\s*(?:the\s*|our\s*)?([a-z][\w.-]*)"
)
_CARD_AT_MFU = flags(
    rf"([a-z][\w.-]*)\s*(?:at|@|~|:|is|gets?|hits?|does|跑到|跑|约|能到)?\s*~?\s*{DECIMAL}\s*%\s*mfu"
)
# a retention schedule: "every 2h kept for the last 48h", "one daily ckpt kept for 30 days", "每天一个保留30天"
_KEPT_WINDOW = flags(
    rf"(?:kept|keep|retain(?:ed)?|保留|留)\s*(?:for\s*)?(?:the\s*)?(?:last|past|最近)?\s*{NUMBER}\s*(h|hrs?|hours?|days?|d|小时|天)(?![a-z])"
)
_DAILY_FOR = flags(
    rf"(?:\bdaily|\bone (?:a|per|each) day|\bper day|\bevery day|\bonce a day|每天(?:一个|一次|存一个|留一个)?)"
    rf"[^.;。；]{{0,40}}?(?:kept|keep|retain\w*|保留|留)\s*(?:for\s*)?(?:the\s*)?(?:last\s*)?{NUMBER}\s*(days?|d|天)(?![a-z])"
)


def _retention(text: str, interval_hours: float | None) -> int | None:
    """Checkpoints a schedule keeps: a rolling window over the interval, plus one a day kept for some days."""
    daily = _DAILY_FOR.search(text)
    if not daily:
        return None  # a window alone stays a window (retention_days): a later interval recounts it
    kept = int(to_number(daily.group(1)))
    window = next(
        (m for m in _KEPT_WINDOW.finditer(text) if not daily.start() <= m.start() < daily.end()),
        None,
    )
    if window and interval_hours:
        hours = to_number(window.group(1)) * (24 if window.group(2).lower().startswith(("d", "天")) else 1)
        kept += max(1, round(hours / interval_hours))
    return kept or None


_HOURS_A_DAY = flags(
    rf"{NUMBER}\s*(?:h|hrs?|hours?)\s*(?:a|per|/|each|every)\s*day\b"
    rf"|(?:每天|一天|每日)\s*(?:跑|开|用|运行|开机|工作)?\s*{NUMBER}\s*(?:个)?\s*(?:小时|h)"
)
_DEEPSEEK_V3 = flags(r"\bdeepseek\b[^.?;。？]{0,24}?\bv3\b")
# copying something somewhere, and the link it goes over: "push a 1TB shard over 2x200G", "传到 S3 出口带宽 25Gbps"
_TRANSFER_CUE = flags(
    r"\b(?:push|copy|copying|upload|transfer|move|send|sync|ship|offload)\w*\b|传(?!感|统|说|闻)|拷贝|拷到|同步到|搬到|迁移"
)
_LINK_RATE = flags(
    r"(?<![\d.])(?:(\d{1,2})\s*[x×]\s*)?(\d+(?:\.\d+)?)\s*(g|m)(?:b(?:it)?(?:/s|ps)?|be)?(?![a-z0-9])"
)
# the words that name a link before its rate: "我们出口10G", "uplink is 25G", "egress 10Gbps"
_LINK_WORD = flags(
    r"(?:出口|上行|带宽|专线|链路|网络|网卡|\begress|\buplink|\blink|\bbandwidth|\bnic|\bpipe)\W{0,3}(?:是|为|只有|有|is|of|=|:)?\s*$"
)


def _link_rate(text: str, checkpoint_tb: float) -> re.Match[str] | None:
    """The link a copy goes over: the rate a link word names ("我们出口10G"), else the first rate that is not the
    checkpoint's own size ("一个 900GB … 出口10G" is a 900 GB file over 10 Gbit/s)."""
    rates = list(_LINK_RATE.finditer(text))
    named = [m for m in rates if _LINK_WORD.search(text[max(0, m.start() - 12) : m.start()])]
    if named:
        return named[0]
    size_gb = checkpoint_tb * 1000
    return next((m for m in rates if abs(float(m.group(2)) - size_gb) > 1e-6 or m.group(1)), None)


_LONG_CONTEXT = flags(
    r"长上下文|长文本|长序列|超长上下文|\blong[- ](?:contexts?|prompts?|documents?|sequences?)\b"
)
_PP = flags(rf"(?:\bpp|pipeline[- ]parallel(?:ism)?|流水线并行)\s*(?:=|:|of|degree|度|为)?\s*{INTEGER}")
# a turn from what works to what is asked: "fine at 8k, but at 128k…", "4k没问题 但是开到32k就…"
_CONTRAST = flags(r"\b(?:but|however|yet|whereas|while)\b|但是?|可是|然而|不过|一旦")
_SEQ = flags(
    # "seq 2048", "ctx 8k", "max_len 4096", "cutoff_len 2048" (LLaMA-Factory), "序列长度"
    r"(?:seq(?:uence)?(?:[\s_-]*len(?:gth)?)?|context(?:\s*length|\s*window)?|ctx|max[\s_-]*(?:seq[\s_-]*|model[\s_-]*)?len(?:gth)?|cutoff[\s_-]*len"
    r"|上下文(?:长度)?|序列(?:长度)?)"
    # "goes from 4k to 32k", "从4k拉到32k": the length it becomes
    r"\s*\(?\s*(?:(?:of|=|:|to|is|goes|go|grows|increases|becomes|up|at|about|around|~|≈|为|是|到|要|约|大概|按|改成|改为|换成|设为|设成|变成|加到|提高到|拉到|开到"
    # ("context 想开到 64k": the length wanted)
    r"|想要|想|希望|打算|需要|from\s*\d[\d.,]*\s*k?\s*(?:tokens?\s*)?(?:to|→|->)|(?:从|由)\s*\d[\d.,]*\s*k?\s*(?:到|改成|变成|加到|拉到|提高到|→))\s*){0,3}"
    rf"{DECIMAL}\s*(k)?\b|{DECIMAL}\s*(k)[\s-]*(?:context|seq|tokens? context|上下文|序列)"
    # "4096 seq len", "8192 context length", "4k ctx"
    rf"|{DECIMAL}\s*(k)?\s*(?:tokens?\s*)?(?:seq(?:uence)?[\s_-]*len(?:gth)?|context\s*(?:length|window)|ctx)\b"
    # one request's length: "KV cache for one 32k request", "a 128k-token prompt", "32k的请求", "长度32k"
    rf"|\b(?:a|one|single|each|per|every)\s+{DECIMAL}\s*(k)?\s*-?\s*(?:tokens?\s*)?(?:request|prompt|sequence|input|conversation|document)\b"
    rf"|{DECIMAL}\s*(k)\s*-?\s*tokens?\s*(?:requests?|prompts?|sequences?|inputs?)\b"
    rf"|{DECIMAL}\s*(k)\s*(?:tokens?)?\s*(?:的话)?\s*(?:的)?\s*(?:一条|每条|单条|一个)?\s*(?:请求|输入|长度|长文本|序列|长上下文)|(?:长度|输入长度)\s*(?:为|是)?\s*{DECIMAL}\s*(k)?"
    # "每路 32k 呢", "每个请求 8k": each stream's length
    rf"|(?:每路|每个请求|每条请求|每个用户|每条)\s*(?:要|是|为)?\s*{DECIMAL}\s*(k)"
    # "requests are up to 8k tokens", "300 requests of 6k tokens", "prompts around 2,000 tokens"
    rf"|\b(?:requests?|prompts?|inputs?|conversations?|chats?|sequences?|seqs?)\s*(?:are|is|of|at|with|reach|go)?\s*"
    rf"(?:up to|about|around|~|≈|max(?:imum)?|at most)?\s*{DECIMAL}\s*(k)?\s*-?\s*tokens?\b"
    # "16 sequences at 32k", "8 requests of 128k"
    rf"|\b(?:sequences?|seqs?|requests?|prompts?|streams?)\s*(?:at|of|with)\s*{DECIMAL}\s*(k)\b"
    # a global batch written as samples x length: "全局 batch 2048 条 × 4096 长度", "2048 seqs x 4096"
    rf"|(?:条|个样本|samples?|sequences?|seqs?)\s*[x×*]\s*{DECIMAL}\s*(k)?(?:\s*(?:长度|长|tokens?|token))?"
    # "sessions averaging 6k tokens of context", "a 6k-token context"
    rf"|{DECIMAL}\s*(k)?\s*-?\s*tokens?\s*(?:of\s+)?context\b"
)
_MICRO_BATCH = flags(
    rf"micro[\s_-]*batch(?:\s*size)?\s*(?:of|=|:|为)?\s*{INTEGER}|微批(?:次)?(?:大小)?\s*(?:为|=)?\s*{INTEGER}"
    rf"|\b(?:mbs|micro[\s_-]*bs)\s*(?:of|=|:|为)?\s*{INTEGER}"
)
# activation recomputation switched off or on: "no activation checkpointing", "不开重计算", "开启gradient checkpointing"
_NO_RECOMPUTE = flags(
    r"(?:\bno|\bwithout|\bdisabl\w*|\bturn\w* off|\bnot using|\bw/o|不开|不用|关闭|关掉|没开|不做)\s*(?:the\s*)?"
    r"(?:activation|gradient|grad)?\s*(?:checkpointing|recomput\w*|重计算)"
    r"|(?:activation|gradient)\s*checkpointing\s*(?:off|disabled)|重计算\s*(?:关闭|不开)"
)
_FULL_RECOMPUTE = flags(
    r"(?:\bwith|\busing|\benabl\w*|\bturn\w* on|开启了?|打开了?|开了?|用了?)\s*(?:full\s*)?(?:activation|gradient|grad)\s*checkpointing"
    # "activation checkpointing is on", "gradient checkpointing 开着", "开了激活检查点"
    r"|(?:activation|gradient|grad)\s*checkpointing\s*(?:is\s*|was\s*)?(?:on|enabled|开着|开了|打开)"
    r"|(?:开启了?|打开了?|开了?|用了?)\s*激活(?:值)?检查点"
    r"|\bfull (?:activation )?recomput\w*|(?:开启|打开|开了?|用)\s*(?:完整|全量)?\s*重计算|完整重计算|全量重计算"
)
_CONCURRENT = flags(
    rf"{INTEGER}\s*(?:concurrent|parallel|simultaneous)\s*(?:requests?|users?|sequences?|sessions?)"
    rf"|{INTEGER}\s*(?:路|个)?\s*并发|并发\s*(?:数|量)?\s*(?:为|是|=|:|要|需要|达到|约|大概|有)?\s*{INTEGER}(?!\s*(?:[kK](?![A-Za-z])|万))"
    rf"|{INTEGER}\s*(?:concurrent|simultaneous)\b"
    rf"|(?:for|serve|serving|support|supporting|handle|handling)\s+{INTEGER}\s*(?:active\s*)?(?:users|people|requests)\b"
    rf"|{INTEGER}\s*(?:个)?\s*(?:用户|人)\s*同时|同时\s*(?:在线\s*)?{INTEGER}\s*(?:个)?\s*(?:用户|人|请求)"
    # "what if I drop to 16 users", "并发降到16": the number at once, changed
    rf"|(?:drop|go|cut|down|up|increase|reduce|raise|grow|scale)\w*\s+(?:down\s+|up\s+)?to\s+{INTEGER}\s*(?:concurrent\s*)?(?:users|people|requests|sequences|streams)\b"
    rf"|并发\s*(?:数)?\s*(?:降到|降为|减到|提到|加到|涨到|改成|变成|换成)\s*{INTEGER}"
    # "内部用 20个人", "20个人用": at most that many at once
    rf"|(?:内部|团队|公司|部门)\s*(?:用|使用)\s*(?:的)?\s*{INTEGER}\s*(?:个)?\s*(?:人|用户)|{INTEGER}\s*(?:个)?\s*(?:人|用户|同事)\s*(?:在)?(?:用|使用)"
    # "concurrency needs to be 64", "concurrency of 64"
    rf"|\bconcurrency\s*(?:of|=|:|is|needs to be|must be|has to be|target(?: of)?|at|around|about)?\s*(?:~|about\s*)?{INTEGER}\b"
    # "128k context but only 4 seqs", "with just 8 requests at once": sequences in flight
    rf"|\b(?:only|just|with)\s+{INTEGER}\s*(?:concurrent\s*)?(?:seqs?|sequences?|requests?|streams?)\b"
    # "24 users at once", "16 requests at the same time": that many at once
    rf"|{INTEGER}\s*(?:active\s*)?(?:users|people|requests|sequences|streams|sessions)\s*(?:at once|at the same time|simultaneously|in parallel|concurrently)\b"
    # "batch of 4 sequences", "a batch of 8 requests", "batch 4 条序列": sequences decoded together
    rf"|\bbatch(?:[\s_-]*size)?\s*(?:of|=|:)?\s*{INTEGER}\s*(?:concurrent\s*)?(?:seqs?|sequences?|requests?|prompts?|streams?|条|个请求)"
    # "16 sequences at 32k": that many at once, each that long
    rf"|{INTEGER}\s*(?:seqs?|sequences?|requests?|streams?)\s*(?:at|of|with|x|×)\s*\d"
    # "maybe 10-20 users", "10到20个人用": the upper end, which the cards must carry
    rf"|\d+\s*(?:-|–|~|to|至|到)\s*{INTEGER}\s*(?:concurrent\s*|active\s*)?(?:users|people|ppl|requests)\b"
    rf"|\d+\s*(?:-|–|~|至|到)\s*{INTEGER}\s*(?:个)?\s*(?:人|用户|并发)"
)
# a bare "batch 4", "bs=8", "bs 16": sequences per GPU step when small, the global batch when large
_BARE_BATCH = flags(rf"\b(?:batch|bs)\s*(?:=|:)?\s*{INTEGER}(?!\s*(?:k|m|万|x|×|\*|tokens?))")
_GLOBAL_BATCH = flags(
    rf"(?:global[\s_-]*)?batch(?:[\s_-]*size)\s*(?:of|=|:|为|是)?\s*{AMOUNT}|global[\s_-]*batch\s*(?:of|=|:|为|是"
    # "global batch翻倍到2048", "global batch doubles to 2048"
    rf"|翻倍到|加倍到|变成|变为|改成|提到|加到|增加到|(?:doubles?|goes?|grows?|increases?|rises?) to)?\s*{AMOUNT}"
    rf"|全局\s*batch\s*(?:size)?\s*(?:为|=|是)?\s*{AMOUNT}"
)
_MFU_GAP = (
    r"(?:\s*(?:on|in|for|with|at|is|was|are|of|about|around|roughly|typically|usually|measured|only|just"
    r"|conservatively|conservative|assume|assumed|say|~|≈|大概|大约|约|一般|基本|能到|在|上|下|的|我们|实测|是|为"
    r"|保守|保守点|保守地|乐观|按|取|算|假设|估计|预估|估算|估|能做到|做到|能达到|达到|能跑到|跑到|能上|提高到|提升到|提到|到|如果|要是"
    # "MFU is more like 20%", "realistic MFU is closer to 35", "MFU不知道 按35%吧"
    r"|more like|like|closer to|nearer|realistically|actually|really|probably|maybe|不知道|不清楚|没测过|吧|就|先|那就"
    # "昇腾上实际 MFU 也就 30% 左右"
    r"|也就|也|只有|只|仅|才|顶多|最多|实际上|实际|其实"
    # "MFU on H100 at this size is 38%": the card's name is masked, the model's scale named
    r"|this|that|our|size|scale|model|sizes?)\s*){0,6}"
)
_MFU = flags(
    # "MFU on A100 is ~45%", "MFU大概45%": a few words (no other figure) between MFU and its share
    rf"mfu{_MFU_GAP}{DECIMAL}\s*%|mfu{_MFU_GAP}(0\.\d+)(?![\d.%])"
    rf"|mfu\s*(?:(?:is|was|drops|falls|goes|gets|only|just|of|=|:|to|at|~|≈|about|around|roughly|为|是|按|约|只有|只|仅|才|降到|掉到|提高到|提升到|提到|升到|到|改成|改为|换成|设为|设成)\s*){{0,3}}{DECIMAL}\s*%"
    rf"|{DECIMAL}\s*%\s*(?:的\s*)?mfu"
    # a share written as a fraction or a bare figure beside MFU: "0.45 MFU", "MFU of 0.35", "MFU按45算"
    rf"|(?<![\d.])(0\.\d+)\s*(?:的\s*)?mfu|mfu\s*(?:(?:is|was|of|=|:|at|为|是|按|约|取|能优化到|优化到|能提到|提到|提高到|提升到|能到)\s*){{1,2}}(0\.\d+|\d{{2}})(?![\d.%])"
)
# a method ruled out: "full fine-tuning (not LoRA)", "不用QLoRA", "非LoRA", "rather than LoRA"; its words are
# blanked before the method and the task are read
_NEGATED_METHOD = flags(
    r"(?:\b(?:not|no|never|without|rather than|instead of|not using|not doing"
    # (the apostrophe typed, curly or left out: "dont want to do lora for this one")
    r"|(?:don['’]?t|do not|won['’]?t|will not|rather not|prefer not to|['’]d rather not|would rather not)\s+(?:want\s+(?:to\s+)?)?"
    r"(?:use|do|go with|run|try)?)\s+(?:an?\s+|the\s+)?"
    r"|(?:不想用|不用|不要|别用|不是|而不是|不做|不走|非)\s*)"
    r"(?:q?lora|peft|adapters?|full[\s-]*(?:param(?:eter)?s?\s*)?(?:fine[\s-]*tun\w*|ft\b|sft\b)|全参(?:数)?(?:微调)?|全量微调)"
)


def unnegated(text: str) -> str:
    """The text with each ruled-out fine-tuning method blanked (same length, so offsets still hold)."""
    return _NEGATED_METHOD.sub(lambda m: " " * len(m.group(0)), text)


_FINETUNE = [(flags(r"\bqlora\b"), "qlora"), (flags(r"\blora\b"), "lora"),
             (flags(r"full[\s-]*(?:param(?:eter)?s?\s*)?(?:fine[\s-]*tun|ft\b|sft\b)|全参(?:数)?(?!\s*(?:预训练|从头))(?:微调)?|全量微调|\bsft\b(?!\s*(?:data|dataset|samples|examples|pairs|数据|语料|样本))|\bsome\s+full\b|(?<!\d\s)(?<!\d)\bfull\s+ones?\b"
                      # "LoRA vs full?", "lora or full": the other method named by its one word
                      r"|(?<=vs )full\b|(?<=vs\. )full\b|(?<=or )full\b|(?<=and )full\b(?!\s+(?:node|server|rack|cluster|precision))"), "full")]  # fmt: skip
# two methods the same hardware must carry ("做7B到14B的sft和lora", "mostly LoRA, some full"): the heaviest decides
_BOTH = flags(r"^[^.;。；?？]{0,30}$")
_BOTH_JOIN = flags(r"\band\b|\bplus\b|\balso\b|\bsome\b|\bas well\b|和|与|跟|以及|、|/|,|，")
# methods weighed against each other, not one replacing the other ("QLoRA instead of full")
_EITHER = flags(
    r"\bor\b|\bvs\.?|\bversus\b|compar|还是|或者|或是|对比|比较|哪个|which"
    # "lora和全参显存到底差多少", "difference between LoRA and full fine-tuning": each method, side by side
    r"|差多少|差几倍|差别|区别|相差|\bdifferen\w*|\bhow much (?:more|less)\b"
    # "lora和全参显存各要多少", "memory for each", "respectively": each method's own figure
    r"|各(?:要|需要|自|是|占)?|分别|\beach\b|\brespectively\b"
    # "LoRA要多少显存？QLoRA呢", "and what about qlora?": the second method asked after the first
    r"|呢|\bwhat about\b|\bhow about\b"
)
# adapters served on one base model: "serve 20 LoRA adapters", "挂10个LoRA", "加载 8 个 LoRA 适配器"
_ADAPTERS = flags(
    rf"{NUMBER}\s*(?:个|different\s*|customer\s*)?(?:q?lora)\s*(?:adapters?|适配器|模型|权重)?"
    rf"|{NUMBER}\s*(?:个)?\s*(?:adapters?|适配器)"
    # "~40 个客户各自的 LoRA adapter", "40 customer-specific LoRA adapters": one adapter per customer, counted
    rf"|{NUMBER}\s*(?:个)?\s*(?:客户|用户|租户|customers?|tenants?)[^\d。？?]{{0,10}}?q?lora\s*(?:adapters?|适配器|s\b)"
)
# serving them, not training them
_SERVES_ADAPTERS = flags(
    r"\bserv(?:e|es|ing)\b|\binference\b|\bhost(?:ing)?\b|推理|部署|上线|挂|加载|multi[- ]lora"
)
_TRAINS = flags(r"fine[\s-]*tun|\btrain(?:ing)?\b|微调|训练")
# "fits on a 40GB A100", "run it on an H100": one card (not "on an H100 cluster")
_FITS_ON_A = flags(
    r"\b(?:fits?|fit it|run it|runs?|load it)\s+(?:on|onto|in|into)\s+an?\s+(?:\d{2,3}\s*gb\s+)?$"
)
_A_MACHINE_AFTER = flags(r"\s*(?:cluster|node|server|box|machine|pod|rack|instance|system)s?\b")
_ONE_CARD = flags(r"(?:单张|单卡|一张|一块|单块|\ba single|\bone|\bjust one|\bonly one|\b1)\s*(?:张|块)?\s*$")

# --- money and time -------------------------------------------------------------------------------
_DEADLINE = flags(
    rf"(?:in|within|under|less than|by)\s*(?:about\s*)?{NUMBER}\s*(days?|weeks?|months?|hours?|hrs?)\b"
    rf"|{NUMBER}\s*(?:个)?\s*(天|日|周|星期|月|小时)\s*(?:内|以内|之内|完成|训完|训练完|搞定|跑完|做完|结束|出结果|交付|搞完|出模型)"
    rf"|(?:deadline\s*(?:of|is|:)?\s*){NUMBER}\s*(days?|weeks?|months?|hours?)"
    rf"|(?:用|租用|租|跑|运行|训练|训|for)\s*(?:了)?\s*{NUMBER}\s*(?:个)?\s*(天|周|星期|月|days?|weeks?|months?)"
    # "what if we only have 6 weeks", "只给我们30天", "只有两个月"
    rf"|(?:\bhave|\bhas|\bgot|\bgiven|给(?:我们|我)?|只有)\s*(?:only\s*|just\s*)?{NUMBER}\s*(?:个)?\s*(days?|weeks?|months?|天|周|星期|月)(?![A-Za-z0-9])(?!\s+(?:of|ago|old)\b)"
    # "and 45 days instead of 30", "改成45天呢": the new time the run has
    rf"|{NUMBER}\s*(days?|weeks?|months?)\s*instead\b|(?:改成|换成|放宽到|延长到|缩短到|压到|压缩到|缩到|控制在)\s*{NUMBER}\s*(?:个)?\s*(天|周|月)"
    # "done overnight (10 hours)", "finished in a 12h window"
    rf"|(?:overnight|done|finish\w*|complete\w*|wrapped up)[^.;。?？\d]{{0,16}}?\(?\s*{NUMBER}\s*(hours?|hrs?|h)\b"
    # "what if the deadline slips to 45 days", "deadline gets pushed back to 8 weeks", "same 45 days?"
    rf"|(?:deadline|timeline|time\s*frame|window)\b[^.;?\d]{{0,24}}?\b(?:to|of|is|=|:|at)\s*{NUMBER}\s*(days?|weeks?|months?)\b"
    rf"|(?:\bsame|\bslips?|\bslipped|\bpushed(?:\s*back|\s*out)?|\bextended|\bstretched|\brelaxed|\bmoved?(?:\s*out)?)\s*(?:to\s*)?{NUMBER}\s*(days?|weeks?|months?)\b"
    # "工期放宽到45天", "截止时间推迟到两个月", "期限延长到6周"
    rf"|(?:延期|推迟|延后|延到|推到|放到|拖到)\s*(?:到)?\s*{NUMBER}\s*(?:个)?\s*(天|周|星期|月)"
    # "要跑 4 台 两周", "rent 4 nodes for 2 weeks": the machines, then how long they run
    # "租 64 张 H800 30 天": the cards, their name, then how long
    rf"|(?:跑|租|用|\brun|\brent|\bkeep)\s*(?:\d+|[一二两三四五六七八九十]+)\s*(?:台|个?节点|个?实例|nodes?|instances?|servers?|boxes|machines|张|块)"
    rf"(?:\s*[A-Za-z][\w.-]*)?(?:\s*卡)?\s*[,，]?\s*(?:for\s*)?{NUMBER}\s*(?:个)?\s*(天|周|星期|月|days?|weeks?|months?)(?![A-Za-z])"
)
# "70b, 1.4T tokens, 60 days": with a model and its data given, a bare duration is the time the run has
_BARE_DURATION = flags(rf"(?<![\w.]){NUMBER}\s*(?:个)?\s*(days?|weeks?|months?|天|周|星期|月)(?![\w])")
# ... unless it is how long something is kept, how often, or a period of use
_NOT_A_DEADLINE = flags(
    r"(?:keep|kept|retain\w*|store\w*|every|each|per|last|保留|保存|存|每|留)\s*(?:for\s*)?$"
)
_KEPT_FOR = flags(r"(?:keep|kept|retain\w*|stored?|held|保留|保存)\b[^.;?。？]{0,30}?\bfor\s*\S+\s*\S+$")
# a monthly rent per card: "每卡每月6000", "每张卡一个月 5000 元", "$1,500 per GPU per month", "$1.5k/gpu/month"
_PER_CARD_MONTH = flags(
    rf"(?:每卡|每张卡?|单卡|一卡|一张卡?)\s*(?:每|一)\s*(?:个)?月\s*(?:租金|费用|价格)?\s*(?:是|为|按|要)?\s*[¥￥]?\s*{AMOUNT}\s*(w|万)?\s*(?:元|块)?(?!\s*(?:%|度|kw|小时|h\b))"
    rf"|[$¥]\s*{AMOUNT}\s*(?:/|per|a|每)\s*(?:gpu|card|卡)\s*(?:/|per|a|每)\s*(?:month|mo\b|月)"
)
# a bare price per GPU-hour said of the cloud: "what if cloud drops to 1.80", "云上降到12呢"
_BARE_CLOUD_PRICE = flags(
    rf"(?:\bcloud|\brent(?:al)?|on[- ]demand|\breserved|云上?|租用?|租金)\s*(?:price|rate|cost|价格?|单价)?\s*"
    rf"(?:(?:drops?|falls?|goes|went|is|were|was|at|to|=|of|down|降到|降至|降为|变成|改成|按|为|是|只要|要)\s*){{1,3}}"
    rf"({DECIMAL})(?![\d.]|\s*(?:%|x\b|kw|years?|yrs?|年|个月|months?|万|k\b|m\b))"
)
_BARE_POWER_PRICE = flags(
    rf"(?:电价|电费单价|每度电)\s*(?:(?:降到|降至|降为|涨到|涨至|变成|改成|改为|换成|调到|调成|按|为|是|只有|到)\s*)?{DECIMAL}(?!\s*(?:%|kw|度))"
    # "电费0.6", "电费按0.55": a bare figure below 2 beside the bill is its price per kWh
    rf"|电费\s*(?:按|为|是|约|大概)?\s*((?:0|1)\.\d+)(?![\d.]|\s*(?:%|kw|度|万|亿|千))"
    # "电费0.65一度", "0.6每度": a bare figure per kWh in a Chinese message
    rf"|(?<![\d.]){DECIMAL}\s*(?:/|每|一)\s*(?:度|千瓦时)"
)
# a price per kWh with no currency: "at 0.09/kWh" (dollars in an English message, yuan in a Chinese one)
# the driver one has: "driver 535", "驱动是550", "535驱动", "R570", "nvidia-smi shows 550.54.15"
_DRIVER_VERSION = flags(
    r"(?:driver|驱动)\s*(?:(?:现在|目前|当前|装的|用的)\s*(?:用的|装的)?\s*)?(?:is|=|:|version|版本|是|还是|为|只有|on|at|only)?\s*(?:r|版本)?\s*(\d{3}(?:\.\d{1,3}){0,2})(?![\d.])"
    r"|(?<![\d.])r?(\d{3}(?:\.\d{1,3}){0,2})\s*(?:的)?\s*(?:driver|驱动)"
)
# the CUDA version wanted: "CUDA 12.8", "cuda12.4", "cu128"
_CUDA_VERSION = flags(
    r"\bcuda\s*(?:version\s*|版本\s*)?(1[0-3]\.\d)(?!\d)|\bcu(1[1-3])(\d)\b"
    # "cuda12的pytorch", "CUDA 12 builds": the family, at its first release
    r"|\bcuda\s*(?:version\s*|版本\s*)?(1[1-3])(?![\d.])"
)
# the version a CUDA named goes to, written bare after it: "from CUDA 12.4 to 12.8", "cuda 12.4 升 12.8", "12.4 -> 12.8"
_CUDA_TO = flags(
    r"\s*(?:,|，)?\s*(?:to|->|→|=>|then|升级?(?:到|至)?|换(?:到|成)|改(?:到|成)|切(?:到|换到)?|上)\s*(?:cuda\s*)?(1[0-3]\.\d)(?!\d)"
)
# racks in a data centre, running around the clock: "机房标准机架 7x24", "in our colo racks 24/7"
_DATACENTER_USE = flags(
    r"机房|机架|数据中心|idc|7\s*[x×*]\s*24|24\s*[x×*/]\s*7|全天候|生产环境|\bdata[- ]?cent(?:er|re)\b|\bracks?\b|\bcolo\b"
    r"|\bproduction\b|\bround the clock\b"
)
# the fleet grown to: "扩到16台", "scale out to 16 nodes", "grow to 32 servers"
_SCALE_TO_SERVERS = flags(
    rf"(?:扩到|扩展到|扩容到|加到|增加到|增至|扩充到|上到|\bscal(?:e|ing) (?:out |up )?to|\bgrow(?:ing)? to|\bexpand(?:ing)? to|"
    rf"\bgo(?:ing)? to)\s*{AMOUNT}\s*(?:台|个节点|节点|nodes?\b|servers?\b|boxes\b|machines\b)"
)
# a tariff that already pays for cooling: "$0.14/kWh all-in including cooling", "电价0.8含空调"
_TARIFF_WITH_COOLING = flags(
    r"^[^.;。；?？]{0,24}?(?:all[- ]in[^.;。；?？]{0,16}?(?:cooling|pue)|includ\w*\s+(?:the\s+)?(?:cooling|pue)"
    r"|incl\.?\s+(?:cooling|pue)|含\s*(?:空调|制冷|冷却|pue))"
)
# where a monthly rent is paid: a cloud's, with the hall, power and upkeep in it ("云上8卡包月6.5万")
_CLOUD_RENT = flags(r"云上|云厂商|上云|公有云|\bcloud\b")
# a count written in digits before a card in a build: "4x RTX ", "2 x ", "4张"
# "4x 4090", "8张4090", "eight RTX 5090s … one H100" (spelled counts are digits by then): a count of one card
_BUILD_COUNT = flags(
    r"(?<![\d.,$¥A-Za-z])(\d{1,3}(?:,\d{3})+|\d{1,5}|\bone|\ba single)\s*(?:x|×|\*|张|块|颗|片)?\s*"
    r"(?:(?:nvidia|geforce|rtx|amd|instinct|google|cloud|tpu)\s*)*$"
)
# machines of a size before a card: "2 nodes of 8x", "one node of 8 x", "4 servers with 8x", "两台8卡", "两台八卡机"
_MACHINES_OF_BEFORE = flags(
    r"(?<![\d.])(\d{1,3}|one|a|an|two|three|four|一|两|二|三|四)\s*(?:nodes?|servers?|boxes|box|machines?|台)\s*"
    r"(?:of|with|each with)?\s*(\d{1,2}|[二四八十]|十六)\s*(?:x|×|\*|卡|张)\s*(?:机|服务器|机器|的)?\s*"
    r"(?:(?:nvidia|amd|instinct)\s*)*$"
)
# a price for several machines at once: "$2.3M for 8 HGX H100 nodes", "8台一共1,760万"
_FOR_SERVERS = flags(
    r"\s*(?:for|buys?|gets?|covers?)\s+(?:the\s+|all\s+|a total of\s+)?(\d{1,3})\s*(?:x\s*)?"
    r"(?:[A-Za-z0-9-]+\s+){0,3}?(?:nodes|servers|boxes|machines|systems|units)\b"
)
# an amount the hardware is sold for at the end: "三年后能卖60万", "resell them for $900k", "二手回收 50万"
_RESALE_BEFORE = flags(
    r"(?:能|可以|还能)?\s*(?:卖|卖掉|卖出|转卖|回收|残值)\s*(?:个|到|出)?\s*(?:约|大概)?\s*$"
    r"|\b(?:re)?sell\w*\s+(?:(?:it|them|the\s+\w+|our\s+\w+|those|these)\s+)?(?:for|at)\s*(?:~|about|around)?\s*$"
    r"|\b(?:resale|residual|salvage)(?:\s*value)?\s*(?:of|is|=|:|at)?\s*(?:~|about|around)?\s*$"
)
# a price quoted for machines, not money to spend: "purchase quote $2.6M", "vendor quoted $1.9M", "报价"
# how many machines a message names: "4 HGX H100 nodes", "4x DGX boxes", "16 台 910B 服务器"
_MACHINES_NAMED = flags(
    r"\b(\d{1,3})\s*(?:x\s*)?(?:[A-Za-z0-9-]+\s+){0,3}?(?:nodes|servers|boxes|machines|systems)\b|(\d{1,3})\s*台"
)
# hosting the buyer pays for the machines they own: "自己托管", "self-hosted", "we'd colo it ourselves"
_SELF_HOSTED = flags(
    r"自己托管|自行托管|自建机房|自己的机房|\bself[- ]host(?:ed|ing)?\b|\b(?:colo|host) (?:it|them) ourselves\b"
)
# one machine named before its quote: "一台 8卡 H200 报 260 万", "a server quoted at"
_ONE_MACHINE = flags(r"一台|每台|单台|\b(?:a|one|each|per)\s+(?:server|node|box|machine)\b")
# hardware priced for a count of cards: "64 卡硬件 2000 万", "hardware for the 64 GPUs: $2.5M"
_CARDS_PRICED = flags(
    r"(\d{2,5})\s*(?:张|块)?\s*(?:卡|gpus?|cards?)\s*(?:的)?\s*(?:硬件|设备|整机|hardware)[^。.?？\d]{0,8}$"
    r"|\bhardware\s+(?:for|of)\s+(?:the\s+|all\s+)?(\d{2,5})\s*(?:gpus|cards)\b[^.?\d]{0,8}$"
)
_QUOTED_BEFORE = flags(
    r"(?:\b(?:quotes?d?|purchase price|priced at|costs?)\b|报价|(?<![汇预])报|采购价|买(?:的话|下来))[^.?!。？$¥\d]{0,12}$"
)
_SERVERS_FOR = flags(
    r"(\d{1,3})\s*台[^，,。；;]{0,12}?(?:一共|总共|共计?|总价|合计|打包价?|整体)\s*(?:报价|价格|是|为)?\s*$"
)
# a machine described by its cards: "8卡整机", "8卡机", "8-GPU server", "8x H100 box"
_PRICED_MACHINE = flags(
    r"\d+\s*(?:卡|张卡|张)\s*(?:整机|机器|服务器|机|节点)|\d+[\s-]*gpu\s*(?:servers?|boxe?s?|nodes?|machines?)"
    r"|\d+\s*x\s*[a-z0-9 ]{2,12}?\s*(?:servers?|boxe?s?|nodes?)"
)
# a rent that includes where the machine runs: "（含托管）", "incl. hosting and power", "all-in"
_LEASE_ALL_IN = flags(
    r"^[^。.;；$¥\d]{0,8}?(?:含|包含|包括|including|incl\.?|with)\s*(?:托管|机柜|电费|colo|hosting|power)|^\W{0,3}all[- ]in"
)
# a peak per GPU the user plans with: "910B按320T算", "H20按148T", "assume 320 TFLOPS peak", "峰值按300T"
_PEAK_GIVEN = flags(
    rf"(?:按|取|算作|当作|\bpeak\s*(?:of|=|:|is|at)?|峰值\s*(?:按|为|是|取)?|\bassum\w*)\s*(?:~|约)?\s*{DECIMAL}\s*"
    r"(?:t|tf|tflops?|tflop/s)(?![a-z])(?!\s*(?:token|tok|词|参数|数据))"
    rf"|(?<!跑到)(?<!达到)(?<!实测)(?<!实测 )(?<!跑出)(?<!能跑)(?<!getting )(?<!hit )(?<!measured )(?<!achieve )"
    rf"{DECIMAL}\s*(?:t|tf|tflops?|tflop/s)\s*(?:算(?![高低正快慢好不是多吗])|计|峰值|\bpeak\b|\bdense\b)"
    rf"|(?:tflops|算力)\s*(?:按|取|算|=|:)\s*{DECIMAL}(?![\d.]|\s*%)"
)
# a bare monthly colocation rent: "托管每柜每月8000", "机柜租金每月6000", "托管费每台每月3000"
_BARE_COLO = flags(
    r"(?:托管|机柜租金|柜租|机位)(?:费)?\s*(每(?:个)?(?:机)?柜|每台|单柜)?\s*(?:每月|一个月|月租|每个月)\s*(?:约|大概)?\s*"
    # ("1w" is 1万, as chats write it: "机柜托管一个月 1w")
    r"(\d[\d,]*(?:\.\d+)?)(?:\s*(w)(?![a-z]))?(?!\s*(?:[万亿千]|kw|台|卡|%|\.\d|美元|\$))"
    # "托管（含电）9000/台/月", "托管 9000 元/柜/月": the amount first, then what it is paid for and the month
    r"|(?:托管|机柜租金|柜租|机位)(?:费)?\s*(?:[（(][^）)]{0,10}[）)])?\s*(?:约|大概)?\s*(\d[\d,]*(?:\.\d+)?)(?:\s*(w)(?![a-z]))?"
    r"\s*(?:元|块)?\s*/\s*(台|柜|机柜)\s*/\s*(?:月|每月)"
)
_PER_KWH = flags(rf"{DECIMAL}\s*(?:/|per|a)\s*kwh\b")
_ROUND_THE_CLOCK = flags(
    r"\b24\s*/\s*7\b|24x7|全天候|7\s*[x×*]\s*24|全年无休|\bfull(?:y)?\s*utili[sz](?:ation|ed)\b"
    r"|\bfull[- ]tilt\b|\bflat[- ]out\b|\bat full load\b|\bfull(?:y)? loaded\b|满负荷|满载|满负载|满功率|跑满"
)
_UTIL = flags(
    rf"(?:utili[sz]ation|utilised|utilized|利用率|使用率)\s*(?:(?:估计|大概|预计|预估|实际上?|其实|平均|也就|顶多|最多|可能|realistically|probably|maybe|will be|would be)\s*)?(?:of|=|:|为|是|按|is|was|at|drops to|falls to|only|just|of only|is only|只有|仅|才|到|达到|提到|升到|降到|提高到|能到|(?:ends up|comes in|lands|turns out)(?: (?:being|to be))?)?\s*(?:only|just|about|around|~|约|只有|more like|closer to|like|nearer)?\s*{DECIMAL}\s*%|{DECIMAL}\s*%\s*(?:utili[sz]ation|利用率)"
    rf"|(?:use|used|using|run|running|busy)\s*(?:it|them)?\s*(?:~|about|around)?\s*{DECIMAL}\s*%|{DECIMAL}\s*%\s*of the time"
    rf"|{DECIMAL}\s*%\s*(?:busy|loaded|in use|util)\b"
    # "util is only 40%", "按平均60%负载", "load at 70%", "5 years at 85%"
    rf"|\butil\b\s*(?:is|of|at|=|:)?\s*(?:only|just|about|~)?\s*{DECIMAL}\s*%"
    rf"|{DECIMAL}\s*%\s*(?:的)?\s*(?:average\s*|avg\s*|mean\s*|平均)?(?:负载|负荷|load\b)|(?:负载|负荷|\bload)\s*(?:率)?\s*(?:(?:按|为|是|of|at|is|was|只有|仅有?|才|大概|约|降到|掉到|到|drops to|falls to)\s*)?(?:(?:only|just|about|around|~|约|大概)\s*)?{DECIMAL}\s*%"
    rf"|(?:years?|yrs?|年)\s*(?:at|按|,|，)\s*{DECIMAL}\s*%"
    # "只用60%的时间", "60%的时间在跑", "用到60%"
    rf"|(?:只|只有|仅|就)?\s*(?:用|跑|开|使用)(?:到|了)?\s*{DECIMAL}\s*%\s*(?:的)?\s*(?:时间|时长)?|{DECIMAL}\s*%\s*(?:的)?\s*时间"
    # the average draw as a share of the maximum: "they average 70% of max power", "10.5 kW 满载 平均 75%"
    rf"|{DECIMAL}\s*%\s*of\s*(?:the\s*|their\s*|its\s*)?(?:max(?:imum)?|peak|rated|nameplate|full|tdp)\b"
    # "average draw is ~75% of that": the average against the figure just given
    rf"|(?:average|avg|mean)\b[^.;,%\d]{{0,30}}?{DECIMAL}\s*%\s*of\s*(?:that|this|it|those)\b"
    rf"|(?:kw|满载|满功率|功率|功耗)[^。；;%]{{0,10}}?平均\s*(?:在|是|为|按|约|大概)?\s*{DECIMAL}\s*%"
)
# the share of the time the GPUs are used, in words: "只能用到一半时间", "we'd use it half the time", "利用率只有
# 一半", "a third of the time"
_SHARE_OF_TIME = flags(
    r"\b(?:use|used|using|run|running|busy|need(?:ed)?|utili[sz]ed?)\b[^.?!,;]{0,20}?"
    r"\b(half|a third|one third|a quarter|one quarter)\s+(?:of\s+)?the\s+time\b"
    r"|(?:用|跑|开|使用|忙)(?:到|了)?\s*(一半|三分之一|四分之一)\s*(?:的)?\s*(?:时间|时长)"
    r"|(一半|三分之一|四分之一)\s*(?:的)?\s*时间\s*(?:在|能|会)?\s*(?:用|跑|忙|开)"
    r"|(?:利用率|使用率)\s*(?:只有|仅|才|就|大概|约|也就)?\s*(一半|三分之一|四分之一)"
    r"|\b(?:utili[sz]ation|util)\s*(?:is|of|at|would be|will be)?\s*(?:only|just|about|around)?\s*(half)\b"
)
_SHARES = {"half": 0.5, "一半": 0.5, "a third": 1 / 3, "one third": 1 / 3, "三分之一": 1 / 3,
           "a quarter": 0.25, "one quarter": 0.25, "四分之一": 0.25}  # fmt: skip
# the months of the year the GPUs are used: "一年大概集中训三四个月", "train about 4 months a year"
_MONTHS_A_YEAR = flags(
    rf"(?:一年|每年)[^，,。？?；;]{{0,10}}?(?:训|用|跑|开|租)[^，,。？?；;\d{CN_DIGITS}]{{0,6}}{NUMBER}\s*个?\s*月"
    rf"|{NUMBER}\s*(?:-\s*\d+\s*)?months?\s*(?:a|per|each|out of the|of the|every)\s*year"
)
# several utilisations at once: "at 100% and 70% utilization", "利用率分别按60%、80%算"
_PCT_LIST = r"\d+(?:\.\d+)?\s*%(?:\s*(?:and|or|vs\.?|/|和|与|跟|或|、|,|，)\s*\d+(?:\.\d+)?\s*%){1,3}"
_UTIL_OPTIONS = flags(
    rf"(?:utili[sz]ation|\butil\b|利用率|使用率)[^。.;；\n%\d]{{0,14}}({_PCT_LIST})"
    rf"|({_PCT_LIST})\s*(?:的)?\s*(?:utili[sz]ation|\butil\b|利用率|使用率|负载|load\b)"
)
_YEARS = flags(
    rf"(?:over|for|across)\s*{NUMBER}\s*(?:years?|yrs?\b)|{NUMBER}\s*(?:年|years?|yrs?)\s*(?:的\s*)?(?:tco|总拥有成本|总成本|总花费|总开销|周期|内|horizon)"
    rf"|{NUMBER}-(?:years?|yrs?)\b(?!\s*old)|{NUMBER}\s*years?\s*(?:of\s*)?(?:total cost|lifetime|depreciation|life)"
    # "那3年呢", "按5年算", "and 5yr?", "what about 4 years?"
    rf"|{NUMBER}\s*(?:年|years?|yrs?)\s*(?:呢|的话|算|计|[?？]|$)|(?:按|算|用|跑|运行|使用|开)\s*{NUMBER}\s*年"
    rf"|(?:about|and|what about|how about)\s*{NUMBER}\s*(?:years?|yrs?)\b"
    # "for a year", "over one year", "跑一年", "用一年": one year
    rf"|(?:for|over|across)\s*(a|one|an entire|a full|the whole)\s*year\b|(?:跑|用|租|算|按)\s*(一)\s*年"
    rf"|(?:包|租|签)\s*{NUMBER}\s*年|{NUMBER}\s*年\s*(?:下来|哪个|谁)"
    # "两年 24/7 跑", "三年跑下来", "用两年": a period of use
    rf"|{NUMBER}\s*年\s*(?:24\s*/\s*7|7\s*[x×*]\s*24|全天|不停|满负荷)?\s*(?:跑|用|运行|使用)"
    # "depreciate 5 yrs", "amortize over 4 years", "折旧5年", "按5年摊销": the years the hardware is paid off over
    rf"|(?:depreciat\w*|amorti[sz]\w*|write[- ]off|折旧|摊销|分摊)\s*(?:it\s*|them\s*)?(?:over|across|for|in|按|期|年限|周期)?\s*(?:为|是)?\s*{NUMBER}\s*(?:年|years?|yrs?)"
    rf"|{NUMBER}\s*(?:年|-?years?|-?yrs?)\s*(?:的\s*)?(?:折旧|摊销|depreciation|amorti[sz]ation|straight[- ]line)"
    # "keep the hardware 5 years instead of 3", "run them for 4 years": the period of use
    rf"|{NUMBER}\s*(?:years?|yrs?)\s*instead\b"
    rf"|\b(?:keep|run|use|own|hold)(?:ing)?\s+(?:it|them|the\s+[\w-]+|our\s+[\w-]+)\s+(?:for\s+)?{NUMBER}\s*(?:years?|yrs?)\b"
    # the work's own length: "项目大概持续两年", "周期大约 18 个月" is months, "the program lasts about 2 years"
    rf"|(?:持续|周期|为期|工期)\s*(?:是|为)?\s*(?:大概|大约|约|差不多|预计)?\s*{NUMBER}\s*年"
    rf"|\b(?:lasts?|runs?|spans?)\s+(?:for\s+)?(?:about|around|roughly|maybe|~)?\s*{NUMBER}\s*(?:years?|yrs?)\b"
    # "give me the 3 year buy total", "the 5-yr cloud bill": the period of the figure asked
    rf"|{NUMBER}[\s-]*(?:years?|yrs?)\s+(?:buy(?:ing)?|cloud|leas(?:e|ing)|rent(?:al|ing)?|ownership|purchase|costs?|bills?|totals?|spend|numbers?|figures?)\b"
    # "…or rent at $3.50/gpu-hr. 4 years, 70% busy": the period, listed among the terms (not "had it 2 years,")
    rf"|(?<![\w.])(?<!it )(?<!them ){NUMBER}\s*(?:years?|yrs?)\s*[,;]"
)
_TPS = flags(
    rf"{AMOUNT}\s*(k)?\s*(?:output\s*|generated\s*|decode\s*)?(?:tokens?|toks?)\s*(?:/|per)\s*s(?:ec(?:ond)?)?\s*(?:/|per|a|each)\s*(?:gpu|card|device|accelerator)"
    rf"|每卡每秒\s*{AMOUNT}\s*(?:个)?\s*token"
    rf"|(?:单卡|每卡|每张卡|一张卡)[^。；;，,\n]{{0,12}}?{AMOUNT}\s*(?:个)?\s*(?:token|tok)s?\s*(?:/\s*s|每秒)"  # "单卡H20 900 token/s"
    # the figure after its unit: "每卡 tokens/s 是 420", "per-gpu tokens/sec = 3100", "tok/s per gpu: 2,900"
    rf"|(?:单卡|每卡|每张卡|per[\s-]*(?:gpu|card))\s*(?:的)?\s*(?:tokens?|toks?)\s*(?:/|per)\s*s(?:ec(?:ond)?)?\s*"
    rf"(?:是|为|有|大概|约|实测|测得|测出来|跑到|=|:|is|of|~|about|around|measured)+\s*{AMOUNT}(?!\s*(?:%|倍|x\b))"
    rf"|(?:tokens?|toks?)\s*(?:/|per)\s*s(?:ec(?:ond)?)?\s*(?:per|/|each)\s*(?:gpu|card)\s*(?:是|为|=|:|is|of|~|about|around)+\s*{AMOUNT}(?!\s*(?:%|倍|x\b))"
    # in ten thousands: "每卡每秒 1 万 token", "单卡 1.2w token/s"
    rf"|每卡每秒\s*(?:大概|大约|约|能)?\s*{AMOUNT}\s*(万|w)\s*(?:个)?\s*(?:token|tok)"
    rf"|(?:单卡|每卡|每张卡|一张卡)[^。；;，,\n]{{0,12}}?{AMOUNT}\s*(万|w)\s*(?:个)?\s*(?:token|tok)s?\s*(?:/\s*s|每秒)"
)

# --- quantities people already know ----------------------------------------------------------------
_GPU_HOURS = flags(
    rf"{AMOUNT}\s*(k|mn|m|million|万|亿)?\s*(?:个)?\s*(?:gpu[\s-]*(?:hours?|hrs?|h)\b|卡时|卡小时|gpu\s*小时|gpu\s*时)"
    # "2.788M H800 hours" (the card's name taken out): millions of hours are GPU-hours
    rf"|{AMOUNT}\s*(k|mn|m|million|万)\s+(?:hours?|hrs?)\b"
)
_FLOPS = flags(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:e\+?|[x×*]\s*10\^?)\s*(\d{1,3})\s*(?:flops?|flop|次浮点)")
# one GPU's share of the power, all in: "0.7 kW per GPU", "700 W/GPU", "每卡功耗按0.7kW算"
_GPU_KW = flags(
    rf"{DECIMAL}\s*(kw|w)\s*(?:per|each|/|a|an)\s*(?:gpu|card|accelerator)\b"
    rf"|每(?:张|块)?卡\s*(?:功耗|功率|耗电)?\s*(?:按|约|是|为|算)?\s*{DECIMAL}\s*(kw|w)(?![a-z])"
    rf"|(?:per[- ]gpu|each gpu)\s*(?:power|draw)?\s*(?:of|is|at|~|about|=)?\s*{DECIMAL}\s*(kw|w)\b"
    # "把GPU功耗限到700W", "power-cap the GPUs at 700 W": each GPU held to that draw
    rf"|(?:gpu|卡)\s*(?:的)?\s*(?:功耗|功率)\s*(?:限|压|降|锁|设)(?:制)?\s*(?:到|在|为)\s*{DECIMAL}\s*(kw|w)(?![a-z])"
    rf"|\bpower[- ]?(?:cap|limit)\w*\s+(?:the\s+)?(?:gpus?|cards?)\s*(?:at|to)\s*{DECIMAL}\s*(kw|w)\b"
    rf"|\b(?:cap|limit)\w*\s+(?:the\s+)?(?:gpus?|cards?)\s*(?:at|to)\s*{DECIMAL}\s*(kw|w)\b"
)
_SERVER_KW = flags(
    rf"(?:每台|每个节点|单台|单机|整机|一台|each|per (?:node|server|box)|(?:server|box|node|machine)(?:es|s)?\s*(?:pulls?|draws?|uses?|consumes?|is|at|rated at)?)"
    rf"\s*(?:的)?\s*(?:功耗|功率|耗电|用电)?\s*(?:按|算|为)?\s*(?:about|around|roughly|~|约|最大|峰值|最高|满载)?\s*{DECIMAL}\s*kw\b"
    rf"|{DECIMAL}\s*kw\s*(?:per|each|/|a)\s*(?:node|server|box|台)|{DECIMAL}\s*kw\s*(?:box|server|node|machine)"
    # "boxes draw about 9 kW each", "每台实测功耗6kW"
    rf"|(?:boxes|servers|nodes|machines)[^.;。；\d]{{0,24}}?{DECIMAL}\s*kw\s*(?:each|apiece|a piece)\b|每台[^，,。；\d]{{1,8}}?{DECIMAL}\s*kw"
    # "每台 8卡 H200 服务器按 11kW 算" (not across a price or a period: "每台125万 5年折旧 每台功耗6kW")
    rf"|每台(?:(?!每台|万|年|元)[^，,。；]){{1,16}}?(?:按|约|是|为|功耗|功率|耗电)\s*{DECIMAL}\s*kw"
    # "16 servers of 8x H100 at 10kW each": racks and GPUs each were read before this
    rf"|(?:servers?|nodes?|boxes|machines)\b[^.;。；]{{0,40}}?{DECIMAL}\s*kw\s*(?:each|apiece|a piece)\b"
    # "8 dgx h100, 10.2kw max each", "11 kW per node": a figure each machine draws, whatever names the machine
    rf"|{DECIMAL}\s*kw\s*(?:max(?:imum)?|peak|nameplate|rated)?\s*(?:each|apiece|a piece)\b"
    # "we measured ~8kW average each": a measured average per machine
    rf"|{DECIMAL}\s*kw\s*(?:average|avg|mean|measured|on average)\s*(?:each|apiece|per (?:node|server|box))\b"
    # machines counted, then what each averages: "16 台平均跑 8kW", "16 servers averaging 8 kW" (an average is a
    # machine's: no fleet of GPU servers averages 0.5 kW a machine)
    rf"|(?<![\d.])\d+\s*台\s*(?:服务器|机器|整机)?\s*平均(?:每台)?\s*(?:跑|功耗|功率|用电|耗电|负载)?\s*(?:约|大概)?\s*{DECIMAL}\s*kw\b"
    rf"|\b\d+\s*(?:servers|nodes|boxes|machines)\s*(?:averaging|that average|at an average of|average)\s*(?:about|~|around)?\s*{DECIMAL}\s*kw\b"
)
# the load that runs all year beside the servers: "网络存储另外常年 6kW", "plus 6 kW for network and storage",
# "switches and storage draw another 6 kW"
_ALWAYS_ON_KW = flags(
    rf"(?:网络|存储|交换机|管理节点)(?:[和与、及/]?(?:网络|存储|交换机))?[^，,。；;\d]{{0,10}}?{DECIMAL}\s*kw\b"
    rf"|(?:plus|another|additional|extra|\+)\s*(?:~|about|around)?\s*{DECIMAL}\s*kw\s*(?:for|of|from)\s*(?:the\s*)?(?:network|storage|switch)"
    rf"|\b(?:network(?:ing)?|storage|switch(?:es)?)\b(?:\s*(?:and|&|\+|/)\s*(?:network(?:ing)?|storage|switch(?:es)?))?\s*(?:draws?|adds?|uses?|takes?|is|are|at|pulls?)?\s*(?:another|an extra|an additional|extra|additional|about|around|~)?\s*{DECIMAL}\s*kw\b"
)
_RACK_KW = flags(
    rf"{DECIMAL}\s*kw\s*(?:的)?\s*(?:机柜|rack|cabinet)"
    rf"|{DECIMAL}\s*kw\s*(?:per|a|an|each|/)\s*(?:rack|cabinet)|[每单](?:个)?(?:机)?柜\s*(?:最多|最大|上限|限电|限|供电|功率|只能给|只能供|能给|能供|只给到|只给|给到|只能到|能到|可以到|只有|只能|是|为|才|就|仅)*\s*{DECIMAL}\s*kw"  # "20 kW per rack", "每柜最多15kW", "单柜 20kW"
    # "racks are capped at 35 kW", "机柜每个限电30kW": a few words between, none naming a server
    rf"|(?:rack|机柜|柜子|cabinet)s?(?:(?!server|node|box|machine|台|节点|服务器)[^\d。.;；\n]){{0,24}}?{DECIMAL}\s*kw\b"
    # the room a figure is to fit in: "what fits in 40kW", "how many fit into 15 kW", "40kW 的柜子", "40kW 柜"
    rf"|\bfits?\s+(?:in|into|within)\s+(?:a |one |the |our )?{DECIMAL}\s*kw\b|{DECIMAL}\s*kw\s*(?:的)?\s*柜"
    # "能到 40kW 一柜", "40kW每柜": the figure, then the rack it is for
    rf"|{DECIMAL}\s*kw\s*(?:一|每|单)\s*(?:个)?\s*(?:机)?柜"
)
# racks one has: "6 racks of 20 kW", "4个机柜", "托管 16 个柜", "16柜" (not "一柜放一台": servers per rack)
_RACKS = flags(
    rf"{NUMBER}\s*(?:(?:个|台)?\s*(?:racks?|cabinets?|机柜)|个\s*柜|(?<=\d)\s*柜)(?!\s*(?:power|功率))"
)
_KW = flags(rf"{DECIMAL}\s*(kw|mw)\b")
# the words after a figure that make it a machine's rating: "10.2 kW max", "10.2kW nameplate", "10.2 kW 额定"
_RATED_AFTER = flags(r"\s*(?:max(?:imum)?\b|peak\b|nameplate\b|rated\b|rating\b|额定|峰值|最大)")
_AT_WALL = flags(r"\bat the wall|\bwall power|\bfacility power|市电|含(?:空调|制冷)|总用电")
_SERVER_COUNT = flags(rf"{NUMBER}\s*(?:台|个|x|×|\*)?\s*(?:的)?\s*$")
# "PUE 1.5" before "1.5 PUE": in "电价0.8 PUE 1.5" the figure after PUE is its own, the one before the price's
_PUE = flags(
    rf"\bpue\s*(?:(?:of|=|:|为|是|按|约|~|≈|is|about|around|roughly|approximately|大概|大约|drops?|falls?|goes|gets|down|up|to|from|降到|降至|降为|降低到|变成|改成|改为|"
    rf"提高到|升到|到|只有|能到|可以到|做到)\s*){{0,2}}{DECIMAL}"
)
# two facilities weighed: "PUE 1.5 vs 1.2", "PUE 1.5 机房和 PUE 1.2 机房", "1.5 PUE or 1.2 PUE"
_PUE_PAIR = flags(
    r"\bpue\s*(?:of\s*)?(\d\.\d+)[^\d。;；?？]{0,12}?(?:\bvs\.?|\bversus\b|\bor\b|\band\b|对比|比|和|与|跟|还是)\s*"
    r"(?:[^\d。;；?？]{0,14}?pue\s*(?:of\s*|is\s*|为\s*|是\s*)?)?([12]\.\d+)(?![\d.])"
)
# one facility changed: "PUE从1.4降到1.15", "PUE goes from 1.5 to 1.2", "PUE 1.4→1.15": the bill before and after
_PUE_CHANGE = flags(
    r"\bpue\s*(?:(?:goes|drops?|falls?|rises?|improves?|would go|going)\s*)?(?:从|由|from)?\s*(\d\.\d+)\s*"
    r"(?:降到|降至|降为|降低到|降低至|下降到|改到|改成|改为|变成|变为|提高到|升到|到|→|->|=>|down to|up to|to)\s*([12]\.\d+)(?![\d.])"
)
# a size and the architecture it has: "70B (llama3 arch)", "an 8B with the Llama 3 architecture", "72B qwen2.5 结构"
_ARCHITECTURE = flags(
    r"\b(llama|qwen)[\s-]?(\d(?:\.\d)?)(?![\d.])\s*(?:-|\s)?(?:arch\w*|architecture|style|shape|结构|架构)"
)
_PUE_BEFORE = flags(rf"{DECIMAL}\s*(?:的\s*)?pue\b")
# ("4 H20 8-GPU servers": the machines' shape may stand between the card and the word for them)
_MACHINES_AFTER = flags(
    r"\s*(?:sxm\d?\s*|pcie\s*|nvl\s*|\d+\s*g[b]?\s*|\d\s*-\s*gpus?\s*)*(?:servers?|nodes?|boxes|machines|服务器|节点|机器|整机|机(?![房柜架]))"
)
_DRAW_AFTER = flags(r"\s*(?:的)?\s*(?:功耗|功率|耗电)?\s*(?:约|按|是|为|大概)?\s*\d+(?:\.\d+)?\s*kw")
_ONE_SERVER = flags(
    r"\b(?:one|a single|single)\s*(?:node|server|machine|box)\b|单机|单台服务器|一台服务器|单节点|一个节点"
)
_SERVERS = flags(
    rf"{NUMBER}\s*(?:台|个节点|个服务器|nodes?|servers?|boxes|machines)(?!\s*(?:卡|gpu))"
    # "on 4 such nodes", "4 more of these servers": machines like the ones described
    rf"|{NUMBER}\s+(?:such|similar|identical|more)\s+(?:nodes?|servers?|boxes|machines)\b"
    # "on 2 of these nodes": a count of the machines just described
    rf"|\b(?:on|across|over|use|using)\s+{NUMBER}\s+of\s+(?:these|those|them|the|our)\b(?:\s+(?:nodes?|servers?|boxes|machines))?"
)
# how many of a named cloud instance: "running 2 instances", "need 4 of them", "3 个实例"
_INSTANCE_COUNT = flags(rf"{NUMBER}\s*(?:x\s*)?(?:instances?|个实例|台实例|of (?:them|those|these)\b)")
# a budget's share kept for the fabric and storage: "网络存储留20%", "keep 20% for network and storage"
_NETWORK_RESERVE = flags(
    # ("网络存储机房 先留25%": the room's share kept with them)
    rf"(?:网络(?:和|与|、|及)?存储(?:(?:和|与|、|及)?机房)?|network(?:ing)?\s*(?:and|&|\+)\s*storage)\s*(?:先|先要|要先)?\s*(?:留|预留|占|要|reserve|keep|gets?|takes?)?\s*{DECIMAL}\s*%"
    rf"|(?:留|预留|reserve|keep|set aside)\s*{DECIMAL}\s*%\s*(?:给|用于|for|of (?:it|the budget) for)?\s*(?:the\s*)?"
    rf"(?:存储(?:和|与|、)?|storage\s*(?:and|&|,)?\s*)?(?:网络|network)"
)
# the fabric as a share of the servers' price: "网络按整机15%", "网络按10%算", "IB占整机的12%",
# "add ~15% of server cost for the IB fabric", "networking is 10% of the server capex"
_NETWORK_SHARE = flags(
    rf"(?:网络|组网|交换机|\bib\b|infiniband|roce)(?:\s*[+＋&、]?\s*存储|和存储|与存储)?\s*(?:费用|成本)?\s*(?:大概|大约|约|再|还要|还得)*\s*(?:另算|另加|另外|额外|同样按|同样|也按|也|还是按|还是|照旧|按|占|算|要|加)\s*(?:整机|服务器|机器)?(?:价格|价|款|成本|费用)?(?:的)?\s*"
    rf"(?:~|约|大概)?\s*{DECIMAL}\s*%"
    rf"|(?:(?:\badd|\bplus|\+)\s*)?(?:(?:~|about|around|roughly)\s*)?{DECIMAL}\s*%\s*(?:of\s*(?:the\s*)?(?:server|node|hardware)s?\s*(?:cost|price|capex)\s*)?"
    r"(?:for|on)\s*(?:the\s*)?(?:ib\b|infiniband|roce|network(?:ing)?|fabric|switch(?:es|ing)?)"
    # "the ib fabric adds ~15% per node", "networking is 10% of the server"
    rf"|(?:network(?:ing)?|fabric|switch(?:es|ing)?)\s*(?:is|at|adds?|costs?|=|:)?\s*(?:~|about|around|roughly)?\s*{DECIMAL}\s*%\s*"
    r"(?:(?:of|per|a|each|on)\s*(?:the\s*|each\s*|every\s*)?(?:server|node|hardware|box|machine)|on top)"
    # "networking+storage is ~20% on top of that", "network & storage adds 15% on top"
    rf"|(?:network(?:ing)?|fabric)\s*(?:\+|and|&)\s*storage\s*(?:is|are|adds?|costs?|at|=|:)?\s*(?:~|about|around|roughly)?\s*"
    rf"{DECIMAL}\s*%\s*(?:on top|extra|more|of\s*(?:the\s*)?(?:server|node|hardware))"
)
# what the rest of the cluster adds to the GPUs: "plus 20% for infrastructure", "另加15%配套"
_INFRA_SHARE = flags(
    rf"(?:plus|\+|and|加|另加|再加)\s*{DECIMAL}\s*%\s*(?:for|of|on top for|给|用于)?\s*(?:the\s*)?"
    r"(?:infra\w*|rest of the (?:cluster|system)|network(?:ing)?(?: and storage)?|platform|servers?|配套|基础设施|网络|机房|其余|整机)"
    rf"|(?:infra\w*|基础设施|配套)\s*(?:overhead|占|按|加)?\s*{DECIMAL}\s*%"
)
_MAINTENANCE = flags(
    rf"(?:\bops\b|operations|maintenance|support|运维|维护|维保)(?:(?!利用率|使用率|utili|\butil\b|\bpue\b|负载|load\b)[^。.;；\n%]){{0,40}}?{DECIMAL}\s*%|{DECIMAL}\s*%\s*(?:of\s*(?:the\s*)?capex)"
)
# a rolling window of checkpoints: "retention: last 5 rolling", "滚动保留最近5个"
_ROLLING = flags(
    rf"(?:last|latest|最近)\s*{INTEGER}\s*(?:个|份)?\s*(?:rolling|滚动)|滚动保留\s*(?:最近)?\s*{INTEGER}"
)
# ... and one kept for every day of the run besides: "plus one per day", "另外每天留一个", "每天一个"
_DAILY_KEPT = flags(
    r"(?:one|1|a)\s*(?:checkpoint\s*|ckpt\s*|snapshot\s*)?(?:per|a|each|every)\s*day|\bdaily\s*(?:checkpoints?|ckpts?|snapshots?|copies|ones?)"
    r"|每天(?:再|都|各)?(?:留|保留|存|多留)?\s*(?:一个|1个|一份|1份)|一天(?:留|存)?(?:一个|1个|一份)"
)
# the run's length, for the checkpoints kept daily: "for a 60 day run", "训练45天", "run is 8 weeks"
_RUN_LENGTH = flags(
    rf"{DECIMAL}\s*[-\s]?(days?|weeks?)\s*(?:training\s*)?run|(?:训练|跑|训)\s*(?:了|约|大概)?\s*{DECIMAL}\s*(?:个)?\s*(天|周|星期)"
)
# keeping named beside an interval: "now every 30 minutes and keep the last 12 hours" saves checkpoints
_KEEPING = flags(r"\b(?:keep|keeping|retain|retaining)\b|保留|留最近|留最新")
# saving named in the message, so a bare "保留10个" counts checkpoints
_SAVING = flags(r"存一次|保存|存一个|checkpoint|ckpt|检查点|\bsav(?:e|es|ing)\b|\bsnapshot")
_KEPT_BARE = flags(
    r"(?:保留|留|keep|keeping|retain|retaining)\s*(?:最近|最新|the\s*last|last|the\s*newest)?\s*(\d{1,4})\s*(?:个|份)?(?![\d.]|\s*(?:卡|张|台|节点|人|天|小时|周|%|gpus?|days?|hours?|weeks?))"
)
_CHECKPOINTS = flags(
    rf"(?:keep|keeps|keeping|retain|retaining|store|storing|保留|存)\s*(?:the\s*)?(?:last\s*|最近\s*)?{INTEGER}\s*(?:个|份)?\s*(?:full\s*)?(?:checkpoints?|ckpts?|检查点)"
    rf"|{INTEGER}\s*(?:个|份)?\s*(?:full\s*)?(?:checkpoints?|ckpts?|检查点)"
    # "only keep 5 full ones", "保留5个完整的"
    rf"|{INTEGER}\s*full\s*(?:ones|copies|saves)\b|{INTEGER}\s*(?:个|份)\s*完整"
    # "检查点保留最近8个", "checkpoints: keep the last 10"
    rf"|(?:checkpoints?|ckpts?|检查点)[^。.;；\n\d]{{0,6}}(?:保留|留|keep|retain)\s*(?:the\s*)?(?:最近|last\s*)?{INTEGER}"
    # "70b checkpoints every 2h, keep 10", "ckpt每2小时一次，保留10个"
    rf"|(?:checkpoints?|ckpts?|检查点)[^。;；\n]{{0,30}}?(?:保留|留|\bkeep|\bretain)\s*(?:the\s*)?(?:最近|last\s*)?{INTEGER}(?!\s*(?:tb|gb|pb|天|days?|weeks?|hours?|小时|h\b|%))"
    # "keep last 4", "保留最近8个" in a message about checkpoints
    rf"|(?:keep|keeping|retain|retaining|保留|留)\s*(?:only\s*)?(?:the\s*)?(?:最近|last|latest|newest)\s*{INTEGER}\s*(?:个|份)?(?!\s*(?:tb|gb|pb|天|days?|weeks?|months?|小时|hours?))"
)
# copies kept, in a message about checkpoints: "要存20个", "keep 20 of them", "存20份"
_KEPT_COPIES = flags(
    rf"(?:存|保留|留|keep|retain|store)\s*(?:下)?\s*{INTEGER}\s*(?:个|份|copies\b|of them\b|versions\b)"
    # "and the checkpoints? 34B model, keep 10": the number kept closes the message
    rf"|(?:保留|留|keep|keeping|retain)\s*{INTEGER}\s*(?:个|份)?\s*(?:[?？。.!！]\s*)?$"
)
# weights-only checkpoints kept besides the full ones: "plus 50 weights-only ones", "weights-only every 1000
# steps for 50 saves", "另外存30个只含权重的"
_WEIGHTS_ONLY = flags(
    rf"{INTEGER}\s*(?:个|份)?\s*(?:weights?[- ]only|(?:只|仅)(?:存|含|保留|有)?权重)"
    rf"|(?:weights?[- ]only|(?:只|仅)(?:存|含|保留)?权重)[^.;。；\n]{{0,40}}?(?:for\s*|共\s*)?{INTEGER}\s*(?:saves|copies|snapshots|times|checkpoints?|个|份|次)"
    # "a weights-only snapshot every 1000 steps (~50 over the run)": the count the run writes
    rf"|(?:weights?[- ]only|(?:只|仅)(?:存|含|保留)?权重)[^.;。；\n]{{0,40}}?[(~≈约]\s*~?\s*{INTEGER}\s*(?:over|in|during|across|for)\s+(?:the\s+)?(?:whole\s+)?run"
    # "a weights-only copy once a day for 30 days", "每天存一份只含权重的，保留30天": one a day, kept that many days
    rf"|(?:weights?[- ]only|(?:只|仅)(?:存|含|保留)?权重)[^.;。；\n]{{0,30}}?(?:once a day|daily|every day|a day|每天|每日)"
    rf"[^.;。；\n\d]{{0,20}}?(?:for|kept for|keep(?:ing)?(?: them)? for|保留|留|存)\s*{INTEGER}\s*(?:days|天)"
)
_CHECKPOINT_SIZE = flags(
    rf"(?:checkpoints?|ckpts?|检查点)(?:(?!数据|dataset|corpus|语料|\braw\b)[^。;；?？\n]){{0,40}}?(?:~|about|约|is|of|为|是)?\s*{DECIMAL}\s*(tb|gb|pb)\b(?!\s*/\s*s)"
    # "a 1.8 TB checkpoint", "900GB的检查点"
    rf"|{DECIMAL}\s*(tb|gb|pb)\s*(?:的)?\s*(?:full\s*|resumable\s*|完整)?(?:checkpoints?|ckpts?|检查点)"
)
# how often a checkpoint is saved: "ckpt every 2h", "每2小时存一次", "每隔30分钟保存"
_CHECKPOINT_EVERY = flags(
    rf"(?:every|each)\s*{DECIMAL}\s*(h|hrs?|hours?|min|mins|minutes)\b"
    rf"|每(?:隔)?\s*{DECIMAL}\s*(?:个)?\s*(小时|分钟)\s*(?:存|保存|做|打|写)"
    # "every hour", "hourly", "每小时存一次": one hour
    r"|\b(?:every|each|once an?|once per)\s*(hour)\b|\b(hour)ly\b|每(?:个)?(小时)\s*(?:存|保存|做|打|写)"
)
# "10 permanent milestone checkpoints", "再留10个里程碑": checkpoints kept for good beside the rolling ones
_MILESTONES = flags(
    r"(?<![\d.])(\d{1,3})\s*(?:个)?\s*(?:permanent\s+|long[- ]term\s+|archived?\s+|永久(?:保存的)?\s*)?(?:milestones?|里程碑)"
)
# "每天存两次ckpt", "twice a day", "3 times a day": saves a day, the interval 24 h over them
_SAVES_A_DAY = flags(
    rf"每天\s*(?:存|保存|做|打|写|存档)?\s*{NUMBER}\s*(?:次|个)|{NUMBER}\s*(?:times|saves|checkpoints)\s*(?:a|per)\s*day"
    r"|\b(twice)\s*(?:a|per)\s*day"
)
_WRITE_TIME = flags(
    rf"(?:in|under|within|less than|at most)\s*{DECIMAL}\s*(s|sec|secs|seconds|min|mins|minutes|minute)\b|{DECIMAL}\s*(秒|分钟|s|sec|min)\s*(?:内|以内|之内)"
    # "stall training for 60 seconds max", "a 90 s pause at most", "卡住不超过60秒"
    rf"|(?:stall|pause|block|freeze|hold(?:s|ing)? up|interrupt)\w*[^.;。；?？\d]{{0,40}}?{DECIMAL}\s*(s|sec|secs|seconds|min|mins|minutes|minute)\b"
    rf"|{DECIMAL}\s*(s|sec|secs|seconds|min|mins|minutes|minute)\s*(?:max|maximum|at most|or less|tops)\b"
    rf"|(?:不超过|最多|最长|控制在)\s*{DECIMAL}\s*(秒|分钟)"
)
# a size said to be the named model's own: "Llama 3 architecture at 30B", "scaled to 13B", "按13B算"
_OWN_SIZE = flags(
    r"\b(?:scaled?|shrunk|pruned|cut|grown|resized|widened)\s+(?:down |up )?to\s+\d|\barchitecture\b[^.?]{0,20}\b(?:at|with)\s+\d"
    r"|\b\d+(?:\.\d+)?\s*b\s+(?:params|parameters)\b|按\s*\d+(?:\.\d+)?\s*[bB]\s*算|参数量?\s*(?:是|为)?\s*\d"
)
# a checkpoint or a write being timed: what a time "within 60 s" can be the allowance of
_SAVE_CONTEXT = flags(
    r"checkpoint|\bckpt|\bsav(?:e|es|ing|ed)\b|\bwrit(?:e|es|ing|ten)\b|\bflush|\bstall|\bpause|\bdump"
    r"|检查点|存盘|保存|写入|写完|写盘|落盘|卡住|停顿"
)
# what the storage writes: "our storage does 5 GB/s writes", "存储写入带宽 20GB/s"
_WRITE_GB_S = flags(
    rf"(?:writes?|写入|写|storage|存储|file ?system|文件系统|lustre|nfs|weka|vast)[^.;。；，?？\n]{{0,24}}?{DECIMAL}\s*(gb|tb)\s*/\s*s"
    rf"|{DECIMAL}\s*(gb|tb)\s*/\s*s\s*(?:of\s*)?(?:sequential\s*)?(?:writes?|写入|写)"
)
# the storage's network link, in gigabits: "NFS 10GbE", "25G以太网", "over 100 GbE"
_ETHERNET_LINK = flags(
    rf"{DECIMAL}\s*(?:gbe|gige|g\s*(?:以太网|网口|网卡)|gb/s\s*ethernet|gbps\s*(?:ethernet|link|nic))"
)
_STORAGE_LINK_CONTEXT = flags(r"\bnfs\b|\bnas\b|storage|存储|lustre|checkpoint|ckpt|检查点|\bsave\b")
_EPOCHS = flags(
    rf"{NUMBER}\s*(?:个)?\s*(?:epochs?|轮)(?![A-Za-z])|\bepochs?\s*(?:=|:|of)?\s*{NUMBER}"
    # "epoch 跑 3 遍", "数据过3遍", "go over the data 3 times"
    rf"|(?:epochs?|数据|语料)\s*(?:跑|过|训)\s*{NUMBER}\s*(?:遍|次)|(?:跑|过|训)\s*{NUMBER}\s*遍"
    rf"|\b(?:over|through) the (?:data(?:set)?|corpus) {NUMBER} times\b"
)
_SAMPLES = flags(
    rf"{NUMBER}\s*(k|m|million|万|千|百万)?\s*(?:条|个样本|个对话|组对话|samples?|examples?|conversations?|instructions?"
    rf"|rows|pairs|dialogues?|records?|QA pairs)(?![A-Za-z])"
)
_SAMPLE_TOKENS = flags(
    rf"(?:每条|平均每条|每个样本|每个对话|平均|avg|average|each|per (?:sample|example|conversation|row|record))\s*"
    rf"(?:平均)?\s*(?:长度|length)?\s*(?:约|about|~|of|is|为|是)?\s*{AMOUNT}\s*(k)?\s*(?:个)?\s*(?:tokens?|toks?)(?![a-z])(?!\s*(?:/|per)\s*s)"
    # ("avg 4k tokens context each" is each request's context, not a sample's length)
    r"(?!\s*(?:of\s+)?(?:context|ctx|上下文))"
    rf"|{AMOUNT}\s*(k)?\s*(?:tokens?|toks?)\s*(?:each|per (?:sample|example|conversation|row|record)|apiece|on average|avg)"
)
# "50k samples of 2k tokens": the count and each one's length together
_SAMPLES_OF = flags(
    rf"{NUMBER}\s*(k|m|million|万|千)?\s*(?:samples?|examples?|conversations?|rows|records?|pairs|dialogues?)\s*"
    rf"(?:of|at|with|,)\s*(?:~|about|avg\.?|average)?\s*{AMOUNT}\s*(k)?\s*(?:tokens?|toks?)(?![a-z])"
)
_STEP_TIME = flags(
    # "step time 2s", "step compute is about 2s", "each step takes ~2 s", "compute per step is 2 s"
    rf"(?:step(?:[\s_-]*(?:time|compute(?:[\s_-]*time)?))?|compute(?:[\s_-]*time)?\s+(?:per|of\s+(?:a|one|each))\s+step)"
    rf"\s*(?:of|=|:|is|takes|lasts|为|是|变成|变为|改成|降到|升到|到|(?:drops?|falls?|goes?|rises?|grows?) to|becomes?)?"
    rf"\s*(?:~|about|around|roughly|约)?\s*{DECIMAL}\s*(ms|s|sec|secs|seconds|秒)(?![A-Za-z])"
    rf"|每\s*(?:个\s*)?(?:step|步)\s*(?:要|需要|耗时)?\s*{DECIMAL}\s*(秒|s)(?![A-Za-z])"
    # "单步8.5秒", "一步 8.5s", "8.5 s per step", "8.5s/step"
    rf"|(?:单步|一步|每步|一个\s*step|每个\s*step)\s*(?:实测|测得|测下来|大概|约|耗时|要|需要|是|为|跑)*\s*{DECIMAL}\s*(秒|s)(?![A-Za-z])|{DECIMAL}\s*(s|sec|seconds|秒)\s*(?:per|/|a|每)\s*(?:step|it|iteration|步)\b"
    # "21 秒一步", "21s a step"
    rf"|{DECIMAL}\s*(秒|s)\s*(?:一步|一个\s*step|a step)"
)
_BATCH_TOKENS = flags(
    rf"{AMOUNT}\s*(?:seqs?|sequences?|samples?)?\s*[x×*]\s*{AMOUNT}\s*(?:tokens?|toks?)\b"
    # "global batch 1024 x 4096": after the word batch, the second figure is the sequence length
    rf"|\bbatch(?:[\s_-]*size)?\s*(?:of|=|:|为|是)?\s*{AMOUNT}\s*(?:seqs?|sequences?|samples?|条)?\s*[x×*]\s*{AMOUNT}"
    rf"(?!\d|[.,]\d|\s*(?:gpus?|cards?|卡|张|nodes?|台|servers?))"
)
_NODE_TPS = flags(
    rf"\b(?:each|per|every|one|an?|single|1)\s[^.;\n]{{0,25}}?(?:node|server|box|machine)\b[^.;\n]{{0,20}}?{AMOUNT}\s*(k)?\s*(?:output\s*)?(?:tokens?|toks?)\s*(?:/|per)\s*s(?:ec(?:ond)?)?"
    # "on one 8xH100 node: 9,500 tokens/s per GPU": the node where a per-GPU rate was measured
    r"(?!\s*(?:per|/|each|a|every)\s*(?:gpu|card|device|chip|accelerator))"
    rf"|(?:每台|单台|一台|单机|每个节点|单节点|一个节点)(?:(?!每卡|每张|单卡|每个?gpu)[^。；;\n]){{0,20}}?{AMOUNT}\s*(k)?\s*(?:个)?\s*(?:输出\s*)?(?:token|tok)s?\s*(?:/\s*s|每秒)"
    rf"|(?:每台|单台|一台|单机|每个节点|单节点|一个节点)[^。；;\n]{{0,8}}?每秒(?:钟)?\s*(?:能|可以|大概|约)?\s*(?:出|输出|生成|跑|处理)?\s*{AMOUNT}\s*(k|万)?\s*(?:个)?\s*(?:输出\s*)?(?:token|tok)"
    rf"|{AMOUNT}\s*(k)?\s*(?:output\s*)?(?:tokens?|toks?)\s*(?:/|per)\s*s(?:ec(?:ond)?)?\s*(?:per|a|/|each)\s*(?:node|server|box|machine|台)"
)
_DEMAND_TPS = flags(
    rf"(?:demand|peak|total|traffic|need|needs|require|requires|serve|handle|sustain|需求|峰值|总共|总|需要|平均|均值|承载|支撑)[^.;。；，\n]{{0,20}}?{AMOUNT}\s*(k|万)?\s*(?:个)?\s*(?:output\s*)?(?:tokens?|toks?)\s*(?:/|per)\s*s"
    rf"|{AMOUNT}\s*(k|万)?\s*(?:output\s*)?(?:tokens?|toks?)\s*(?:/|per)\s*s(?:ec(?:ond)?)?\s*(?:in total|total|at (?:the )?peak|peak|overall|aggregate)"
    # "平均每秒3万token", "峰值每秒5万个token": a demand written per second first
    rf"|(?:平均|峰值|高峰|总共|总|需求|业务)\s*(?:是|为|要|需要|大概|约)?\s*每秒(?:钟)?\s*(?:要|需要|约|有|大概)?\s*{AMOUNT}\s*(k|万)?\s*(?:个)?\s*(?:输出\s*)?(?:token|tok)"
    rf"|(?:average|avg|mean)\s*(?:of|is|demand|load)?\s*(?:~|about|around)?\s*{AMOUNT}\s*(k)?\s*(?:output\s*)?(?:tokens?|toks?)\s*(?:/|per)\s*s"
)
_DEMAND_WORD = flags(
    r"\s*(?:demand|peak|total|traffic|need|require|serve|handle|sustain|需求|峰值|总|需要|承载|支撑|平均)"
)
# a rate the user saw their own setup reach: "measured", "we get", "benchmarked at", "实测", "跑出"
_MEASURED_RATE = flags(
    r"\b(?:measured|measuring|benchmark(?:ed)?|we(?:'re)? (?:get|getting|see|seeing|hit|hitting)|we got|we saw)\b"
    r"|实测|测得|测出|跑出|跑到了?"
)
_BARE_TPS = flags(
    rf"{AMOUNT}\s*(k)?\s*(?:output\s*|generated\s*|decode\s*)?(?:tokens?|toks?)\s*(?:/|per)\s*s(?:ec(?:ond)?)?\b"
)
_SCALING = flags(
    rf"{DECIMAL}\s*%\s*(?:scaling|parallel|linear)\s*efficiency|(?:scaling|parallel) efficiency\s*(?:of|=|is|at|:)?\s*{DECIMAL}\s*%"
    rf"|(?:扩展效率|线性度|加速效率|并行效率)\s*(?:为|是|按|有|只有)?\s*{DECIMAL}\s*%"
    # "假设线性90%", "线性按90%算", "scaling at 90%", "90% linear scaling", "scales 90% linearly"
    rf"|(?:线性|扩展)\s*(?:度|比)?\s*(?:为|是|按|有|只有)?\s*{DECIMAL}\s*%|{DECIMAL}\s*%\s*(?:的)?\s*(?:线性|扩展|linear(?:ly)?\b|scaling\b)"
    rf"|\bscal(?:ing|es)\s*(?:at|of|is|=)?\s*{DECIMAL}\s*%"
)
# the share of wall-clock time that trains: "assume ~95% goodput", "有效训练时间占90%"
_GOODPUT = flags(
    rf"{DECIMAL}\s*%\s*goodput|goodput\s*(?:of|=|is|at|:|around|about|~)?\s*(?:~|about\s*)?{DECIMAL}\s*%"
    rf"|有效(?:训练)?(?:时间|时长|率)\s*(?:占|为|是|按|约|大概)?\s*{DECIMAL}\s*%"
)
_SINGLE_STREAM = flags(
    r"单请求|单个请求|单路|单条(?:请求|序列)|单用户|一个请求|\bsingle[- ](?:request|stream|user|sequence)\b|\bone (?:request|stream|user)\b"
    r"|\bbatch(?:[\s_-]*size)?\s*(?:=|of|:)?\s*1\b(?![.,]?\d)|\bbs\s*=?\s*1\b(?![.,]?\d)"
)
_PORTS_PER_GPU = flags(
    r"(\d)\s*(?:x|×|\*)\s*\d{3}\s*g(?:b(?:/s|e|ps)?)?\s*(?:ports?\s*)?(?:per|each|a|/)\s*gpu|每(?:张)?卡\s*(\d|两|二)\s*(?:个|张|口)?\s*\d{3}\s*g"
)
# fabric ports per server: "4x400G per node", "每节点4个400G端口", "4 NICs per server", "每台4张网卡"
_PORTS_PER_NODE = flags(
    # a speed or a port word is needed: "8 per node" alone counts GPUs
    # ("8x CX7 400G per node": the NIC's model number is no count)
    r"(?<![A-Za-z0-9.-])(\d{1,2})\s*(?:x|×|\*)?\s*(?:(?:connectx|cx)-?\d\s*)?(?:\d{3}\s*g(?:b(?:/s|e|ps)?)?\s*(?:ports?|nics?|hcas?)?|(?:ports?|nics?|hcas?))\s*(?:per|each|a|/)\s*(?:node|server|box)"
    r"|每(?:个)?(?:节点|台|服务器|机器)\s*(?:配)?\s*(\d|两|二|四|六|八)\s*(?:个|张|块|口)?\s*(?:\d{3}\s*g\w*)?\s*(?:的)?\s*(?:端口|网卡|口|nics?|ports?)"
)
# the link between servers: "机间只有 100G 以太网", "100GbE only", "8x400G per node", "IB 200G", "200G RoCE"
_LINK_SPEEDS = r"(10|25|50|100|200|400|800|1600)"
_LINK_UNIT = r"\s*(?:gbit/s|gbit|gb/s|gbps|gbe|gige|gb|g)(?![a-z0-9])"
_LINK_WORDS = (
    r"(?:以太网?|ethernet|roce(?:\s*v2)?|\bib\b|infiniband|ndr|hdr|xdr|\(\s*xdr|网卡|nics?|网络|互联|interconnect|links?|网口"
    r"|ports?|端口)"
)
_LINK = flags(
    rf"(?:(\d{{1,2}})\s*(?:x|×|\*|个|张|块|条|路)\s*)?(?<![\d.]){_LINK_SPEEDS}{_LINK_UNIT}\s*(?:的)?\s*"
    # "400Gb/s per gpu": a link speed per GPU or per server, its words left out
    rf"(?:(?:rdma\s*)?{_LINK_WORDS}|(?=(?:per|/|each)\s*(?:gpu|card|node|server|box)))"
    rf"|(?:{_LINK_WORDS}|机间|节点间|服务器间|between (?:the )?(?:nodes|servers|boxes))[^。；;,，?？\n\d]{{0,12}}?"
    rf"(?:(\d{{1,2}})\s*(?:x|×|\*)\s*)?(?<![\d.]){_LINK_SPEEDS}{_LINK_UNIT}"
    rf"|(?:(\d{{1,2}})\s*(?:x|×|\*)\s*)?(?<![\d.]){_LINK_SPEEDS}\s*(?:gbe|gige)(?![a-z])"
    # "8x400G per node", "每台8个400G"
    rf"|(\d{{1,2}})\s*(?:x|×|\*)\s*{_LINK_SPEEDS}{_LINK_UNIT}\s*(?:ports?\s*|nics?\s*)?(?:per|each|a|/)\s*(?:node|server|box)"
    rf"|每(?:个)?(?:节点|台|服务器|机器)\s*(?:配)?\s*(\d{{1,2}})\s*(?:个|张|块|口)\s*{_LINK_SPEEDS}{_LINK_UNIT}"
)
_LINK_PER_GPU = flags(r"^[^。；;?？\n]{0,12}?(?:per|each|a|/)\s*(?:gpu|card)|^\s*(?:的)?\s*每(?:张)?卡")
_LINK_PER_GPU_BEFORE = flags(r"(?:每(?:张)?卡|per[- ]gpu|each gpu)\s*(?:一个|一张|1\s*(?:x|个|张))?\s*$")
# the radix, read without the word "switch" so the question still asks about switches
_SWITCH_PORTS = flags(
    r"(\d{2,3})[- ]?port(?=\s*(?:switch|ones?\b))|(\d{2,3})\s*口(?=\s*(?:的)?\s*交换机)"
    # "switches are 64x800G run as 128x400G", "split into 128x400G": the ports a switch offers, as run
    r"|(?:run|used|split|broken out|configured)\s*(?:as|into)\s*(\d{2,3})\s*[x×]\s*\d{3}\s*g\b"
    # "Quantum-X800 switches (144x 800G ports)", "交换机 144 口": the count beside the switch word
    r"|(?:switch(?:es)?|交换机)[^。;；.?？\d]{0,12}?(\d{2,3})\s*(?:[x×]\s*\d{3}\s*g\w*\s*)?(?:ports?\b|口)"
)
# a named switch model: its ports and their speed, from the vendors' datasheets (NVIDIA Quantum-2 QM9700/QM9790:
# 64 x 400 Gb/s NDR; Quantum QM8700/QM8790: 40 x 200 Gb/s HDR; Quantum-X800 Q3400: 144 x 800 Gb/s XDR;
# Spectrum-4 SN5600: 64 x 800GbE; SN5400: 64 x 400GbE; SN4700: 32 x 400GbE; all as of 2025)
_SWITCH_MODELS = {"qm97": (64, 400), "qm87": (40, 200), "q3400": (144, 800), "quantumx800": (144, 800),
                  "sn5600": (64, 800), "sn5400": (64, 400), "sn4700": (32, 400)}  # fmt: skip
_SWITCH_MODEL = flags(
    r"\b(qm\s*97|qm\s*87)[09]0\b|\b(q\s*3400|quantum[- ]x800|sn\s*5600|sn\s*5400|sn\s*4700)\b"
)
# the switches' port speed: "800G switches", "用800G的交换机"
_SWITCH_GBPS = flags(
    r"(400|800|1600)\s*g(?:b/?s|bps)?\s*(?:的)?\s*(?=switch|交换机|ports?\s*switch)"
)  # the word stays: it asks for switches
_GROWTH_SHARE = flags(
    rf"{DECIMAL}\s*%\s*(?:annual|yearly|a year|per year|year[- ]over[- ]year|yoy)?\s*growth(?:\s*(?:a|per)\s*year)?"
    rf"|grow(?:s|ing|th)?\s*(?:of|by|at)?\s*{DECIMAL}\s*%\s*(?:a|per|each)\s*year"
    rf"|(?:每年|年)\s*(?:增长|增加|增速|涨)\s*(?:约|大概)?\s*{DECIMAL}\s*%|年增长率?\s*(?:为|是|按)?\s*{DECIMAL}\s*%"
)
# a fabric's leaf down:up ratio: "2:1 oversubscribed", "oversubscription of 3:1", "2:1 收敛", "收敛比 2:1"
_OVERSUBSCRIBED = flags(
    r"(\d(?:\.\d)?)\s*[:：]\s*1\s*(?:oversubscri\w*|blocking|收敛|超订|阻塞)"
    r"|(?:oversubscri\w*|收敛比?|超订比?)\s*(?:of|at|to|=|is|为|是|按|做到|做成)?\s*(\d(?:\.\d)?)\s*[:：]\s*1"
)
# cards in the plural with no count: "fine-tune 70B on H100s", "with a100s", "on 4090s" (the L40S is one card)
_SEVERAL_CARDS = flags(
    r"\b(?!l40s\b)(?:[abhlv]\d{2,3}|rtx\s?\d{4}|\d{4}|mi\d{3}x?|gaudi\s?\d|trainium\d?|tpu|gpu|card|chip)s\b"
    # a machine or a cluster asked for, whose cards are as many as it holds: "需要什么配置的服务器", "what server"
    r"|服务器|整机|集群|\b(?:servers?|nodes?|cluster)\b"
)
# Chinese-made accelerators only: "只能用国产卡", "必须国产化", "信创", "domestic chips only"
_DOMESTIC_ONLY = flags(
    r"(?:只能|只|必须|要求|全部|全)\s*(?:用|使用|上|采购|买)?\s*国产(?:化|卡|芯片|算力|gpu|GPU|加速卡|npu|NPU)?"
    r"|国产化\s*(?:要求|替代|采购)|信创"
    r"|\b(?:only|must use)\s+(?:chinese|domestic)(?:[- ]made)?\s+(?:chips|cards|gpus|accelerators|parts|hardware)"
    r"|\b(?:chinese|domestic)(?:[- ]made)?\s+(?:chips|cards|gpus|accelerators)\s+only"
)
_DOMESTIC_DEFAULT = "ascend-910b2"
# racks that can only be air-cooled: "it's air-cooled only", "no liquid cooling", "只有风冷", "上不了液冷"
_AIR_ONLY = flags(
    r"\bair[- ]cool(?:ed|ing)[- ]only\b|\bonly\s+air[- ]cool\w*|\bno\s+liquid(?:\s+cooling)?\b|\bno\s+(?:dlc|direct[- ]liquid)\b"
    r"|只有风冷|只能风冷|只支持风冷|纯风冷|没有液冷|不支持液冷|上不了液冷|不能上液冷|没法上液冷"
)
# a site outside mainland China, whatever currency is counted in ("新加坡子公司", "our Frankfurt site")
_ABROAD = flags(
    # ("海外报价" is a price from abroad, not where the machines stand: countries and cities only)
    r"(?:新加坡|马来西亚|日本|韩国|美国|欧洲|德国|法国|英国|中东|沙特|阿联酋|迪拜|印度)(?:的)?(?:子公司|公司|分公司|机房|数据中心|团队|站点)"
    r"|\b(?:in|our|based in|located in)\s+(?:singapore|malaysia|japan|korea|europe|germany|frankfurt|london|dubai|saudi|the uae|india)\b"
)
# parts AWS and Google rent only as instances or pods of many chips: never one chip's job
_RENTED_IN_PODS = ("trainium", "tpu")


def _nearer(first: re.Pattern[str], second: re.Pattern[str], before: str) -> bool:
    """Whether ``first`` is said nearer the end of ``before`` than ``second`` (or ``second`` not at all)."""
    ends = [max((m.end() for m in pattern.finditer(before)), default=-1) for pattern in (first, second)]
    return ends[0] > ends[1]


def several_cards(text: str, gpu: str | None) -> bool:
    """Whether the cards are spoken of in the plural with no count ("fine-tune 70B on H100s"), or are a part
    rented only as instances of many chips (Trainium, TPU): a job on them runs on as many as it needs."""
    return bool(_SEVERAL_CARDS.search(text)) or (gpu or "").startswith(_RENTED_IN_PODS)


_RESIDUAL = flags(
    rf"{DECIMAL}\s*%\s*(?:residual|resale|salvage)(?:\s*value)?|(?:residual|resale|salvage)(?:\s*value)?\s*(?:of|=|is|at|:)?\s*(?:~|about)?\s*{DECIMAL}\s*%"
    rf"|(?:残值|残值率|回收价值|二手价)\s*(?:为|是|按|有|约|算|取|估|计)?\s*(?:成|为|到)?\s*{DECIMAL}\s*%"
    # "resell the server for 30% of its price", "sell them at 25%", "二手能卖30%", "卖掉能回收20%"
    rf"|\b(?:re)?sell\w*\s+(?:(?:it|them|the\s+\w+|our\s+\w+|those|these)\s+)?(?:for|at)\s*(?:~|about|around|roughly)?\s*{DECIMAL}\s*%"
    rf"|(?:二手|转卖|卖掉|卖出|回收)\s*(?:还)?(?:能|可以)?\s*(?:卖|回收|回|收回)?\s*(?:个|到)?\s*{DECIMAL}\s*%"
    # "按 30% 残值卖掉", "30%的残值": the share first, the word after
    rf"|{DECIMAL}\s*%\s*(?:的)?\s*(?:残值|回收价值|二手价)"
)
_PEAK = flags(
    rf"{DECIMAL}\s*(?:x|×|倍)\s*(?:the\s*)?(?:peak|峰值)|peak(?:[- ]to[- ]average)?\s*(?:factor|multiplier|ratio)\s*(?:of|=|is|:)?\s*{DECIMAL}"
    rf"|峰值(?:系数|倍数|是平均的?)\s*(?:为|是|按)?\s*{DECIMAL}"
    rf"|peaks?\s*(?:at|of|are|is|reach(?:es)?)?\s*(?:about|~)?\s*{DECIMAL}\s*(?:x|×|times)"
    rf"|峰值\s*(?:是|为|约|按)?\s*(?:平均(?:值)?的?)?\s*{DECIMAL}\s*倍"  # "峰值3倍"
)
_HEADROOM = flags(
    rf"{DECIMAL}\s*%\s*(?:of\s*)?(?:headroom|buffer|margin|余量|冗余)|(?:headroom|buffer|margin|余量|冗余)\s*(?:of|留|为|按|是)?\s*{DECIMAL}\s*%"
    # "add 15% for failed runs + evals", "再加20%用于调试和重跑": a margin on top of an estimate
    rf"|(?:\badd|\bplus|\+|加上?|再加|多加|另加|预留)\s*(?:another\s*|an? extra\s*|extra\s*)?{DECIMAL}\s*%\s*(?:for|to cover|as|用于|给|的)?\s*"
    r"(?:buffer|margin|余量|冗余|contingency|overhead|fail|retr|re-?run|eval|debug|ablation|experiment|restart|重跑|失败|调试|评测|实验|重启)"
)
# electricity left out: "先不算电费", "不含电费", "ignore power for now", "excluding electricity"
_NO_POWER = flags(
    r"(?:先|暂时|暂且)?不(?:算|计|含|考虑)\s*电费|电费\s*(?:先|暂时)?\s*不(?:算|计|考虑)"
    r"|\b(?:ignor\w*|exclud\w*|without|leav\w* out|not counting|no)\s+(?:the\s+)?(?:power|electricity)(?:\s+(?:cost|bill))?\b(?!\s+(?:draw|limit|supply))"
)
# "add 10% for storage/egress", "另加 10% 的存储和流量费": costs beside the GPU bill, as a share of it
_EXTRAS = flags(
    rf"(?:\badd|\bplus|\+|加上?|再加|另加|外加)\s*(?:another\s*|an? extra\s*|extra\s*)?{DECIMAL}\s*%\s*"
    r"(?:on top\s*)?(?:for|to cover|as|用于|给|的|作为)?\s*(?:the\s*)?"
    r"(?:storage|egress|network(?:ing)?|data transfer|bandwidth|support|存储|出网|流量|带宽|网络|杂费|其他费用)"
)
_TOKEN_BYTES = [(flags(r"\bu?int16\b|2[- ]?bytes? (?:per|a) token|每个?\s*token\s*2\s*(?:个)?字节"), 2),
                (flags(r"\bu?int32\b|4[- ]?bytes? (?:per|a) token|每个?\s*token\s*4\s*(?:个)?字节"), 4)]  # fmt: skip
_RAW_DATA = flags(
    rf"(?:原始数据|原始视频|原始图片|raw data|raw text|raw video|raw corpus|corpus|dataset|data set|数据集|语料|视频数据|training data|\bdata)\s*(?:原始文本|原始|的原始|文本|raw|总共|一共|总量)?\s*(?:is|of|有|为|是|约|大概|~|about)?\s*(?:~|about|around|roughly|约|大概)?\s*{DECIMAL}\s*(tb|pb|gb)\b"
    # "400 TB raw", "400TB of raw video", "400TB原始视频"
    rf"|{DECIMAL}\s*(tb|pb|gb)\s*(?:的\s*)?(?:of\s*)?(?:the\s*)?(?:raw|原始|crawl|web\s*(?:text|data|crawl)|text|jsonl|corpus|common\s*crawl|语料|文本|网页)"
)
# daily active users: "日活10万", "DAU 100k", "100k daily active users", "每天10万活跃用户"
_DAILY_USERS = flags(
    rf"(?:日活|\bdau\b|daily active users?)\s*(?:约|大概|有|是|为|of|is|~|about|around)?\s*(?:~|约)?\s*{NUMBER}\s*(万|k|m|million)?"
    rf"|{NUMBER}\s*(万|k|m|million)?\s*(?:的)?\s*(?:日活|\bdau\b|daily active|活跃用户|daily users)"
)
# the requests one daily active user of a chat assistant sends a day, when nobody measured it
REQUESTS_PER_USER = 10
# the tokenised shards' size, told beside the raw data's: "tokenize 后大概 40TB", "分词后 40TB", "~40TB after
# tokenization", "tokenized it's about 40TB"
_AFTER_TOKENIZING = r"(?:tokeni[sz]e|分词|token\s*化)\s*(?:之后|以后|后|完)(?:的)?\s*(?:数据|分片|大小|体积)?\s*(?:约|大概|大约|是|有|为|~)?"
_TOKENIZED_SIZE = flags(
    rf"{_AFTER_TOKENIZING}\s*(?:约|大概|~)?\s*{DECIMAL}\s*(tb|pb|gb)\b"
    rf"|{DECIMAL}\s*(tb|pb|gb)\s*(?:once|after)\s*tokeni[sz](?:ed|ation|ing)"
    rf"|tokeni[sz]ed\s*(?:it'?s|it is|is|are|to|shards?|copy|data(?:set)?)?\s*(?:is|are)?\s*(?:about|around|~|roughly)?\s*{DECIMAL}\s*(tb|pb|gb)\b"
)
# ... the B left off, in a storage question: "数据集 tokenize 后 20T"
_TOKENIZED_SIZE_T = flags(rf"{_AFTER_TOKENIZING}\s*{DECIMAL}\s*t(?![a-z])")
# a data size written without its unit's B in a storage question: "数据集 20T", "dataset is 20T"
_RAW_DATA_T = flags(
    rf"(?:数据集|数据|语料|dataset|data set|corpus|training data)\s*(?:is|of|有|为|是|约|大概|~|about)?\s*(?:~|about|around|约|大概)?"
    rf"\s*{DECIMAL}\s*t(?![A-Za-z])(?!\s*(?:tokens?|个?token|词元))"
)
_STORAGE_CONTEXT = flags(
    r"nvme|ssd|存储|硬盘|\bdisks?\b|\bstorage\b|\b[a-z]*fs\b|lustre|本地盘|几个盘|多少盘|容量"
)
# what a bare "T" or "B" after it sizes: the data ("数据集 20T"), not the model
_DATA_BEFORE = flags(
    r"(?:数据集|数据量|语料|dataset|data set|corpus|training data)\s*(?:is|of|有|为|是|约|大概|~|about)?\s*(?:~|about|around|约|大概)?\s*$"
)
# an amount that follows a budget word: "if the budget doubles to 1M", "预算加到 1M"
_BUDGET_BEFORE = flags(r"(?:budget|预算|capex|funding)\b[^.;。；?？]{0,30}$")
_KEEP_ALL = flags(
    r"\bkeep (?:all|every one|them all)\b|\ball of them\b|全部(?:保留|留着|都留)|都(?:保留|留着|要留)|一个不删"
    # "全留的话", "全都留", "全保留", "keep every checkpoint", "never delete"
    r"|全(?:都)?(?:留|保留|存)|\bkeep every (?:checkpoint|ckpt|one)\b|\bnever delet\w*"
)
# "k"/"千" thousand, "万"/"w" ten thousand ("5w step")
_STEP_UNITS = {"k": 1000, "千": 1000, "万": 10_000, "w": 10_000}
_EVERY_STEPS = flags(rf"every\s*{DECIMAL}\s*(k)?\s*steps?|每\s*{DECIMAL}\s*(k|千)?\s*(?:步|steps?)")
_RUN_STEPS = flags(rf"{DECIMAL}\s*(k|万|w)?\s*(?:training\s*)?(?:steps?\b|步)")


def _checkpoints_written(text: str) -> int | None:
    """The checkpoints a run writes when it saves every N steps and runs M: M // N ("50k steps, a checkpoint
    every 1000": 50; the run is the largest step count named); None without both, or when the run is no
    longer than the interval."""
    if not (every := _EVERY_STEPS.search(text)):
        return None
    interval = to_number(_group(every, 1, 3) or "0") * (1000 if _group(every, 2, 4) else 1)
    total = max(
        (
            to_number(m.group(1)) * _STEP_UNITS.get((m.group(2) or "").lower(), 1)
            for m in _RUN_STEPS.finditer(text)
        ),
        default=0,
    )
    return int(total // interval) if interval and total > interval else None


# the data already tokenised: "tokenized dataset is ~12TB", "分词后数据 12TB"
_TOKENIZED = flags(r"tokeni[sz]ed|分词后|token\s*化后?|(?:token|tok)\s*ids?")
# raw data still to be tokenized: "we will tokenize it", "tokenize之后需要多少存储", "after tokenization"
_TO_TOKENIZE = flags(
    r"\b(?:will|to|going to|gonna|then|and)\s+tokeni[sz]e\b|\bafter tokeni[sz](?:ation|ing)\b|\bonce tokeni[sz]ed\b"
    r"|tokeni[sz]e\s*(?:之后|以后|后|完)|分词(?:之后|以后|后|完)|token\s*化(?:之后|以后|后)"
    # "how much disk for raw + tokenized?", "原始加分词后一共多少": both copies asked
    r"|\braw\s*(?:\+|and|&|plus)\s*(?:the\s*)?tokeni[sz]ed\b|原始(?:数据)?\s*(?:\+|加|和)\s*分词后"
)
# a compressed delivery: "jsonl.zst", "zstd compressed", ".gz", "压缩后40TB"
_COMPRESSED = flags(r"\.zst\b|\bzstd\b|\.gz\b|\bgzip(?:ped)?\b|\bcompressed\b|压缩(?:过|后|的|包|格式)")
_GZIP = flags(r"\.gz\b|\bgzip")
_COMPRESSION_RATIO = flags(
    rf"(?:compression ratio|compresses|压缩比|压缩率)\s*(?:of|is|是|约|大概|about|~|=)?\s*{DECIMAL}\s*(?:x|:\s*1|倍)?"
)
# the share cleaning keeps: "清洗后大概剩20%", "after dedup about 30% is left", "keep only 20% after filtering";
# and the share it drops: "filtering throws away 80%", "过滤掉80%"
_KEPT_SHARE = flags(
    rf"(?:清洗|过滤|去重|筛选|处理|质量过滤)\s*(?:完|之后|以后|后)?\s*(?:大概|大约|约|只|还)?\s*(?:剩下?|保留|留下|剩余)\s*(?:大概|大约|约|只有)?\s*{DECIMAL}\s*%"
    rf"|\b(?:after|post)[- ](?:cleaning|filtering|dedup\w*|quality filtering)[^.?;]{{0,24}}?{DECIMAL}\s*%\s*(?:of it\s*)?(?:remains?|is left|left|survives?|is kept|kept)"
    rf"|\b(?:keep|keeps|retain|retains|left with|survives?)\s*(?:only\s*|about\s*|roughly\s*|~)?{DECIMAL}\s*%\s*(?:of it\s*)?(?:after|once|post)[- ]?(?:cleaning|filtering|dedup)"
)
_DROPPED_SHARE = flags(
    rf"(?:cleaning|filtering|dedup\w*)\s*(?:drops|removes|throws away|cuts|discards)\s*(?:about\s*|~|roughly\s*)?{DECIMAL}\s*%"
    rf"|(?:清洗|过滤|去重)\s*掉\s*(?:大概|约)?\s*{DECIMAL}\s*%"
)
_DISK_SIZE = flags(
    rf"(?:单盘|每块盘|每块硬盘|每盘|单块盘|单块硬盘)\s*(?:是|为|用)?\s*{DECIMAL}\s*(?:tb?|t)\b"
    rf"|{DECIMAL}\s*(?:tb|t)\s*(?:的)?\s*(?:hdds?|disks?|drives?|硬盘|盘|机械盘)"
)
_GROWTH = flags(
    rf"(?:每天|每日|per day|a day|daily)\s*(?:新增|增加|增长|grow(?:s|ing)?(?:\s*by)?|add(?:s|ing)?|ingest(?:s|ing)?)?\s*{DECIMAL}\s*(tb|gb|pb)\b"
    rf"|{DECIMAL}\s*(tb|gb|pb)\s*(?:per day|a day|/\s*day|每天|daily)"
)
_REPLICAS = flags(
    rf"{NUMBER}\s*(?:个)?\s*副本|{INTEGER}\s*(?:x\s*)?replicas?\b|replication factor (?:of )?{INTEGER}|{INTEGER}[- ]way replicat"
    # "keep roughly 3x for dedup stages", "存3份", "留三份"
    rf"|(?:keep|store|hold|budget)\s*(?:roughly|about|around|~)?\s*{INTEGER}\s*(?:x|×|times|copies)(?![a-z\d])|(?:存|留|保留|备)\s*{NUMBER}\s*份"
)
_RETENTION = flags(
    rf"(?:存|保存|保留|keep(?:ing)?(?: it| them| all(?: of)? (?:it|them)| every(?: one| checkpoint)?| all)?|kept|retain(?:ed)?|store[ds]?)\s*(?:for\s*)?(?:the\s*)?(?:last|past|最近|最后)?\s*{NUMBER}\s*(?:个)?\s*(年|个月|月|天|小时|周|星期|礼拜|days?|weeks?|months?|years?|hours?|h)(?![A-Za-z])"
)
_RETENTION_HALF_YEAR = flags(
    r"(?:存|保存|保留|keep(?:ing)?(?: it| them)?|retain(?:ed)?)\s*(?:for\s*)?(?:半年|half a year|six months)"
)
_PERIODS = [(flags(r"per month|\bmonthly\b|a month|/\s*month|/mo\b|每个?月|月度|月(?:电费|费用|账单)"), "month"),
            (flags(r"per year|\byearly\b|\bannual|a year|/\s*yr\b|/\s*year|每年|一年|年(?:电费|费用)|全年"), "year"),
            (flags(r"per day|\bdaily\b|每天"), "day")]  # fmt: skip
# the exchange rate a user gives: "use 7.2", "汇率7.1", "1 USD = 7.25 CNY", "at 7.2 RMB/USD", "按7.2换算"
_FX_RATE = flags(
    r"(?:汇率|exchange rate|\bfx(?: rate)?|\brate|\buse|\bat|按)\s*(?:of|=|:|为|是|按|取)?\s*([5-8](?:\.\d+)?)(?!\d|\.\d|\s*(?:%|kw|/\s*kwh|元/度|/\s*(?:hr|hour|h)\b))"
    r"|\b1\s*(?:usd|\$|us\$|美元|dollar)\s*=\s*([5-8](?:\.\d+)?)"
    r"|([5-8](?:\.\d+)?)\s*(?:rmb|cny|yuan|元|人民币)?\s*(?:/|per|每|to)\s*(?:the\s*|a\s*|one\s*)?(?:usd|\$|美元|dollar)"
)
_PER_DOLLAR = flags(r"\s*(?:/|per|每)\s*(?:usd|us\$|\$|美元|dollars?)")
# "7.1 to the dollar": a rate stated against the dollar is a rate whatever else the message says
_FX_CONTEXT = flags(
    r"rmb|cny|yuan|人民币|汇率|exchange|\bfx\b|换算|美元|\b(?:to|per) (?:the |a |one )?dollar\b"
)
_TARGET_CURRENCY = [
    (
        flags(
            r"\b(?:in|to|into)\s*(?:cny|rmb|yuan|chinese yuan|人民币|万元)|万元\s*(?:是|大概)?\s*多少|(?:换|换算|折合|折)成?\s*(?:人民币|rmb|cny)|人民币\s*(?:是|大概)?\s*多少|(?:用|按)人民币"
        ),
        "CNY",
    ),
    (
        flags(
            r"\b(?:in|to|into)\s*(?:usd|dollars|us dollars|美元)(?![A-Za-z])|(?:换|换算|折合|折)成?\s*(?:美元|美金|usd)|(?:美元|美金)\s*(?:是|大概)?\s*多少|(?:用|按)美元"
        ),
        "USD",
    ),
]
# what something saves is asked: "能省多少", "省多少显存", "how much does it save", "how much would offload save"
_SAVES = flags(
    r"省(?:下|掉)?(?:多少|几|了多少)|节省(?:多少|几)|\bhow much\b[^?.]{0,60}\bsav(?:e|es|ing)\b|\bsaves? how much\b"
)
_OFFLOAD = flags(
    r"\boffload|卸载|optimizer(?: states?)? (?:goes|go|moved?|moving|lives?|sits?|kept|on|in|to|into) (?:to |on |in |into )?"
    r"(?:the )?(?:cpu|host|system ram|ram)\b|优化器(?:状态)?\s*(?:放|放到|放在|挪到|移到|搬到|存到|丢到)\s*(?:cpu|内存|主机)"
)
# offload asked about, not chosen: "要不要开offload", "do we need offload?", "是否需要卸载"
_OFFLOAD_ASKED = flags(
    r"(?:要不要|需不需要|需要不需要|是否(?:需要|要)?|用不用|开不开|该不该|有没有必要)\s*(?:开|开启|用|打开|做)?\s*(?:cpu\s*)?(?:offload|卸载)"
    r"|\b(?:do|would|will|should) (?:we|i|you) (?:need|have|want) (?:to )?(?:use |turn on |enable )?(?:cpu )?offload|\bneed (?:cpu )?offload\s*\?|\boffload (?:needed|necessary|required)\s*\?"
)
# offload ruled out: "NO offload", "without CPU offload", "不用offload", "不卸载"
_NO_OFFLOAD = flags(
    r"\b(?:no|without|w/o|not|never|don'?t|disabled?)\s+(?:any\s+)?(?:cpu\s+|optimizer\s+)?offload"
    r"|不\s*(?:想|要|愿意|打算|希望)?\s*(?:用|开|做|要|想|搞|上)?\s*(?:cpu\s*)?(?:offload|卸载)|关(?:掉|闭)\s*(?:cpu\s*)?(?:offload|卸载)"
    r"|别\s*(?:用|开|搞|上)?\s*(?:cpu\s*)?(?:offload|卸载)|\b(?:rather|prefer) not (?:to )?(?:cpu[- ])?offload"
)
# a card's own figures asked about ("H200的显存带宽是多少", "TDP of a B200", "how much memory does an MI300X have")
# "一台几张卡", "how many GPUs in one DGX": the machine's make-up, which the card's form factor states
_PER_SERVER_COUNT = (
    r"(?:一台|每台|单台|一个节点|每个节点)\s*(?:机器|服务器)?\s*(?:有|装|放|配|是)?\s*(?:几|多少)\s*(?:张|块|颗)?\s*(?:卡|gpu|npu)"
    r"|how many (?:gpus|cards|npus|accelerators) (?:per|in (?:a|one|each)|does (?:a|one|each)) (?:server|node|box|machine)"
)
# a price asked by "报价", not quotes compared: "几家厂商报价差不多 怎么选" asks which vendor, not a price
_QUOTE = r"报价(?!\s*(?:都)?\s*(?:差不多|接近|相近|类似|一样|差距|区别|单))"
_SPEC_FIELDS = [
    # prices: by the hour in the cloud, of a whole 8-GPU server, or of one card (one of the three, below)
    (flags(r"per (?:gpu[- ])?hour|hourly|\brent(?:al|ing)?\b|to rent|租|每小时|每卡时|卡时价|云上(?:价格|多少钱)"), "cloud_usd_per_gpu_hour"),
    (flags(rf"(?:server|服务器|整机|\bdgx\b|\bhgx\b|\bnode\b|\bbox\b|\d\s*(?:x|卡)\s*\w*\s*(?:server|服务器|机器))[^?？。]{{0,30}}(?:price|\bcost|多少钱|价格|售价|{_QUOTE})"
           r"|(?:price|cost|多少钱|价格|how much (?:is|does|would|are))[^?？。]{0,30}(?:server|服务器|整机|\bdgx\b|\bhgx\b|\bnode\b|\bbox\b)"), "server_price_usd"),
    (flags(rf"\bprice\b|\bcost(?:s)?\b|how much (?:is|does|do|are|would)|多少钱|价格|售价|{_QUOTE}|几万|贵不贵"), "price_usd"),
    (flags(r"nvlink|interconnect|互联|scale[- ]up|卡间|多卡通信|gpu[- ]to[- ]gpu|\bp2p\b"), "scale_up_bandwidth_gb_s"),
    (flags(r"(?:memory|hbm|vram|显存|内存)\s*(?:的)?\s*bandwidth|(?:显存|内存|hbm)\s*(?:的)?\s*带宽|(?<!互联)(?<!卡间)(?<!互联 )(?<!nvlink)(?<!nvlink )(?<!interconnect )(?<!hccs)(?<!hccs )(?<!to-gpu )(?<!to gpu )(?<!scale-up )(?<!scale up )(?<!network )(?<!networking )(?<!scale-out )(?<!scale out )(?<!nic )(?<!网络)(?<!网卡)(?<!网络 )(?<!网卡 )(?:bandwidth|带宽|\bbw\b)"), "memory_bandwidth_gb_s"),
    (flags(r"how much (?:gpu |device |hbm |v)?(?:memory|ram|vram|hbm)|(?:memory|hbm|vram)\s*(?:size|capacity|容量|大小)|how many gb|\bvram\b|显存\s*(?:有|是)?\s*(?:多大|多少|容量|大小)|多大(?:的)?\s*显存|多少\s*(?:g|gb)?\s*显存|\b(?:hbm|memory) does\b|\b(?:and|on|plus)\s+(?:gpu\s+)?memory\b(?!\s*(?:bandwidth|for|to|needed|required))|(?:和|与|、)\s*显存(?!\s*带宽)"
           # a list of the figures wanted: "hbm, bw, bf16 tflops, tdp", "显存 带宽 算力 功耗"
           r"|\b(?:hbm|memory|vram)\s*[,/、，]|显存\s*[,/、， ]\s*(?:带宽|算力|功耗|互联)"
           # "the h20's memory and bf16 flops", "H20的显存和算力": the memory, then another figure
           r"|\b(?:hbm|memory|vram)\s*(?:and|&|\+)\s*(?!bandwidth)|显存\s*(?:和|与|跟|及)\s*(?!带宽)"
           # "MI325X 的 HBM 容量", "显存大小", "hbm capacity"
           r"|(?:hbm|显存|memory)\s*(?:的)?\s*(?:容量|大小|capacity)|(?:hbm|memory|显存)\s*(?:跟|和|与)\s*(?:power|功耗|tdp)"
           # "what's the H20's memory", "memory of the h20?", "h100 memory?": the card's memory, asked plainly
           r"|\bwhat(?:'s|s| is)\s+(?:the\s+)?(?:[\w.-]+(?:\s+[\w.-]+){0,3}?)?\s*(?:'s)?\s+(?:gpu\s+)?(?:memory|vram|hbm)\b(?!\s*(?:bandwidth|\bbw\b))"
           r"|\b(?:memory|vram|hbm)\s+(?:of|on)\s+(?:the\s+|an?\s+|one\s+)?(?!host|server|node|cpu)[a-z]"
           r"|\b(?:memory|vram|hbm)\s*\?\s*$"
           # "MI355X 的 HBM 多大", "memory 多少": the English word, asked in Chinese
           r"|\b(?:hbm\d?e?|memory|vram)\s*(?:有|是)?\s*(?:多大|多少\s*(?:g|gb)?(?!\s*(?:带宽|bandwidth)))"), "memory_gb"),
    (flags(r"\btdp\b|power (?:draw|consumption|usage|rating|envelope|budget of (?:the|one|a) (?:card|gpu))|how (?:much|many) (?:power|watts)|\bwatts?\b|功耗|耗电|多少瓦|功率"
           # "need bf16 tflops, mem bw, power": power in a list of figures asked
           r"|(?:,|\band|、|和|跟|与|及|\+)\s*power\b(?!\s*(?:bill|cost|supply|budget|feed|draw of the (?:room|hall)))"), "tdp_w"),
    (flags(r"\bfp8\b"), "fp8_dense_tflops"),
    (flags(r"\bfp16\b|半精度"), "fp16_dense_tflops"),
    (flags(r"\bbf16\b"), "bf16_dense_tflops"),
    (flags(r"\btf32\b"), "tf32_dense_tflops"),
    (flags(r"\bfp32\b|单精度"), "fp32_tflops"),
    (flags(r"when (?:was|did)[^?]{0,30}(?:launch|release|come out|ship)|launch(?:ed)? (?:year|date)|哪年|发布(?:时间|年份)|什么时候(?:发布|出的|上市)"), "launch_year"),
    (flags(r"form factor|\bsxm\b[^?]{0,20}\bpcie\b|\bpcie\b[^?]{0,20}\bsxm\b|形态|板卡形式|" + _PER_SERVER_COUNT), "form_factor"),
]  # fmt: skip
PER_SERVER_COUNT = flags(_PER_SERVER_COUNT)
_SPEC_ASK = flags(
    r"多少|多大|几|是啥|是什么|有多|\btell me (?:the|its|their)\b|\bhow (?:much|many|fast|big|high)|\bwhat(?:'s|s|\s+is|\s+are|\s+was|\s+does|\s+do)\b|\bspecs?\b|规格|参数"
    # "tell me what an H100 costs", "what a B200 goes for": the price, asked as a clause
    r"|\bwhat (?:an?|the|one)\b[^.?？。]{0,30}?\b(?:costs|goes for|sells for)\b"
    # "FP8 TFLOPS of the B200?" (the card's name is already taken out of the text here)
    r"|\b(?:t?flops|tdp|bandwidth|bw|vram|hbm|memory)\s+(?:of|on|for)(?:\s+(?:the|an?))?\s*[?？.]?\s*$"
    # a list of figures: "H20: memory, bandwidth and NVLink per card", "显存、带宽、功耗"
    r"|(?:memory|bandwidth|nvlink|tdp|tflops|hbm|vram|显存|带宽|功耗|算力|互联)\s*(?:,|，|、|and|和|及|/|\+)\s*"
    r"(?:memory|bandwidth|nvlink|tdp|tflops|hbm|vram|power|bf16|fp8|fp16|显存|带宽|功耗|算力|互联)"
    # "quick table pls", "side by side", "列个表": figures laid out, asked
    r"|\b(?:quick |a |in a )?table\b|\bside[- ]by[- ]side\b|列(?:个|一个)?表|对比表|表格"
    r"|\bcompare\b[^?]{0,40}\b(?:on|by|in)\b|对比[^？?]{0,20}(?:的)?(?:fp8|bf16|fp16|带宽|功耗)"  # "compare B200 and H100 on FP8"
)
# a card asked about as a whole: its spec sheet's headline figures answer ("tell me about Gaudi 3", "H20参数")
_OVERVIEW = flags(
    r"\btell me about\b|\bspecs?\b|spec sheet|specifications|\boverview\b|介绍(?:一下)?|规格|参数|配置如何|什么水平"
)
_NOT_A_PRICE = flags(
    r"\bpower\b|electric|energy|电费|电力|耗电|\btrain(?:ing)?\b|训练|\bserv(?:e|ing)\b|推理|\btokens?\b|\bbill\b|\blease|租赁|"
    r"\bmonthly\b|\byearly\b|per (?:month|year)|每月|每年|\btco\b|总成本|\bcooling\b|制冷|\bstorage\b|存储|network|网络|交换机|switch"
)
# the model states alone asked about: weights, gradients and optimizer, no activations
_STATES_ONLY = flags(
    r"\b(?:not counting|excluding|excl\.?|without|ignor(?:e|ing)|no|leave out|leaving out)\s+(?:the\s+)?activations?\b"
    r"|\bjust (?:to )?(?:hold|store|fit) (?:the )?(?:training |model )?states\b|\bonly (?:the )?(?:model|training) states\b"
    r"|不算激活|不含激活|不计激活|不考虑激活|(?:只|仅)(?:算|放|考虑|看)?(?:模型|训练)状态"
)
# one part of training memory asked alone: the optimizer's states, or the activations
_OPTIMIZER_ONLY = flags(
    r"\b(?:just|only|solely)\s+(?:the\s+)?(?:adam\w*\s+)?optimi[sz]er(?:\s+states?)?\b|\boptimi[sz]er\s+states?\s+(?:only|alone)\b"
    r"|\bhow (?:much|big|large)[^?.]{0,30}\boptimi[sz]er\s+states?\b"
    r"|(?:只|仅)(?:算|看|问|要)?\s*优化器|优化器(?:状态)?[^，,。？?\d]{0,6}?(?:占|要|需要|有)\s*(?:多少|多大)"
)
_ACTIVATIONS_ONLY = flags(
    r"\bactivation\s+(?:memory|mem)\b|\b(?:just|only)\s+(?:the\s+)?activations?\b|\bactivations?\s+(?:only|alone)\b"
    r"|\bhow (?:much|big|large)[^?.]{0,30}\bactivations?\b"
    r"|激活(?:值)?[^，,。？?\d]{0,6}?(?:占|要|需要|有)\s*(?:多少|多大)|(?:只|仅)(?:算|看|问|要)?\s*激活(?!重计算)"
)
# the PCIe version of a card just named: "跟 pcie 版比呢", "vs the pcie version"
_PCIE_VERSION = flags(r"pcie\s*(?:版本?|款|的(?:卡|版)|versions?|variants?|cards?|ones?\b|model)")
# the server's memory named as such, against the card's: "system memory", "服务器内存" vs "GPU memory", "显存"
_SERVER_MEMORY = flags(r"\b(?:system|host|cpu|server|main|node)\s+(?:memory|ram)\b|(?<!显)内存")
_GPU_MEMORY_WORDS = flags(r"\b(?:gpu|card|device)\s+memory\b|\bhbm\b|\bvram\b|显存")
_OVERVIEW_FIELDS = ("memory_gb", "memory_bandwidth_gb_s", "bf16_dense_tflops", "fp8_dense_tflops", "tdp_w")
_WHY = flags(
    r"\bwhy\b|\bgains?\b|benefits?|\brisks?\b|\bpros\b|\bcons\b|trade-?offs?|\bworth\b|\bshould\b"
    # "do we need NVLink?" weighs a need; "need the B200's HBM for a deck" asks for figures
    r"|\b(?:do|does|would|will|really|we|i|you|they)\s+(?:really\s+)?need\b"
    r"|为什么|好处|风险|优缺点|值不值|值得|要不要|需不需要|有什么用|作用|影响"
)
_COMPUTE_WORDS = flags(
    r"t?flops|算力|compute (?:power|performance)|\bperformance\b|\bperf\b|how fast|多快|性能"
    r"|(?:快|慢)(?:多少|几倍|多少倍)|(?:faster|slower)\b"  # "训练慢多少", "how much faster"
)

# what a comparison is judged by, first match wins: "by memory bandwidth", "性价比", "能效"
_RANK_BY = [
            # the main use named decides: "主要训练 也要跑点推理", "mostly for training, some serving"
            (flags(r"(?:主要|首先|优先)(?:是|用于|用来|拿来|做|跑)?\s*(?:训练|预训练|微调)|(?:训练|预训练|微调)为主"
                   r"|\b(?:mainly|mostly|primarily|mainly for|mostly for|primarily for)\s+(?:pre-?)?(?:training|fine-?tuning)"), "bf16_tflops"),
            (flags(r"(?:主要|首先|优先)(?:是|用于|用来|拿来|做|跑)?\s*(?:推理|部署|上线)|(?:推理|部署)为主"
                   # "fine-tune 70B (LoRA) 然后 serve", "微调完再上线": serving is where the model ends up
                   r"|(?:然后|之后|再|and then|then|后)\s*(?:serve|serving|上线|部署|推理|deploy)"
                   r"|\b(?:mainly|mostly|primarily|mainly for|mostly for|primarily for)\s+(?:inference|serving)"), "memory_bandwidth_gb_s"),
            (flags(r"[$¥]\s*(?:/|per)\s*gb\b(?!\s*/\s*s)|per gb of (?:hbm|memory|vram)|(?:that|it|cost|price)\s+per\s+gb\b(?!\s*/\s*s)|\bper\s+tflops?\s+and\s+per\s+gb\b|每\s*gb\s*(?:显存)?\s*(?:多少钱|价格|成本)|显存单价"), "usd_per_gb"),
            (flags(r"[$¥]\s*(?:/|per)\s*(?:dense\s*)?(?:bf16\s*)?[pt]flops?|每\s*[pt]flops\s*(?:多少钱|价格|成本)?|\bper\s+(?:dense\s+)?(?:bf16\s+)?[pt]flops?\b"), "usd_per_tflop"),
            # "nvlink bandwidth", "卡间互联带宽": the link's, before bandwidth alone is read as memory's
            (flags(r"(?:nvlink|interconnect|互联|scale[- ]up|gpu[- ]to[- ]gpu)\s*(?:的)?\s*(?:bandwidth|带宽|\bbw\b)"), "scale_up_bandwidth_gb_s"),
            (flags(r"bandwidth|带宽|decode|tokens?/s|吞吐"), "memory_bandwidth_gb_s"),
            (flags(r"per (?:dollar|tflop)|price[- ]performance|value for money|bang for|cost[- ]effective|性价比|单位算力(?:价格|成本)"
                   # "按 bf16 算力/价格比", "算力价格比", "每万元算力": compute per unit of money
                   r"|算力\s*(?:/|与|和|跟)?\s*(?:价格|价钱|成本|售价)\s*比|每(?:万)?元(?:的)?算力|tflops?\s*/\s*(?:price|cost|\$)"), "usd_per_tflop"),
            (flags(r"per watt|perf(?:ormance)?/w\b|(?<!scaling )(?<!parallel )(?<!linear )(?<!cost )efficien|能效|功耗比"
                   r"|每瓦|单瓦|瓦特算力|算力\s*/\s*(?:功耗|瓦)"), "tflops_per_watt"),
            (flags(r"\bfp8\b"), "fp8_tflops"),
            (flags(r"nvlink|interconnect|互联|scale[- ]up"), "scale_up_bandwidth_gb_s"),
            (flags(r"capacity|more memory|bigger memory|显存(?:大小|容量|更大|最大)|容量"), "memory_gb"),
            (flags(r"cheap(?:er|est) to rent|rent(?:al)? price|hourly|租(?:金|用|赁)?(?:价格|便宜)"), "cloud_usd_per_hour"),
            # "vs the H100 for pre-training speed?": said, so an earlier turn's criterion is not inherited
            (flags(r"pre-?train|training speed|\btflops\b|算力|训练(?:速度|快|慢)|(?:faster|slower)\b|(?:快|慢)(?:多少|几倍)|(?:哪个|哪家|谁)[^，,。？?]{0,12}(?:更)?(?:快|慢)"), "bf16_tflops")]  # fmt: skip
_HALF_YEAR = flags(r"(?:租|用|跑|算|按|只用)\s*半年|\b(?:for|over) half a year\b")
_MONTHS = flags(
    rf"{NUMBER}\s*(?:个)?\s*-?\s*(?:months?|个月)(?!\s*(?:内|以内|之内))"
)  # "an 18-month project"

_RELATIVE_TIME = {"一个月": 30, "半个月": 15, "一周": 7, "两周": 14, "半年": 182, "一年": 365, "一季度": 91}
DAYS_PER = {
    "day": 1,
    "days": 1,
    "天": 1,
    "日": 1,
    "week": 7,
    "weeks": 7,
    "周": 7,
    "星期": 7,
    "month": 30,
    "months": 30,
    "月": 30,
    "hour": 1 / 24,
    "hours": 1 / 24,
    "hr": 1 / 24,
    "hrs": 1 / 24,
    "h": 1 / 24,
    "小时": 1 / 24,
}


def _around(text: str, start: int, end: int) -> str:
    """The words of an amount's own clause on both sides: "托管每年每台9.6万", "$12k per month each"."""
    before = re.split(r"[,;，；。()（）]", text[max(0, start - 12) : start])[-1]
    return before + clause(text, start, end + 12)


# a card replaced by another: "swap(ped) the H100s for H200s", "replace A100 with H100", "把H100换成H200", "H100 → H200"
_SWAP_VERB = flags(
    r"(?:\bswap\w*|\breplac\w*|\bswitch\w*|\btrad\w*|\bexchang\w*|\bupgrad\w*|把|将)[^.?!;。？；]{0,24}$"
)
_SWAP_TO = flags(r"^[a-z\s]{0,4}\s(?:for|with|to|by)\s+(?:the\s+)?(?:[\d,]+\s*(?:x|×)?\s*)?$")
_SWAP_ARROW = flags(
    r"^\s*s?\s*(?:换成|换为|换到|改成|改为|替换成|替换为|升级到|升级成|→|->|=>)\s*(?:[\d,]+\s*(?:张|块|台|x|×)?\s*)?$"
)

_HOW_MUCH_BETTER = flags(
    r"\b(?:faster|slower|quicker|speed-?ups?|how much (?:more|better|quicker)|gains?)\b|\bvs\.?\b|\bversus\b"
    r"|快多少|慢多少|快几倍|提升|差多少|差距|对比|比较|划算"
)


def _swapped(text: str, old: Mention, new: Mention) -> bool:
    """Whether ``new`` replaces ``old``: a swap verb before ``old`` and "for/with/to" between them, or "换成" / an
    arrow between them ("H100 vs H200", "H100 or H200", "compare H100 with H200" are no swap)."""
    if _HOW_MUCH_BETTER.search(text):
        return False  # "从A100升级到H100能快多少": the two cards weighed, not one swapped for the other
    between = text[old.end : new.start]
    if _SWAP_ARROW.match(between):
        return True
    return bool(_SWAP_TO.match(between) and _SWAP_VERB.search(text[max(0, old.start - 40) : old.start]))


def _fleet_total(text: str, match: re.Match[str]) -> bool:
    """ "16 servers pull about 150 kW total": the servers' figure is their sum, not each one's."""
    after, before = text[match.end() : match.end() + 20], text[max(0, match.start() - 16) : match.start()]
    if _TOTAL_AFTER.search(after) or _TOTAL_BEFORE.search(before):
        return True
    value = float(_matched(match) or 0)  # (each alternative of _SERVER_KW has the one figure)
    return value > _MAX_SERVER_KW and not _EACH.search(match.group(0) + after[:8])


def _first(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    return pattern.search(text)


# a card that cannot be had, said right after its name ("H100买不到", "H100s are sold out") or before it
# ("can't get H100s", "no H100 available", "买不到H100")
_UNAVAILABLE_AFTER = flags(
    r"^\s*s?\s*(?:现在|目前|已经|根本|都|也)?\s*(?:买不到|缺货|拿不到|没货|用不了|不能买|不让买|禁运|被禁|断供|买不了)"
    r"|^\s*s?\s*(?:is|are)\s*(?:not available|unavailable|sold out|out of stock|off the table|banned|export[- ]controlled)"
    r"|^\s*s?\s*(?:not available|unavailable|sold out)"
)
_UNAVAILABLE_BEFORE = flags(
    r"(?:can'?t|cannot|can not|couldn'?t|unable to)\s+(?:get|buy|source|obtain)\s+(?:any\s+)?$|\bno\s+$|买不到\s*$|拿不到\s*$"
)


_LISTED_WITH = re.compile(r"^\s*(?:/|,|，|、|or|and|&|和|或|及)\s*$", re.IGNORECASE)


def _unavailable(text: str, mention: Mention, cards: list[Mention]) -> bool:
    """Whether the card named at ``mention`` is one the user says they cannot get; words before it count only
    when no other card stands between ("H100买不到 H20和910B…": the 买不到 is the H100's)."""
    start = max(0, mention.start - 24)
    other_before = any(start <= m.end <= mention.start for m in cards if m is not mention)
    listed = next((m for m in reversed(cards) if m.end <= mention.start), None)
    if listed and _LISTED_WITH.match(text[listed.end : mention.start]) and _unavailable(text, listed, cards):
        return True  # "can't buy h100/h200", "H100、H200都买不到": each card of the list
    return bool(
        _UNAVAILABLE_AFTER.search(text[mention.end : mention.end + 24])
        or (not other_before and _UNAVAILABLE_BEFORE.search(text[start : mention.start]))
    )


def _rack_count(packed: re.Match[str]) -> int | None:
    """The servers one rack holds, as written: a digit, a Chinese numeral, or "one"."""
    written = _group(packed, 1, 2) or "0"
    return 1 if written.lower() in {"one", "a single"} else int(to_number(written)) or None


def _group_start(match: re.Match[str]) -> int:
    """Where the first group that matched begins, from the match's start (its length if none did)."""
    starts = [match.start(i) for i in range(1, (match.re.groups or 0) + 1) if match.group(i)]
    return (min(starts) if starts else match.end()) - match.start()


def _group(match: re.Match[str], *indexes: int) -> str | None:
    return next((match.group(i) for i in indexes if match.group(i)), None)


def _matched(match: re.Match[str]) -> str | None:
    """The first group that matched, whichever alternative of the pattern did."""
    return next((group for group in match.groups() if group), None)


_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
_SPELLED = re.compile(
    r"\b("
    + "|".join(_NUMBER_WORDS)
    + r")(?=[\s-]+(?:days?|weeks?|months?|years?|hours?|nodes?|servers?|boxes|machines"
    r"|racks?|checkpoints?|epochs?|copies|gpus?|cards?|accelerators?"
    # a card's model number: "two 4090s", "four H100s", "eight MI300X"
    r"|(?:rtx\s*)?[a-z]{0,3}\d{2,4}[a-z]{0,2}s?)\b)",
    re.IGNORECASE,
)


# a figure the message replaces: "2T tokens not 1T", "64 nodes instead of 32", "用2T而不是1T"
_SUPERSEDED = flags(
    r"(?<=[\w%$¥)])\s*,?\s*(?:\bnot|\binstead of|\brather than|而不是|不是)\s*"
    r"(~?\s*[$¥]?\d[\d.,]*\s*(?:[kmbt]\b|万|亿|%)?)(?![\d.])"
)


def _superseded(text: str) -> str:
    """``text`` with the figures it says are no longer so blanked out, at the same offsets: the message's
    own figure stands ("2T tokens not 1T" is 2T tokens, and 1T is no model size)."""
    replaced = [
        match.span(1)
        for match in _SUPERSEDED.finditer(text)
        if re.search(r"\d", text[max(0, match.start() - 24) : match.start()])
    ]
    return strip(text, replaced)


# "…on one 8x A100 node, or do we need two nodes?", "8卡够吗，还是得16卡": the larger setup asked about as the
# alternative to the one given
_ALTERNATIVE_ASKED = flags(
    r"\bor\s+(?:do|would|will|should|must|shall)\s+(?:we|i|you)\s+(?:really\s+)?"
    r"(?:need|have\s+to|go|move|jump|step\s+up|buy)\b[^.?!。？！]*"
    r"|还是\s*(?:说)?\s*(?:得|要|需要|必须|只能)[^。？！?.!，,]*"
)
# ... and the counts in it: "two nodes", "16卡", "两台"
_ALTERNATIVE_COUNT = flags(
    rf"{NUMBER}\s*(?:x\s*)?(?:台|张卡|张|卡|个节点|节点)|{NUMBER}\s*(?:nodes?|servers?|boxes|machines|gpus?|cards?)\b"
)


# a setup counted: "one 8x A100 node", "8x H100", "8卡", "两台", "单机"
_SETUP_GIVEN = flags(
    rf"{_ALTERNATIVE_COUNT.pattern}|\b\d+\s*x\s*[a-z]|\b(?:one|a single|single|an?)\s+(?:[\w-]+\s+){{0,4}}?"
    r"(?:node|server|box|machine)\b|单机|单卡|一台"
)


def _alternative(text: str) -> str:
    """``text`` with the counts of an alternative asked about after a setup given blanked out, at the same
    offsets: "can we … on one 8x A100 node, or do we need two nodes?" is checked on the one node (whose answer
    says whether two are needed), not on two."""
    counts = [
        count.span()
        for match in _ALTERNATIVE_ASKED.finditer(text)
        # (with no setup counted before it, "is 8 enough … or do we need 16 gpus?", its count is the one)
        if _SETUP_GIVEN.search(text[: match.start()])
        for count in _ALTERNATIVE_COUNT.finditer(text, match.start(), match.end())
    ]
    return strip(text, counts)


def _spelled_out(text: str) -> str:
    """English number words before a unit as digits, padded to the same length ("two months" -> "2   months"),
    and 千瓦 as kW, so every rule that reads a count, a period or a power reads them and the spans found stay
    where they were."""
    text = _SPELLED.sub(lambda m: str(_NUMBER_WORDS[m.group(1).lower()]).ljust(len(m.group(1))), text)
    # "more than a minute": 1 minute
    text = _ONE_UNIT.sub(lambda m: m.group(0)[: m.start(1) - m.start()] + "1".ljust(len(m.group(1))), text)
    return _KILOWATTS.sub("kW", text)  # "单柜20千瓦": kW, two characters for two


# "more than a minute", "within an hour": one of a unit of time, as a span ("1200 requests a minute" and "$2.5 an
# hour" are rates, left alone)
_ONE_UNIT = re.compile(
    r"\b(?:than|within|under|over|for|about|in|takes?|taking|around|roughly|just|only)\s+(an?|one)"
    r"(?=\s+(?:minute|second|hour)\b)",
    re.IGNORECASE,
)


# "20千瓦" is 20 kW (not 千瓦时, a kWh)
_KILOWATTS = re.compile(r"千瓦(?!时)")


class SlotExtractor:
    """Reads ``Slots`` from a message; built once with the catalog's names."""

    def __init__(self, names: NameIndex) -> None:
        self._names = names
        self._rules: list[Callable[[str, Slots], None]] = [
            self._model_size, self._tokens, self._setup, self._money_and_time,
        ]  # fmt: skip

    def extract(self, text: str) -> Slots:
        return self.read(text)[0]

    def read(self, text: str) -> tuple[Slots, str]:
        """The slots of ``text``, and ``text`` with the quantities read as given blanked out ("$2.10 per
        GPU-hour" is a price, not a question about GPU-hours), for the words that ask for calculators."""
        slots = Slots()
        text = _spelled_out(text)  # "within two months": 2 months, at the same offsets
        text = _superseded(text)  # "2T tokens not 1T": the figure replaced is no quantity of the message
        text = _alternative(text)  # "…one 8x A100 node, or do we need two nodes?": the one node is checked
        mentions = self._names.find(text)
        self._named(text, mentions, slots)
        # what one stage has read is blanked out (same length, so spans stay in the text's coordinates)
        masked = _mask(text, mentions)  # "Llama 2 7B" names a preset; its "7B" is not a size
        if slots.model is None and _DEEPSEEK_V3.search(text):
            slots.model = "deepseek-v3"  # "deepseek says V3 took…": the model named in two words apart
        if unknown := _UNKNOWN_CARD.search(masked):
            # a card the catalog does not have ("910B跑70B"): named, so nothing stands in for it, and
            # its digits are no model size
            slots.unknown_gpu = unknown.group(0).strip()
            if count := _UNKNOWN_COUNT.search(masked[max(0, unknown.start() - 12) : unknown.start()]):
                slots.gpu_count = int(count.group(1))
            if written := _MEMORY_AFTER_CARD.match(masked, unknown.end()):
                slots.card_memory_gb = float(written.group(1))  # "a single A10G 24GB": that card's memory
            masked = (
                masked[: unknown.start()] + " " * (unknown.end() - unknown.start()) + masked[unknown.end() :]
            )
        if (memory := _CARD_MEMORY.search(masked)) and not _NIC_BEFORE.search(
            masked[max(0, memory.start() - 20) : memory.start()]
        ):  # ("one ConnectX-8 800G per GPU" is a link speed)
            slots.card_memory_gb = float(_group(memory, 1, 2, 3, 4, 5) or 0)  # "每卡64G显存", "64GB cards"
            if slots.gpu_count is None and (
                count := _MEMORY_CARD_COUNT.search(masked[max(0, memory.start() - 20) : memory.start()])
            ):
                slots.gpu_count = (
                    int(count.group(1)) if count.group(1) else 1
                )  # "用8张64G显存的卡", "a 48GB card"
            masked = masked[: memory.start()] + " " * (memory.end() - memory.start()) + masked[memory.end() :]
            if slots.gpu and (other := variant(self._names, slots.gpu, slots.card_memory_gb)):
                slots.gpu = other  # "a 40GB A100": that memory's variant of the card named
        if slots.gpu and slots.card_memory_gb is None:
            named = next((m for m in mentions if m.group == "accelerators" and m.id == slots.gpu), None)
            if named and (written := _MEMORY_AFTER_CARD.match(text, named.end)):
                memory_gb = float(written.group(1))
                if other := variant(self._names, slots.gpu, memory_gb):
                    slots.gpu = other  # "A100 40G": the catalog's member with that memory
                else:
                    slots.card_memory_gb = (
                        memory_gb  # "魔改 4090 48G": the card, with memory it is not sold with
                    )
        # "H20 8卡整机 110万/台，910B 8卡 95万/台": each card's server; and the hourly prices after cards
        by_card = self._quotes(masked, mentions, slots)
        self._card_mfus(text, mentions, slots)  # "~50% mfu on tpu … ~40% on h100": each card's own
        # "trn2.48xlarge at $35/hr vs p5.48xlarge at $55/hr": each chip's hour
        self._instances(text, masked, slots, by_card)
        masked = self._peaks(masked, mentions, slots)  # "910B按320T算": a peak per GPU, not 320T tokens
        masked = self._measured_runs(
            masked, slots
        )  # "64卡1.2M tokens/s, 256卡4.1M": no model size, no tokens
        money = self._money(masked, slots)  # "$300k", "每台220万": never a size or a count
        if slots.instance_gpus and slots.cloud_price_per_gpu_hour is not None:
            slots.cloud_price_per_instance = True  # the named instance's price, whatever words surround it
            slots.gpus_per_node = slots.gpus_per_node or slots.instance_gpus
        if slots.budget is not None and slots.budget in slots.server_quotes.values():
            slots.budget = None  # "MI325X $290k, H200 $330k": the first quote is not a sum to spend
        known = self._known(money, slots)  # "1.2M GPU-hours", "420 kW": never a size
        for rule in self._rules:
            rule(_blanks(known), slots)
        if _ABROAD.search(text):
            slots.site_abroad = True
        if _AIR_ONLY.search(text):
            slots.air_cooled_only = True
        if not slots.gpu and _DOMESTIC_ONLY.search(text):
            slots.gpu = _DOMESTIC_DEFAULT  # "只能用国产卡": the card a team restricted to Chinese parts most often gets
        if (
            (slots.model == "deepseek-v3" or re.search(r"\br1\b", text, re.IGNORECASE))
            and slots.params_b
            and slots.params_b < 600
            and _DISTILL.search(text)
            and (distilled := _R1_DISTILLS.get(round(slots.params_b)))
        ):
            # "deepseek-r1 70b蒸馏版": R1 distilled into a Llama or Qwen of that size, not the 671B MoE
            slots.model, slots.params_b = distilled, None
        if slots.model == "chinchilla-70b" and re.search(
            r"chinchilla[\s-]*(?:optimal|optimum|scaling|rule|law|ratio|style|tokens?|最优|比例|法则)",
            text,
            re.IGNORECASE,
        ):
            slots.model = (
                None  # "13B, chinchilla optimal token count": the rule of 20 tokens, not the 70B model
            )
        need = _SERVERS_NEEDED.search(text) if slots.servers is None else None
        if need and (slots.server_price or _OF_THEM.match(text, need.end())):
            # ("we buy 4 of them" after a server's quote: four of the machines just priced)
            slots.servers = int(_group(need, 1, 2) or 0) or None  # "$310k per HGX server, we need 4"
            if not slots.server_price and slots.gpu_count == slots.servers:
                slots.gpu_count = None  # "we buy 4 of them": the number counts machines, not GPUs
            elif slots.servers and slots.gpu_count and slots.gpu_count <= 16 and not slots.gpus_per_node:
                slots.gpus_per_node = slots.gpu_count  # "per 8xH100 server": the count is each machine's
        if (
            slots.budget
            and (slots.server_price or slots.server_quotes)
            and slots.servers is None
            and slots.gpu_count
            and slots.gpu_count <= 16
            and _PRICED_MACHINE.search(text)
        ):
            # "预算800万 … H20 8卡整机110万": the machine quoted holds 8 cards; how many the budget buys is asked
            slots.gpus_per_node, slots.gpu_count = slots.gpu_count, None
        # "$285k per 8x H100 server", "8卡机 130 万一台": a count of 16 or fewer beside a priced machine
        priced = (
            _PRICED_MACHINE.search(masked)
            if slots.server_price
            and slots.servers is None
            and slots.gpu_count
            and slots.gpu_count <= 16
            and not slots.gpus_per_node
            else None
        )
        rest = (
            masked[: priced.start()] + " " * (priced.end() - priced.start()) + masked[priced.end() :]
            if priced
            else ""
        )
        if (
            priced
            and slots.gpu_count
            and (fleet := _PLAIN_COUNT.search(rest))
            and (total := int(to_number(_matched(fleet) or "0"))) > slots.gpu_count
            and total % slots.gpu_count == 0
        ):
            # "$285k per 8x H100 server … 64 GPUs": the machine priced holds 8; the fleet is the other count
            slots.gpus_per_node, slots.gpu_count = slots.gpu_count, total
            slots.servers = total // slots.gpus_per_node
        elif priced and re.match(rf"{slots.gpu_count}\D", priced.group(0)):
            # "换 910B 8卡机 130 万一台": the count describes the machine priced, not a fleet of cards
            slots.gpus_per_node, slots.gpu_count = slots.gpu_count, None
        if (grow := _SCALE_TO_SERVERS.search(text)) and slots.servers and slots.measured_gpus is None:
            # "现在4台8卡 … 扩到16台": measured on today's servers, asked about the grown fleet
            target, per = int(to_number(grow.group(1))), slots.gpus_per_node or 8
            if target != slots.servers:
                slots.measured_gpus = slots.gpu_count or slots.servers * per
                slots.gpu_count, slots.servers = target * per, target
        if (
            slots.tokens_per_second_per_gpu
            and slots.gpu_count
            and slots.measured_gpus is None
            and (
                runs := [
                    m for m in _RUN_COUNT.finditer(text) if int(to_number(m.group(1))) != slots.gpu_count
                ]
            )
            and re.search(
                rf"(?<![\d.]){slots.gpu_count}\s*-?\s*(?:gpus?|cards|张卡|张|卡)", text, re.IGNORECASE
            )
        ):
            # "2400 tokens/s per h100 on 32 gpus … if we go to 128 gpus": measured on the first, asked of the second
            target = int(to_number(runs[-1].group(1)))
            if target > 0 and text.find(runs[-1].group(0)) > text.find(str(slots.gpu_count)):
                slots.measured_gpus, slots.gpu_count = slots.gpu_count, target
        if slots.nodes_per_rack and slots.racks is None and slots.servers:
            slots.racks = -(-slots.servers // slots.nodes_per_rack)  # 16 servers, 2 per rack: 8 racks
        if slots.servers == 1 and PER_SERVER_COUNT.search(text):
            slots.servers = None  # "一台几张卡": what one machine holds, not a plan of one server
        if (
            slots.model
            and slots.params_b
            and (active := self._names.moe_active_b.get(slots.model))
            and abs(slots.params_b - active) <= 0.05 * active
        ):
            # "Mixtral 8x22B … basically a 39B model": the active size; memory is the named model's total
            slots.params_b = None
        if slots.card_prices:
            slots.budget = slots.gpu_price = None  # each card's own price, not a budget or one GPU's price
        if (
            slots.model
            and slots.params_b
            and (size := self._names.model_params_b.get(slots.model))
            and abs(slots.params_b - size) > 0.15 * size
            and not _OWN_SIZE.search(text)
        ):
            # "llama-3.1-70B … or should I stick to 8B?", "Qwen2.5-14B 和 7B": the other size is another option,
            # not the named model's size; the model named keeps its own shape
            slots.params_b = None
        if (
            slots.servers
            and slots.servers > 1
            and slots.gpu_count
            and slots.gpu_count <= 16
            and (
                slots.gpu_count == slots.gpus_per_node
                or (not slots.gpus_per_node and (_counts_each_machine(text) or _PRICED_MACHINE.search(text)))
            )
        ):
            # "2 nodes of H100, 8 per node", "2台服务器 每台8张H100": the count is each machine's
            slots.gpus_per_node = slots.gpu_count
            slots.gpu_count = slots.servers * slots.gpu_count
        if slots.gpu_hours and slots.gpu_count == slots.gpu_hours and _COUNT_OF_HOURS.search(text):
            slots.gpu_count = None  # "2000 A100 GPU-hours": the hours' number, not a count of GPUs
        if slots.measured_runs:
            # "64卡1.2M tokens/s … 256卡4.1M": two runs' totals, not a rate per GPU to time a run with
            if (slots.tokens_per_second_per_gpu or _PER_GPU_RATE.search(text)) and not slots.measured_totals:
                # "8 GPUs at 3,000 tokens/s per GPU, 32 at 2,800": each run's total is its rate x its GPUs
                slots.measured_runs = [(n, r * n) for n, r in slots.measured_runs]
            slots.tokens_per_second_per_gpu = None
        if (
            slots.checkpoint_tb
            and _TRANSFER_CUE.search(text)
            and (link := _link_rate(masked, slots.checkpoint_tb))
        ):
            # "2x200G to the storage fabric … how long to push a 1 TB shard": the link the copy goes over
            ports = int(link.group(1)) if link.group(1) else 1
            slots.transfer_gbit = (
                ports * float(link.group(2)) * (0.001 if (link.group(3) or "").lower() == "m" else 1)
            )
        if slots.model is None and slots.params_b and (shape := _ARCHITECTURE.search(text)):
            slots.model = self._preset(shape.group(1), shape.group(2), slots.params_b)
        given = [i for i, (was, now) in enumerate(zip(masked, known, strict=True)) if was != now]
        rest = strip(text, [(i, i + 1) for i in given])
        return slots, rest

    def _preset(self, family: str, version: str, params_b: float) -> str | None:
        """The catalog preset of ``family`` ``version`` ("llama", "3") within 10% of ``params_b``, if any."""
        family = family.lower()
        prefixes = (f"{family}-{version}-", f"{family}{version}-")
        near = [
            (abs(size - params_b), model)
            for model, size in self._names.model_sizes.items()
            if model.startswith(prefixes) and abs(size - params_b) <= 0.1 * params_b
        ]
        return min(near)[1] if near else None

    def _named(self, text: str, mentions: list[Mention], slots: Slots) -> None:
        gpus = [m for m in mentions if m.group == "accelerators"]
        models = [m for m in mentions if m.group == "models"]
        servers = [m for m in mentions if m.group == "servers"]
        if servers:
            slots.server = servers[
                0
            ].id  # "8台DGX H100": the servers' own count and power come from the catalog
            count = _SERVER_COUNT.search(text[max(0, servers[0].start - 16) : servers[0].start])
            if count:
                slots.servers = int(to_number(count.group(1)))
        if models:
            slots.model = models[-1].id  # "换成Llama 3 70B" names the newest choice last
        # "现在H100买不到 H20和910B哪个适合训练": a card that cannot be had is the setting, not a candidate
        ruled_out = [m for m in gpus if _unavailable(text, m, gpus)]
        if ruled_out and len(ruled_out) < len(gpus):
            gpus = [m for m in gpus if m not in ruled_out]
        if len(gpus) >= 2 and gpus[0].id != gpus[1].id and _swapped(text, gpus[0], gpus[1]):
            # "swapped the 64 H100s for 64 H200s", "把H100换成H200": the card swapped in is the one to size
            gpus, slots.swapped = gpus[1:], True
        if gpus:
            slots.gpu = gpus[0].id
            sized = _MEMORY_BEFORE.search(text[max(0, gpus[0].start - 10) : gpus[0].start])
            if sized and (other := variant(self._names, slots.gpu, float(sized.group(1)))):
                slots.gpu = other  # "a 40GB A100": that memory's variant of the card named
            slots.other_gpus = list(dict.fromkeys(m.id for m in gpus[1:] if m.id != gpus[0].id))
            pcie = re.sub(
                r"-sxm\w*$", "-pcie", gpus[0].id
            )  # "h100-sxm" -> "h100-pcie", "a100-80gb-sxm" -> ...
            if (
                _PCIE_VERSION.search(text)
                and pcie in self._names.accelerator_ids
                and pcie not in {slots.gpu, *slots.other_gpus}
            ):
                # "H100 的 nvlink 带宽多少 跟 pcie 版比呢": the same card's PCIe version beside it
                slots.other_gpus.append(pcie)
            self._gpu_count(text, gpus[0], slots)
            # "4x 4090 or 2x 5090": each card with its own count, builds weighed against each other
            counted = {
                m.id: int(c.group(1).replace(",", "")) if c.group(1)[0].isdigit() else 1
                for m in gpus
                if (c := _BUILD_COUNT.search(text[max(0, m.start - 10) : m.start]))
            }
            for m in gpus:
                # "2 nodes of 8x H100 or 1 node of 8x H200": machines of so many cards, each option its own
                if shape := _MACHINES_OF_BEFORE.search(text[max(0, m.start - 30) : m.start]):
                    word = shape.group(1).lower()
                    machines = {"a": 1, "an": 1, **_WORD_COUNT}.get(word) or int(to_number(word))
                    counted[m.id] = machines * int(to_number(shape.group(2)))
            if len(counted) >= 2 and len(set(counted.values())) > 1:
                slots.card_counts = counted
            for again in (m for m in gpus[1:] if m.id == gpus[0].id):
                if slots.gpu_count is not None or slots.servers is not None:
                    break
                # "a rented A100 costs $1.60 … or buy 16 A100s": the count stands at a later mention of the card
                self._gpu_count(text, again, slots)
        plain = _mask(text, mentions)
        if shape := _INSTANCE_SHAPE.search(text):
            # "8卡实例每小时180元，用64卡": the instance's GPUs, not the count rented
            per = int(to_number(shape.group(1)))
            slots.gpus_per_node = per
            plain = plain[: shape.start()] + " " * (shape.end() - shape.start()) + plain[shape.end() :]
            if slots.gpu_count == per and _PLAIN_COUNT.search(plain):
                slots.gpu_count = None  # "8卡H100实例 … 用64卡": the count is the other number
        for shape in _NODE_SHAPE.finditer(plain):
            per = int(shape.group(1))
            if slots.gpus_per_node is None:
                slots.gpus_per_node = per
            plain = plain[: shape.start()] + " " * (shape.end() - shape.start()) + plain[shape.end() :]
        if asked_shape := _MACHINES_ASKED_SHAPE.search(plain):
            # "要几台 8卡 机器": how many machines of 8 cards is asked; the 8 is each machine's, not the count
            per = int(_group(asked_shape, 1, 2) or 0)
            slots.gpus_per_node = slots.gpus_per_node or per
            plain = (
                plain[: asked_shape.start()]
                + " " * (asked_shape.end() - asked_shape.start())
                + plain[asked_shape.end() :]
            )
            if slots.gpu_count == per:
                slots.gpu_count = None
        if (
            slots.gpu_count == 1
            and gpus
            and re.search(r"单卡\s*$", text[max(0, gpus[0].start - 4) : gpus[0].start])
            and (match := _PLAIN_COUNT.search(plain))
        ):
            slots.gpu_count = None  # "单卡H100 显存够吗 ZeRO-1 8卡": per card, on the 8 named after it
        if slots.gpu_count is None and (match := _PLAIN_COUNT.search(plain)):
            slots.gpu_count = int(to_number(_matched(match) or "0"))
        elif slots.gpu_count is None and _SINGLE_CARD.search(plain):
            slots.gpu_count = (
                1  # "and QLoRA on a single card?", "单卡呢": one, whatever card was named before
            )
        elif gpus and (run := _RUN_COUNT.search(plain, gpus[0].end)):
            # "our 8xH100 node does 7,500 tok/s per GPU … how long on 512 GPUs?", "实测8卡A100 … 用64卡要多久":
            # the card's count describes what was measured or owned; the run is on the count named after it
            slots.gpu_count = int(to_number(run.group(1)))

    def _gpu_count(self, text: str, gpu: Mention, slots: Slots) -> None:
        before = text[max(0, gpu.start - 24) : gpu.start]
        servers = _SERVERS_OF.search(before) or _COUNT_OF_SERVERS.search(before)
        if servers and _MACHINES_AFTER.match(text, gpu.end):
            per_node = int(to_number(servers.group(2)))
            slots.servers, slots.gpus_per_node = int(to_number(servers.group(1))), per_node
            slots.gpu_count = slots.servers * per_node
            return
        nodes = _NODES.search(before)
        if nodes:
            per_node = int(to_number(nodes.group(2)))
            slots.gpus_per_node = per_node
            slots.gpu_count = int(to_number(nodes.group(1))) * per_node
            return
        if each := _PER_NODE_AFTER.match(text, gpu.end):
            # "H100 80GB nodes, 8 per node", "H100 servers with 8 GPUs each": one such machine
            slots.gpus_per_node = slots.gpu_count = int(_group(each, 1, 2) or 8)
            return
        if wan := _WAN_CARDS.search(before):
            slots.gpu_count = int(
                to_number(wan.group(1)) * 10_000
            )  # "一万张H800", "1.5万卡": tens of thousands
            return
        count = _COUNT_BEFORE.search(before)
        if count and "台" in count.group(0):
            return  # "4台H100" counts machines: the servers rule reads it, at 8 GPUs each
        # ("4 hgx h200 nodes": the x of "hgx" is no multiplier; "4x hgx h200 nodes": boards counted, so machines)
        if (
            count
            and (
                not re.search(r"\d\s*[x×*]|[张块卡]", count.group(0))
                or re.search(r"[hd]gx", count.group(0) + text[gpu.start : gpu.end], re.I)
            )
            and _MACHINES_AFTER.match(text, gpu.end)
        ):
            # "16 H100 servers", "4 A100 nodes": machines of 8 GPUs each, not 16 GPUs
            slots.servers = int(to_number(count.group(1)))
            return
        if (
            count
            # (a digit or a decimal point before it, not a sentence's full stop: "long contexts. 8x H200")
            and not re.search(r"\d\.?\s*$|\.$", before[: count.start()])
            and not _a_year(count.group(0))
            and float(to_number(count.group(1))).is_integer()  # "汇率按7.2 H200": a rate, never 7 cards
        ):
            slots.gpu_count = int(to_number(count.group(1)))
            return
        after = _COUNT_AFTER.search(text[gpu.end : gpu.end + 16])
        if after:
            slots.gpu_count = int(after.group(1))
        elif _ONE_CARD.search(before):
            slots.gpu_count = 1  # "单张A100", "a single H100", "one 4090"
        elif _FITS_ON_A.search(before) and not _A_MACHINE_AFTER.match(text, gpu.end):
            slots.gpu_count = 1  # "it fits on a 40GB A100": one card, not a cluster of them

    def _model_size(self, text: str, slots: Slots) -> None:
        if match := _ACTIVE.search(text):
            number, unit = _group(match, 1, 3, 5, 7), _group(match, 2, 4, 6, 8)
            slots.active_params_b = scaled(number or "0", unit) / 1e9
            text = text[: match.start()] + text[match.end() :]
        if match := _PARAMS_ZH.search(text) or _PARAMS_ZH_AFTER.search(text):
            slots.params_b = scaled(match.group(1), match.group(2)) / 1e9
        elif match := _PARAMS_ZH_BARE.search(text):
            slots.params_b = {"千亿": 100.0, "万亿": 1000.0, "百亿": 10.0}[match.group(1)]
        else:
            for match in _PARAMS_EN.finditer(text):
                tail = text[match.end() : match.end() + 12].lower()
                if (upper := _SIZE_RANGE_TAIL.match(text, match.end())) and scaled(
                    upper.group(1), upper.group(2)
                ) > scaled(match.group(1), match.group(2)):
                    # "7B到14B的sft", "7B-13B models": hardware for the range is sized for its top
                    slots.params_b = scaled(upper.group(1), upper.group(2)) / 1e9
                    break
                if re.match(r"\s*(?:tokens?|toks?|个?token|词元)", tail):
                    continue
                if match.group(2).lower() in {"t", "tb"} and re.match(
                    r"\s*(?:b\b|of\s+)?(?:ram|memory|dram|ddr|内存|显存|of (?:host )?(?:ram|memory)|nvme|ssd|disk|storage|存储)",
                    tail,
                ):
                    if re.match(r"\s*(?:b\b)?\s*(?:of\s+)?(?:host\s+)?(?:ram|memory|dram|ddr|内存)", tail):
                        slots.ram_gb = to_number(match.group(1)) * 1024
                    continue  # "is 1T of RAM enough?": a terabyte of memory, not a trillion parameters
                if (
                    match.group(2).lower() in {"t", "tb"}
                    and re.match(r"\s*(?:be\s+|is\s+|够不|够吗)?\s*(?:够|行|enough|ok|sufficient|fine)", tail)
                    and _HOST_MEMORY.search(text)
                ):
                    slots.ram_gb = to_number(match.group(1)) * 1024  # a terabyte of DIMMs: 1,024 GB
                    continue  # "内存配多大 … 1T够不够": the memory asked about, not a model
                if re.search(
                    r"(?:atlas|ascend|昇腾)\s*$", text[max(0, match.start() - 8) : match.start()], re.I
                ):
                    continue  # "Atlas 800T A2", "Atlas 300I": a product's number, not a model size
                before = text[max(0, match.start() - 40) : match.start()]
                trillions = match.group(2).lower() in {"t", "trillion"}
                if _DATA_BEFORE.search(before) or (
                    trillions and re.match(r"\s*-?\s*(?:runs?|corpus|dataset|data)\b", tail)
                ):
                    # "数据集 20T", "the 4T run": the data a run trains on, not the model ("our 70B run" is a model's)
                    if (
                        slots.tokens_b is None
                        and match.group(2).lower() in {"t", "trillion", "b", "bn", "billion"}
                        and not (_STORAGE_CONTEXT.search(text) and _DATA_BEFORE.search(before))
                    ):
                        slots.tokens_b = scaled(match.group(1), match.group(2)) / 1e9
                    continue
                if _BUDGET_BEFORE.search(before) and match.group(2).lower() in {"m", "million"}:
                    # "if the budget doubles to 1M": money, not a model of a million parameters
                    if slots.budget is None:
                        slots.budget = scaled(match.group(1), match.group(2))
                    continue
                if scaled(match.group(1), match.group(2)) > 20e12:
                    continue  # no model has more than 20 trillion parameters: a number of something else
                if scaled(match.group(1), match.group(2)) < 10e6:
                    continue  # "would the same 2M buy": millions of something (money), no model this small is trained
                slots.params_b = scaled(match.group(1), match.group(2)) / 1e9
                break

    def _tokens(self, text: str, slots: Slots) -> None:
        # "每百万token成本", "cost per 1M tokens": a unit of price, not the tokens to train on
        match = (
            next(
                (
                    m
                    for m in _TOKENS.finditer(text)
                    if not _PER_UNIT.search(text[max(0, m.start() - 6) : m.start()])
                    # "每卡每秒 1 万 token", "1万 token/s": a rate, not the tokens to train on
                    and not _A_RATE_BEFORE.search(text[max(0, m.start() - 10) : m.start()])
                    and not _A_RATE_AFTER.match(text[m.end() : m.end() + 12])
                ),
                None,
            )
            or _TOKENS_AFTER.search(text)
        )
        if match:
            slots.tokens_b = scaled(_group(match, 1, 3) or "0", _group(match, 2, 4)) / 1e9
            if slots.params_b and match.group(0) in text and slots.params_b == slots.tokens_b:
                slots.params_b = None  # the size rule read the token count

    def _setup(self, text: str, slots: Slots) -> None:
        for field, pattern in _SHAPE:
            if match := pattern.search(text):
                # "64 layers, 8 KV heads, head dim 128": the model's own shape, not one derived from its size
                setattr(slots, field, int(_group(match, 1, 2, 3) or 0) or None)
        if kv := _KV_PRECISION.search(text):
            # "KV cache in FP8": the cache's precision, not the weights'
            slots.kv_precision = (_group(kv, 1, 2, 3, 4, 5) or "fp8").lower()
            if both := _group(kv, 4, 5):
                slots.precision = both.lower()  # "weights and KV both FP8": the weights too
            text = text[: kv.start()] + " " * (kv.end() - kv.start()) + text[kv.end() :]
        if match := _PRECISION.search(text):
            slots.precision = (match.group(1) or "bf16").lower()
        elif quantised := next((name for pattern, name in _QUANTISED if pattern.search(text)), None):
            slots.precision = quantised  # "4-bit weights", "AWQ": weights stored in 4 bits
        slots.optimizer = next((name for pattern, name in _OPTIMIZERS if pattern.search(text)), None)
        if match := _ZERO.search(text):
            slots.zero_stage = 3 if match.group(3) else int(_group(match, 1, 2) or 0)
        if (listed := _ZERO_STAGES.search(text)) and len(
            stages := sorted(set(map(int, re.findall(r"[0-3]", listed.group(1)))))
        ) > 1:
            # "zero1 2 3到底差在哪", "ZeRO-2 vs ZeRO-3": each stage on the same cards
            slots.zero_options = (
                stages if 0 in stages else [0, *stages]
            )  # against no sharding: what each saves
            slots.zero_stage = stages[0]
        if match := _TP.search(text):
            slots.tensor_parallel = int(to_number(_group(match, 1, 2) or "1"))
            if match.group(2) and slots.gpu_count is None:
                slots.gpu_count = (
                    slots.tensor_parallel
                )  # "两卡tensor并行": those cards hold one copy between them
            sizes = list(dict.fromkeys(int(to_number(_group(m, 1, 2) or "1")) for m in _TP.finditer(text)))
            if len(sizes) > 1 and _EITHER.search(text):
                # "TP=4 one instance vs two TP=2 instances": each size on the same GPUs, replicas filling them
                slots.tp_options = sizes
        elif _OWN_COPY.search(text):
            slots.tensor_parallel = 1  # "each GPU holds its own copy of the weights": replicas of one card
        if match := _PP.search(text):
            slots.pipeline_parallel = int(match.group(1))
        if match := _SEQ.search(text):
            # "fine at 8k context, but when we enable 128k context…": the length after the turn is the one asked
            later = [
                m for m in _SEQ.finditer(text, match.end()) if _CONTRAST.search(text, match.end(), m.start())
            ]
            match = later[-1] if later else match
            number = _group(match, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23)
            k = _group(match, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24)
            slots.seq_len = int(float(number or 0) * (1024 if k else 1))
        elif _LONG_CONTEXT.search(text):
            slots.long_context = True
        if match := _MICRO_BATCH.search(text):
            slots.micro_batch = int(_group(match, 1, 2, 3) or 1)
        elif (
            (match := _BARE_BATCH.search(text))
            and not _GLOBAL_BATCH.search(text)
            and (n := int(match.group(1))) <= 32
        ):
            slots.micro_batch = n  # "QLoRA on one 4090, seq 2048, batch 4"
        if match := _CONCURRENT.search(text):
            slots.concurrent = int(_group(match, *range(1, _CONCURRENT.groups + 1)) or 1)
        if slots.global_batch is None and (match := _GLOBAL_BATCH.search(text)):
            slots.global_batch = int(to_number(_group(match, 1, 2, 3) or "1"))
        if _NO_RECOMPUTE.search(text):
            slots.recompute = "none"
        elif _FULL_RECOMPUTE.search(text):
            slots.recompute = "full"
        if match := _CIRCUIT_AMPS.search(text):
            slots.circuit_amps = float(_group(match, 1, 2) or 0)
            volts = _VOLTS.search(text)
            slots.circuit_volts = (
                float(volts.group(1)) if volts else (220.0 if re.search(r"[\u4e00-\u9fff]", text) else None)
            )
        if slots.ram_gb is None and (match := _RAM_GB.search(text)):
            slots.ram_gb = float(_group(match, 1, 3) or 0) * (
                1024 if (_group(match, 2, 4) or "").lower().startswith("t") else 1
            )
        elif (
            slots.ram_gb is None
            and _SERVER_MEMORY.search(text)
            and not _GPU_MEMORY_WORDS.search(text)
            and (match := _SIZE_ENOUGH.search(text))
        ):
            # "内存配多少？512G够吗": a size asked about beside the server's memory is that memory
            slots.ram_gb = float(match.group(1)) * (1024 if match.group(2).lower().startswith("t") else 1)
        if match := _MFU.search(text):
            share = _group(match, 1, 2, 3, 4, 5, 6) or "0"
            slots.mfu = float(share) if share.startswith("0.") else float(share) / 100
        kept = unnegated(text)
        slots.finetune = next((name for pattern, name in _FINETUNE if pattern.search(kept)), None)
        named = sorted((m.start(), name) for pattern, name in _FINETUNE if (m := pattern.search(kept)))
        if len(named) > 1 and _EITHER.search(text):
            # "full finetune or do i need lora", "全参还是LoRA": each method, in the order named
            slots.finetune_options = [name for _, name in named]
            slots.finetune = named[0][1]
        elif (
            len(named) > 1
            and _BOTH.match(between := kept[named[0][0] : named[1][0]])
            and _BOTH_JOIN.search(between)
        ):
            # "sft和lora", "mostly LoRA, some full": the servers must carry the heavier method
            heaviest = ("full", "lora", "qlora")
            slots.finetune = min((name for _, name in named), key=heaviest.index)
        if (
            (adapters := _ADAPTERS.search(text))
            and _SERVES_ADAPTERS.search(text)
            and not _TRAINS.search(text)
        ):
            # "can one L40S serve 20 LoRA adapters on Qwen2.5-14B?": a served model with adapters, not a fine-tune
            slots.lora_adapters = int(to_number(next(g for g in adapters.groups() if g))) or None
            slots.finetune = None if slots.lora_adapters else slots.finetune
        if match := _TPS.search(text):
            number = _group(match, 1, 3, 4, 5, 6, 7, 9) or "0"
            scale = 1000 if match.group(2) else 10_000 if _group(match, 8, 10) else 1
            slots.tokens_per_second_per_gpu = to_number(number) * scale

    @staticmethod
    def _measured_runs(text: str, slots: Slots) -> str:
        """Two runs of one job with their GPUs and measured throughput, for a scaling efficiency; the text
        without them."""

        def rate(number: str, scale: str | None) -> float:
            return to_number(number) * {"k": 1e3, "m": 1e6, "万": 1e4}.get((scale or "").lower(), 1.0)

        spans: list[tuple[int, int]] = []
        gpus = _RUN_GPUS.search(text)
        rest = text[: gpus.start()] + " " * (gpus.end() - gpus.start()) + text[gpus.end() :] if gpus else text
        rates = _RUN_RATES.search(rest)
        if gpus and rates and _THROUGHPUT_WORD.search(text):
            first, second = rates.group(2), rates.group(4)
            # "1.2M tokens/s 涨到 4.1M", "12k to 41k": a multiplier written once stands for both
            first, second = first or second, second or first
            slots.measured_runs = [
                (int(gpus.group(1)), rate(rates.group(1), first)),
                (int(gpus.group(2)), rate(rates.group(3), second)),
            ]
            slots.measured_unit = rates.group(5)
            spans = [gpus.span(), rates.span()]
        else:
            pairs = list(_RUN_PAIR.finditer(text))
            if len(pairs) >= 2 and pairs[0].group(1) != pairs[1].group(1) and _THROUGHPUT_WORD.search(text):
                slots.measured_runs = [(int(p.group(1)), rate(p.group(2), p.group(3))) for p in pairs[:2]]
                per_gpu = [
                    bool(_PER_GPU_RATE.match(text[p.end() : p.end() + 12].lstrip())) for p in pairs[:2]
                ]
                if any(per_gpu) and not all(per_gpu):
                    # "on 8 gpus 3,100 tokens/s per gpu. on 64 gpus total throughput is 172k": one run per GPU,
                    # the other in all; both as totals
                    slots.measured_runs = [
                        (n, r * n if each else r)
                        for (n, r), each in zip(slots.measured_runs, per_gpu, strict=True)
                    ]
                    slots.measured_totals = True
                slots.measured_unit = pairs[0].group(4)
                spans = [p.span() for p in pairs[:2]]
        if not spans and gpus and (gain := _RUN_GAIN.search(rest)) and _THROUGHPUT_WORD.search(text):
            # "从8卡扩到64卡 吞吐只涨了5倍": the two runs' throughput as a ratio, the first run as 1
            slots.measured_runs = [(int(gpus.group(1)), 1.0), (int(gpus.group(2)), to_number(gain.group(1)))]
            slots.measured_unit = RELATIVE
            spans = [gpus.span(), gain.span()]
        if not spans and slots.gpu_count and (whole := _CLUSTER_TPS.search(text)):
            # "32张A100 … 全集群吞吐每秒2.6万token": the cluster's rate, each GPU's share of it
            total = rate(_group(whole, 1, 3, 5) or "0", _group(whole, 2, 4, 6))
            slots.tokens_per_second_per_gpu = round(total / slots.gpu_count, 4)
            spans = [whole.span()]
        for start, end in spans:
            text = text[:start] + " " * (end - start) + text[end:]
        return text

    @staticmethod
    def _peaks(text: str, mentions: list[Mention], slots: Slots) -> str:
        """Each peak TFLOP/s the user plans with, for the card named just before it; the text without them."""
        cards = [m for m in mentions if m.group == "accelerators"]
        for match in _PEAK_GIVEN.finditer(text):
            value = to_number(_group(match, 1, 2, 3) or "0")
            if not 1 <= value <= 20_000:
                continue
            near = [m for m in cards if m.end <= match.start() and match.start() - m.end <= 12]
            key = near[-1].id if near else cards[0].id if len({m.id for m in cards}) == 1 else "*"
            slots.peak_tflops[key] = value
            text = text[: match.start()] + " " * (match.end() - match.start()) + text[match.end() :]
        return text

    @staticmethod
    def _quotes(text: str, mentions: list[Mention], slots: Slots) -> dict[str, tuple[float, str | None]]:
        """A server price after each of several cards: each card's quote, kept apart. Returns the hourly prices
        read after cards, for an instance's price beside them (``_instances``)."""
        cards = [m for m in mentions if m.group == "accelerators"]
        quotes: dict[str, tuple[float, str | None]] = {}
        # "vendor quotes per 8-GPU node: MI325X $290k, H200 $330k": bare amounts after each card are its server's
        per_server = bool(_QUOTES_PER_SERVER.search(text))
        for money in money_mentions(text):
            before = [c for c in cards if c.end <= money.start]
            kind = "server" if money.kind == "budget" and per_server else money.kind
            if kind == "server" and before and before[-1].id not in quotes:
                quotes[before[-1].id] = (money.amount, money.currency)
        per_card = bool(_PER_CARD_PRICE.search(text))
        if len(quotes) >= 2 and len({c for _, c in quotes.values()}) == 1 and not per_card:
            slots.server_quotes = {card: amount for card, (amount, _) in quotes.items()}
            slots.server_quotes_currency = next(iter(quotes.values()))[1]
        elif per_card:
            # "MI300X 报价 1.5w刀一张，H200 大概 3w刀", "MI300X $15k a card, H200 about $30k": each card's own price
            priced: dict[str, tuple[float, str | None]] = {}
            for money in money_mentions(text):
                near = [c for c in cards if c.end <= money.start and money.start - c.end <= 24]
                if money.kind in {"gpu", "budget", "server"} and near and near[-1].id not in priced:
                    priced[near[-1].id] = (money.amount, money.currency)
            if len(priced) >= 2 and len({c for _, c in priced.values()}) == 1:
                slots.card_prices = {card: amount for card, (amount, _) in priced.items()}
                slots.card_prices_currency = next(iter(priced.values()))[1]
        # "if h100 is $2.10/hr and b200 is $4.60/hr": an hourly price after each card, each card's own
        hourly: dict[str, float] = {}
        currencies: dict[str, str] = {}
        for money in money_mentions(text):
            # "A800 rented in China at ¥6 per GPU-hour": a few words between the card and its price
            before = [c for c in cards if c.end <= money.start and money.start - c.end <= 24]
            if money.kind == "hourly" and before and before[-1].id not in hourly:
                hourly[before[-1].id] = money.amount
                if money.currency:  # "H100 $2.2/GPU-hr，A800 ¥6/卡时": each its own
                    currencies[before[-1].id] = money.currency
        if len(hourly) >= 2:
            slots.card_hourly, slots.card_hourly_currency = hourly, currencies
        return {card: (price, currencies.get(card)) for card, price in hourly.items()}

    @staticmethod
    def _card_mfus(text: str, mentions: list[Mention], slots: Slots) -> None:
        """An MFU said of each of two or more cards: "we see ~50% mfu on tpu and ~40% on h100"."""
        cards = [m for m in mentions if m.group == "accelerators"]
        if len({m.id for m in cards}) < 2 or not re.search(r"\bmfu\b", text, re.IGNORECASE):
            return

        def card_at(start: int, word: str) -> str | None:
            named = next((m.id for m in cards if m.start <= start < m.end), None)
            if named:
                return named
            family = next(
                (
                    f
                    for f in ("tpu", "trn", "trainium", "gaudi", "mi3", "ascend", "910")
                    if word.lower().startswith(f)
                ),
                None,
            )
            return next((m.id for m in cards if family and family in m.id), None) if family else None

        found: dict[str, float] = {}
        for match in _MFU_ON_CARD.finditer(text):
            if card := card_at(match.start(2), match.group(2)):
                found.setdefault(card, float(match.group(1)) / 100)
        for match in _CARD_AT_MFU.finditer(text):
            if card := card_at(match.start(1), match.group(1)):
                found.setdefault(card, float(match.group(2)) / 100)
        if len(found) >= 2 and all(0 < v <= 1 for v in found.values()):
            slots.card_mfu = found

    def _instances(
        self, text: str, masked: str, slots: Slots, by_card: dict[str, tuple[float, str | None]] | None = None
    ) -> None:
        """Cloud instances named with an hourly price each: the cards they hold, and each card's hour
        (``masked`` is ``text`` with card names blanked, at the same offsets). ``by_card``: hourly prices read
        after card names, for "AWS p5 $3.90/GPU-hr，国内某云 H800 ¥13/卡时": an instance's card beside a card."""
        pattern, shapes = self._names.instance_pattern, self._names.instances
        found = list(pattern.finditer(text)) if pattern else []
        if not found:
            return
        for card in dict.fromkeys(shapes[m.group(0).lower()][0] for m in found):
            if slots.gpu is None:
                slots.gpu = card
            elif card != slots.gpu and card not in slots.other_gpus:
                slots.other_gpus.append(card)
        hourly: dict[str, float] = {}
        currencies: dict[str, str] = {}
        gpus: dict[str, int] = {}
        # "$6.88/GPU-hour" after the instance is already each GPU's ("折合每 GPU-hour 多少" only asks for it)
        per_gpu = False
        for money in money_mentions(masked):
            each_gpu = bool(_PER_GPU_PRICE.search(masked[money.start : money.end + 6]))
            per_gpu = per_gpu or each_gpu
            # "p5.48xlarge on-demand 我们拿到的价是 $55/hr": the instance's price a few words after its name
            near = [m for m in found if m.end() <= money.start and money.start - m.end() <= 32]
            if money.kind == "hourly" and near:
                card, per_instance = shapes[near[-1].group(0).lower()]
                # "$55/hr" for 8 H100s: $6.88 each; "AWS p5 $3.90/GPU-hr" is each GPU's already
                hourly.setdefault(card, money.amount / (1 if each_gpu else per_instance))
                gpus.setdefault(card, per_instance)
                if money.currency:
                    currencies.setdefault(card, money.currency)
        if hourly and len(hourly) < 2 and by_card:
            # "AWS p5 $3.90/GPU-hr，国内某云 H800 ¥13/卡时": the instance's card and the card named, each its price
            for card, (price, currency) in by_card.items():
                if card not in hourly:
                    hourly[card] = price
                    if currency:
                        currencies[card] = currency
            if len(hourly) >= 2:
                slots.card_hourly_currency = currencies
        if len(hourly) >= 2:
            slots.card_hourly = hourly
        elif hourly and not per_gpu:
            # "p5.48xlarge 我们拿到的价格是 $55/hr": one instance's hour, its GPUs sharing it
            slots.instance_gpus = next(iter(gpus.values()))
            if count := _INSTANCE_COUNT.search(masked):
                # "running 2 instances", "need 4 of them": machines of that type, not GPUs
                slots.servers = int(to_number(count.group(1)))
                if slots.gpu_count == slots.servers:
                    slots.gpu_count = None

    def _money(self, text: str, slots: Slots) -> str:
        """Every amount of money, by what it is the price of; the amounts are blanked out of ``text``."""
        mentions = [
            m for m in money_mentions(text) if not _PER_DOLLAR.match(text, m.end)
        ]  # "7.1 rmb/usd": an exchange rate, not a price
        for money in mentions:
            match money.kind:
                case "hourly" if slots.cloud_price_per_gpu_hour is None:
                    slots.cloud_price_per_gpu_hour, slots.cloud_price_currency = money.amount, money.currency
                    around = text[max(0, money.start - 16) : money.end + 20]
                    # ("on-demand $3.60, or reserved for 1 year at $2.40": the word before the price is its own)
                    slots.cloud_committed = bool(
                        _COMMITTED.search(text[max(0, money.start - 40) : money.end + 40])
                    ) and not _ON_DEMAND.search(text[max(0, money.start - 20) : money.start])
                    slots.cloud_price_per_instance = bool(
                        _PER_INSTANCE.search(around) and not _PER_GPU_PRICE.search(around)
                    )
                case "hourly" | "budget" if (
                    slots.cloud_price_per_gpu_hour is not None
                    and slots.cloud_on_demand_price is None
                    and money.amount < _HOURLY_CEILING.get(money.currency or "USD", 0)
                    and (
                        _ON_DEMAND.search(text[max(0, money.start - 24) : money.start])
                        or _COMMITTED.search(text[max(0, money.start - 40) : money.start])
                    )
                ):
                    # a second price per GPU-hour: "take-or-pay at $2.40 … or on-demand at $3.60" compares the two
                    # (the nearer word is this price's: "按需每卡时 25 元，包年每卡时 16 元")
                    if _nearer(_ON_DEMAND, _COMMITTED, text[max(0, money.start - 40) : money.start]):
                        slots.cloud_on_demand_price = money.amount
                    else:  # "on-demand $3.60, or reserved at $2.40": the committed one is the cloud price
                        slots.cloud_on_demand_price = slots.cloud_price_per_gpu_hour
                        slots.cloud_price_per_gpu_hour = money.amount
                    slots.cloud_committed = True
                case "storage" if slots.storage_price_per_gb_month is None:
                    per_tb = _PER_TB.match(text[money.start : money.end + 4].split("/", 1)[-1]) or re.search(
                        r"(?:per|每)\s*tb", text[money.start : money.end + 4], re.IGNORECASE
                    )
                    slots.storage_price_per_gb_month = money.amount / (1000 if per_tb else 1)
                    slots.storage_price_currency = money.currency
                    # what is stored: "存储 50TB", "40TB of storage"
                    if stored := _STORED.search(text):
                        slots.storage_tb = _terabytes(
                            _group(stored, 1, 3) or "0", _group(stored, 2, 4) or "tb"
                        )
                case "electricity" if slots.electricity_price_per_kwh is None:
                    slots.electricity_price_per_kwh, slots.electricity_currency = money.amount, money.currency
                    if _TARIFF_WITH_COOLING.search(text[money.end : money.end + 48]):
                        # "$0.14/kWh all-in including cooling": a price per IT kWh, cooling paid in it (PUE 1)
                        slots.pue = 1.0
                case "server" if slots.server_price is None:
                    slots.server_price, slots.server_price_currency = money.amount, money.currency
                    several = _FOR_SERVERS.match(text, money.end) or _SERVERS_FOR.search(
                        text[max(0, money.start - 30) : money.start]
                    )
                    if several and (machines := int(several.group(1))) > 1:
                        # "$2.3M for 8 HGX H100 nodes": the quote covers them all; each costs its share
                        slots.server_price = money.amount / machines
                        slots.servers = slots.servers or machines
                    elif (
                        HARDWARE_BEFORE.search(text[max(0, money.start - 40) : money.start])
                        and (fleet := _MACHINES_NAMED.search(text))
                        and (machines := int(_group(fleet, 1, 2) or 0)) > 1
                    ):
                        # "4 HGX H100 nodes, hardware $1.2M": the hardware of all the machines named
                        slots.server_price = money.amount / machines
                        slots.servers = slots.servers or machines
                    elif (
                        (priced := _CARDS_PRICED.search(text[max(0, money.start - 30) : money.start]))
                        and (cards := int(_group(priced, 1, 2) or 0)) > (per := slots.gpus_per_node or 8)
                        and cards % per == 0
                    ):
                        # "自建 64 卡硬件 2000 万", "hardware for the 64 GPUs is $2.5M": the machines holding
                        # those cards, each its share
                        slots.server_price = money.amount / (cards // per)
                        slots.servers = slots.servers or cards // per
                case "infra_each" if slots.network_per_server is None:
                    # "IB 网络按每台 30 万": each server's network, a share of its price below
                    slots.network_per_server, slots.network_storage_currency = money.amount, money.currency
                case "infra" | "infra_each":
                    # "network $600k, storage $400k": what the cluster's network and storage cost, together
                    if slots.network_storage_cost is None or slots.network_storage_currency == money.currency:
                        slots.network_storage_cost = (slots.network_storage_cost or 0) + money.amount
                        slots.network_storage_currency = money.currency
                case "gpu" if slots.gpu_price is None:
                    slots.gpu_price, slots.gpu_price_currency = money.amount, money.currency
                case "lease" if (
                    money.amount < 100
                    and slots.cloud_price_per_gpu_hour is None
                    and not re.search(r"月|month|\bmo\b", text[money.start : money.end + 12], re.IGNORECASE)
                ):
                    # "租金 14 元呢" after a price per card-hour: no month's rent is 14 yuan; an hour's price
                    slots.cloud_price_per_gpu_hour, slots.cloud_price_currency = money.amount, money.currency
                case "lease" if slots.lease_per_month is None:
                    slots.lease_per_month, slots.lease_currency = money.amount, money.currency
                    around = text[max(0, money.start - 20) : money.end + 24]
                    slots.lease_per_server = bool(_PER_SERVER.search(around))
                    slots.lease_is_rental = bool(_RENTAL.search(text[max(0, money.start - 48) : money.start]))
                    # "租的话每月8万（含托管）": the rent pays for the machine where it runs
                    slots.lease_all_in = bool(
                        _LEASE_ALL_IN.search(text[money.end : money.end + 20])
                        # "云上8卡包月6.5万": a cloud's rent pays for the hall, the power and the upkeep too
                        or _CLOUD_RENT.search(text[max(0, money.start - 24) : money.start])
                        # "租的话7万/台/月，买的话220万/台，自己托管每月1.5万": hosting is the buyer's own, the rent's is in it
                        or (slots.lease_is_rental and bool(_SELF_HOSTED.search(text)))
                    )
                case "monthly" if slots.monthly_bill is None:
                    slots.monthly_bill, slots.monthly_bill_currency = money.amount, money.currency
                case "support" if slots.support_per_year is None:
                    # a month's support is twelve of them a year ("$1,250/month", "每月维保1万"; the amount's span
                    # takes in the period written after it)
                    monthly = re.search(
                        r"month|\bmo\b|月", text[money.start : money.end], re.IGNORECASE
                    ) or re.search(r"每月|每个月|月付", text[max(0, money.start - 8) : money.start])
                    slots.support_per_year = money.amount * (12 if monthly else 1)
                    slots.support_currency = money.currency
                case "staff" if slots.staff_per_year is None:
                    # "2个人每人每年30万", "two SREs at $180k each": everyone's pay
                    people = _PEOPLE.search(text[max(0, money.start - 24) : money.start])
                    count = (
                        to_number(people.group(1))  # "0.5 FTE at $180k": half of one person's pay
                        if people and people.group(1)
                        else _WORD_COUNT[people.group(2).lower()]
                        if people
                        else 1
                    )
                    if re.search(
                        r"半个\s*(?:人|运维|工程师|sre|全职)",
                        text[max(0, money.start - 24) : money.start],
                        re.I,
                    ):
                        count = 0.5  # "半个运维人员年薪18万美元": half a person's time
                    monthly = _MONTHLY_PAY.search(_around(text, money.start, money.end))
                    slots.staff_per_year = money.amount * (count or 1) * (12 if monthly else 1)
                    slots.staff_currency = money.currency
                    # "运维每年每台5万", "ops $20k per server a year": the running cost of each machine
                    slots.staff_per_server = bool(
                        re.search(r"每台|每个节点|单台", text[max(0, money.start - 8) : money.start])
                        or re.search(
                            r"^\s*(?:per|/|a|each)\s*(?:server|node|box|machine)",
                            text[money.end : money.end + 16],
                            re.I,
                        )
                    )
                case "power_bill" if slots.power_bill_per_year is None:
                    # "电费每台每年6万", "power bill ~$8k/month": the bill itself, not a tariff to multiply
                    near = _around(text, money.start, money.end)
                    by_month = bool(_MONTHLY_PAY.search(near)) and not _YEARLY_PAY.search(near)
                    slots.power_bill_per_year = money.amount * (12 if by_month else 1)
                    slots.power_bill_currency = money.currency
                    slots.power_bill_per_server = bool(_PER_SERVER.search(near))
                case "colo" if slots.colo_per_month is None:
                    around = text[max(0, money.start - 10) : money.end + 24]
                    # the basis written nearest the rent ("¥8000/柜/月 … 10kW per server": per rack)
                    found = [(m.start(), b) for b, pattern in _COLO_BASIS if (m := pattern.search(around))]
                    basis = min(found)[1] if found else None
                    if basis is None and re.search(
                        r"racks?\s*(?:at|@|for)\s*$", text[max(0, money.start - 16) : money.start]
                    ):
                        basis = "rack"  # "2 racks at $2,500/month each": each rack's rent
                    yearly = _YEARLY_PAY.search(_around(text, money.start, money.end))
                    slots.colo_per_month = money.amount / (12 if yearly else 1)
                    slots.colo_currency, slots.colo_basis = money.currency, basis
                    if slots.electricity_price_per_kwh is None and _POWER_INCLUDED.search(
                        text[max(0, money.start - 40) : money.end + 72]
                    ):
                        # "colo is $150/kW/month all-in incl power": no electricity bill beside it
                        slots.electricity_price_per_kwh, slots.electricity_currency = 0.0, money.currency
                    if basis == "rack" and slots.racks is None and (racks := _RACKS.search(text)):
                        slots.racks = int(to_number(racks.group(1))) or None  # "2 racks at $4k a month each"
                    elif basis == "rack" and slots.racks is None and (packed := _PER_RACK_COUNT.search(text)):
                        # "16 nodes … colo $2,500/rack/month at 2 nodes per rack": 8 racks, once the servers are read
                        slots.nodes_per_rack = _rack_count(packed)  # "一柜一台", "one server per rack"
                case "budget" if slots.budget is None and money.amount < _HOURLY_CEILING.get(
                    money.currency or "USD", 0
                ):
                    # no budget is $1.85: "and at $0.07?", "0.45元呢" is a price per kWh (no GPU-hour is that
                    # cheap); "if cloud drops to $1.80", "reserve the 512 at $1.85" a price per GPU-hour
                    if money.amount < _KWH_CEILING.get(money.currency or "USD", 0):
                        if slots.electricity_price_per_kwh is None:
                            slots.electricity_price_per_kwh = money.amount
                            slots.electricity_currency = money.currency
                    elif slots.cloud_price_per_gpu_hour is None:
                        slots.cloud_price_per_gpu_hour, slots.cloud_price_currency = (
                            money.amount,
                            money.currency,
                        )
                        slots.cloud_committed = bool(
                            _COMMITTED.search(text[max(0, money.start - 40) : money.end + 40])
                        )
                        around = text[max(0, money.start - 16) : money.end + 20]
                        slots.cloud_price_per_instance = bool(
                            _PER_INSTANCE.search(around) and not _PER_GPU_PRICE.search(around)
                        )  # "H100 8卡 一小时 ¥120": the whole machine's hour
                case "budget" if slots.resale_amount is None and _RESALE_BEFORE.search(
                    text[max(0, money.start - 16) : money.start]
                ):
                    # "三年后能卖60万", "resell them for $900k": what the hardware fetches at the end
                    slots.resale_amount, slots.resale_currency = money.amount, money.currency
                case "budget" if (
                    slots.server_price is None
                    and _QUOTED_BEFORE.search(text[max(0, money.start - 24) : money.start])
                    and (several := _FOR_SERVERS.match(text, money.end))
                ):
                    # "purchase quote $2.6M for 8 HGX nodes": the machines' price, each its share
                    machines = int(several.group(1))
                    slots.server_price, slots.server_price_currency = money.amount / machines, money.currency
                    slots.servers = slots.servers or machines
                case "budget" if (
                    slots.server_price is None
                    and _QUOTED_BEFORE.search(text[max(0, money.start - 24) : money.start])
                    and (
                        _PRICED_MACHINE.search(text)
                        or _ONE_MACHINE.search(text[max(0, money.start - 30) : money.start])
                    )
                ):
                    # "8卡 H200 整机，买的报价 230 万": what the machine described costs, not money to spend
                    slots.server_price, slots.server_price_currency = money.amount, money.currency
                case "budget" if slots.budget is None:
                    slots.budget, slots.budget_currency = money.amount, money.currency
        if (
            slots.network_per_server
            and slots.server_price
            and slots.network_storage_currency == slots.server_price_currency
        ):
            slots.network_share = round(slots.network_per_server / slots.server_price, 6)
        if slots.budget_currency is None and (named := _CURRENCY_REPLY.search(text)):
            # "USD. mostly continued pre-training", "人民币。想做32B": the currency of the budget asked about
            slots.budget_currency = (
                "CNY" if re.match(r"rmb|cny|人民币|元|yuan", named.group(1), re.I) else "USD"
            )
        spans = [(m.start, m.end) for m in mentions]
        if slots.budget is None and (bare := _BARE_BUDGET.search(text)):
            # "we have 2 million to spend": a budget in no named currency (asked back or assumed USD)
            slots.budget = scaled(_group(bare, 1, 3, 5) or "0", _group(bare, 2, 4, 6) or "")
            spans.append(bare.span())
        return strip(text, spans)

    def _known(self, text: str, slots: Slots) -> str:
        """Quantities stated as known facts (GPU-hours, FLOPs, power, throughput, storage, ...); their
        spans are blanked out so no later rule reads "1.2M GPU-hours" as a model size."""
        spans: list[tuple[int, int]] = []

        rest = text  # what no rule has read yet: "50TB 每天新增1TB" gives 50 TB of data and 1 TB a day

        def take(pattern: re.Pattern[str]) -> re.Match[str] | None:
            nonlocal rest
            match = pattern.search(rest)
            if match:
                spans.append(match.span())
                rest = strip(rest, [match.span()])
            return match

        if (match := take(_SAMPLES_OF)) and (count := scaled(match.group(1), match.group(2))) >= 100:
            slots.samples = count
            slots.sample_tokens = to_number(match.group(3)) * (1000 if match.group(4) else 1)
        if match := take(_SAMPLE_TOKENS):
            slots.sample_tokens = to_number(_group(match, 1, 3) or "0") * (1000 if _group(match, 2, 4) else 1)
        if (
            (match := _SAMPLES.search(rest))
            # "全局 batch 2048 条 × 4096 长度": a batch's sequences, not a data set's examples
            and not re.search(
                r"batch\s*(?:size)?\s*(?:为|=|是)?\s*$",
                rest[max(0, match.start() - 16) : match.start()],
                re.I,
            )
            and (match := take(_SAMPLES))
            and (count := scaled(match.group(1), match.group(2))) >= 100
        ):
            slots.samples = count
        if slots.samples and slots.sample_tokens:
            slots.tokens_b = slots.samples * slots.sample_tokens / 1e9  # 500k examples x 1k tokens = 0.5B
        if match := take(_GPU_HOURS):
            slots.gpu_hours = scaled(_group(match, 1, 3) or "0", _group(match, 2, 4))
        if match := take(_FLOPS):
            slots.training_flops = float(match.group(1)) * 10 ** int(match.group(2))
        if match := take(_ALWAYS_ON_KW):
            slots.always_on_kw = float(_group(match, 1, 2, 3) or 0) or None
        if match := take(_FACILITY_KW):
            value, unit = float(_group(match, 1, 3) or 0), (_group(match, 2, 4) or "kw").lower()
            # the room's power: what it can carry (servers that fit) or what it draws (its bill)
            slots.rack_kw, slots.facility = value * (1000 if unit == "mw" else 1), True
            slots.power_kw = slots.rack_kw
        if match := take(_RACK_KW):
            rack_kw = float(_matched(match) or 0)  # (each alternative has the one figure)
            racks = _RACKS.search(text)
            count = int(to_number(racks.group(1))) if racks else 0
            if _RACK_DRAW.search(match.group(0)):  # what they burn: the bill's load, racks x kW each
                tail = text[match.end() : match.end() + 8]
                each = _EACH.search(match.group(0) + tail) and not _TOTAL_AFTER.search(tail)
                slots.power_kw = rack_kw * (count if each and count else 1)
            else:
                slots.rack_kw, slots.racks = rack_kw, count or None
        if match := take(_GPU_KW):
            value = float(_group(match, 1, 3, 5, 7, 9, 11) or 0)
            unit = (_group(match, 2, 4, 6, 8, 10, 12) or "kw").lower()
            slots.gpu_power_kw = value / 1000 if unit == "w" else value
        if (match := take(_SERVER_KW)) and _fleet_total(text, match):
            slots.power_kw = float(_matched(match) or 0)
        elif match:
            slots.server_power_kw = float(_matched(match) or 0)
            # "每台最大10.2kW", "rated 10.2 kW": a rating, drawn only at full load; "pull ~6.5kw": the draw
            slots.power_is_rating = bool(_RATING.search(text[max(0, match.start() - 12) : match.end() + 4]))
            if re.search(
                r"满载|满负荷|满功率|full[- ]load", text[max(0, match.start() - 12) : match.end()], re.I
            ):
                slots.utilization = (
                    slots.utilization or 1.0
                )  # "每台满载10kW … 一年电费": the bill at that load
            if fleet := _FLEET.search(text):
                slots.servers = int(to_number(fleet.group(1)))
        if (
            (match := take(_KW)) is not None
            and slots.server_power_kw is None
            and _EACH_CLAUSE.search(re.split(r"[,，;；。]", text[: match.start()])[-1])
        ):
            # "每台 8x MI300X 实测 8.8 kW …, 6 台": the clause is about each server, however far its "每台"
            slots.server_power_kw = float(match.group(1)) * (1000 if match.group(2).lower() == "mw" else 1)
            if fleet := _FLEET.search(text):
                slots.servers = int(to_number(fleet.group(1)))
        elif (
            match is not None
            and (slots.servers or slots.server)
            and _RATED_AFTER.match(text, match.end())
            and not _TOTAL_AFTER.search(text[match.end() : match.end() + 20])
        ):
            # "16 DGX H100 … around 80% of the 10.2 kW max": a machine's rating, with the machines counted apart
            slots.server_power_kw = float(match.group(1)) * (1000 if match.group(2).lower() == "mw" else 1)
            slots.power_is_rating = True
        elif match is not None:
            slots.power_kw = float(match.group(1)) * (1000 if match.group(2).lower() == "mw" else 1)
            if _AT_WALL.search(text[max(0, match.start() - 24) : match.end() + 24]):
                slots.power_at_wall = True
        if match := take(_ACHIEVED_TFLOPS):
            slots.achieved_tflops = float(_group(match, 1, 2, 3, 4) or 0)
        if pair := take(_PUE_CHANGE) or take(_PUE_PAIR):
            # "PUE 1.5 机房 vs PUE 1.2 机房", "PUE 1.5 or 1.2": two facilities, the bill at each
            slots.pue, slots.compare_pue = float(pair.group(1)), float(pair.group(2))
        elif match := take(_PUE) or take(_PUE_BEFORE):
            slots.pue = float(match.group(1))
        if match := take(_NODE_TPS):
            unit = _group(match, 2, 4, 6, 8) or ""
            slots.node_tokens_per_second = to_number(_group(match, 1, 3, 5, 7) or "0") * (
                10_000 if unit == "万" else 1000 if unit else 1
            )
        if _ALL_IN.search(text):
            slots.budget_all_in = True  # "$1.2M capex all-in", "networking and storage included"
        if match := take(_HOURS_PER_YEAR):
            hours = to_number(_group(match, 1, 2) or "0")
            slots.hours_per_year = hours if 0 < hours <= 8760 else None
        if match := take(_SAMPLES_PER_GPU):
            # "每卡每秒大概吃40个clip", "each GPU eats ~40 clips/s": samples read, not tokens
            slots.samples_per_second_per_gpu = to_number(_group(match, 1, 2, 3) or "0")
            if size := take(_SAMPLE_SIZE):
                unit = (_group(size, 2, 4) or "mb").lower()
                slots.sample_mb = to_number(_group(size, 1, 3) or "0") * {"kb": 1e-3, "gb": 1e3}.get(
                    unit, 1.0
                )
        if match := take(_DAILY_TOKENS):
            # "每天 5 亿 output token": the day's tokens as an average rate over 24 hours
            daily = scaled(_group(match, 1, 3) or "0", _group(match, 2, 4))
            slots.demand_tokens_per_second = round(daily / SECONDS_PER_DAY, 2)
        if match := take(_DEMAND_TPS):
            unit = (_group(match, 2, 4, 6, 8) or "").lower()
            tps = to_number(_group(match, 1, 3, 5, 7) or "0") * {"k": 1000, "万": 10_000}.get(unit, 1)
            clause = re.split(r"[，,;；。]", text[max(0, match.start() - 40) : match.start()])[-1]
            if (
                _MEASURED_RATE.search(clause)  # in the same clause: "measured 2,500 tokens/s aggregate"
                and not _DEMAND_WORD.match(match.group(0))  # never "要承载6000 token/s"
                and (slots.gpu_count or 1) == 1
            ):
                # "measured 2,500 tokens/s aggregate with vllm" on one card: what the card does, not a demand
                slots.tokens_per_second_per_gpu = tps
            else:
                slots.demand_tokens_per_second = tps
        if not _TPS.search(text) and (match := take(_BARE_TPS)):
            # "throughput drops to 2,200 tok/s": tokens/s with no unit of its own are per GPU, as measured
            slots.tokens_per_second_per_gpu = to_number(match.group(1)) * (1000 if match.group(2) else 1)
        if match := take(_STEP_TIME):
            value, unit = (
                float(_group(match, 1, 3, 5, 7, 9) or 0),
                (_group(match, 2, 4, 6, 8, 10) or "s").lower(),
            )
            slots.step_time_s = value / 1000 if unit == "ms" else value
        if match := take(_STEP_TOKENS):
            slots.batch_tokens = scaled(
                _group(match, 1, 3, 5) or "0", _group(match, 2, 4, 6)
            )  # "global batch 4M tokens", "3.1M tokens per step"
        if match := take(_BATCH_TOKENS):
            slots.global_batch = int(to_number(_group(match, 1, 3) or "0"))
            slots.seq_len = int(to_number(_group(match, 2, 4) or "0"))
        if match := take(_CHECKPOINT_SIZE):
            slots.checkpoint_tb = _terabytes(_group(match, 1, 3) or "0", _group(match, 2, 4) or "tb")
        if match := take(_WEIGHTS_ONLY):
            slots.weights_only_checkpoints = int(_group(match, 1, 2, 3, 4) or 0)
        if re.search(
            r"(?:checkpoints?\b|ckpts?\b|(?<!激活)检查点)[^。;；?？.]{0,12}(?:keep|retain|留|保留|存(?!\s*多|\s*占))"
            r"|(?:keep|retain|留|保留)[^。;；?？.]{0,16}(?:checkpoints?\b|ckpts?\b|检查点)",
            text,
            re.IGNORECASE,
        ):
            slots.keeps_checkpoints = True  # "ckpt想多留几个", "keep the last few checkpoints"
        if _KEEP_ALL.search(text) and (written := _checkpoints_written(text)):
            # "50k steps, a full checkpoint every 1000 steps, keep all of them": 50 checkpoints, before any
            # number kept is read (with no run length beside the interval, "keep all" counts nothing)
            slots.checkpoints = written
        if slots.checkpoints is None and (match := _CHECKPOINTS.search(text)):
            slots.checkpoints = int(_group(match, 1, 2, 3, 4, 5, 6, 7) or 0)
        if slots.checkpoints is None and _SAVING.search(text) and (bare := _KEPT_BARE.search(text)):
            # "每1000步存一次，保留10个", "save every 2h and keep 5": what is kept of what is saved
            slots.checkpoints = int(bare.group(1))
        elif match := _ROLLING.search(text):
            slots.checkpoints = int(match.group(1))  # "retention: last 5 rolling"
        if (milestones := _MILESTONES.search(text)) and slots.weights_only_checkpoints is None:
            # "keep the last 5, plus 10 permanent milestone checkpoints": full ones kept beside the rolling window
            slots.checkpoints = (slots.checkpoints or 0) + int(milestones.group(1))
        if (
            slots.checkpoints
            and _DAILY_KEPT.search(text)
            and (days := _RUN_LENGTH.search(text) or _BARE_DURATION.search(text))
        ):
            # "last 5 rolling plus one per day for a 60 day run": 5 + 60 checkpoints held at the end
            length = to_number(_group(days, 1, 3) or "0") * (
                7 if re.match(r"w|周|星期", _group(days, 2, 4) or "", re.I) else 1
            )
            slots.checkpoints += int(length)
            slots.keeps_checkpoints = True
        elif (match := _KEPT_COPIES.search(text)) and re.search(r"checkpoint|ckpt|检查点", text, re.I):
            slots.checkpoints = int(_group(match, 1, 2) or 0)  # "405B checkpoint多大 要存20个"
        if match := take(_WRITE_GB_S):
            unit = (_group(match, 2, 4) or "gb").lower()
            slots.write_gb_s = float(_group(match, 1, 3) or 0) * (1000 if unit == "tb" else 1)
        elif _STORAGE_LINK_CONTEXT.search(text) and (link := take(_ETHERNET_LINK)):
            # "存储是NFS 10GbE": the link bounds the write rate, 10 Gb/s = 1.25 GB/s
            slots.write_gb_s = float(link.group(1)) / 8
        if (match := take(_CHECKPOINT_EVERY)) and (_SAVING.search(text) or _KEEPING.search(text)):
            # "every 3 hours … keep the last 12 hours of them": what is kept is what is saved
            value, unit = float(_group(match, 1, 3) or 1), (_group(match, 2, 4) or "h").lower()
            slots.checkpoint_hours = value / 60 if unit.startswith("min") or unit == "分钟" else value
        if (
            slots.checkpoint_hours is None
            and (saves := _SAVES_A_DAY.search(text))
            and re.search(r"checkpoint|ckpt|检查点|存一次|保存", text, re.I)
        ):
            count = 2 if saves.group(3) else to_number(_group(saves, 1, 2) or "0")
            slots.checkpoint_hours = 24 / count if count else None
        if kept := _retention(text, slots.checkpoint_hours):
            # a schedule written in time ("保留最近2天", "kept for 30 days") counts what it keeps, not its number
            slots.checkpoints, slots.keeps_checkpoints = kept, True
        if (
            slots.checkpoints is None
            and re.search(r"checkpoint|ckpt|检查点|存一次|保存一次", text, re.I)
            and (written := _checkpoints_written(text))
        ):
            # "每 500 step 存一次 ckpt，一共跑 5w step" with no number kept: the run writes 100 checkpoints, and
            # the storage asked for is what holding them takes (a retention stated anywhere wins)
            slots.checkpoints, slots.keeps_checkpoints = written, True
        if _SAVE_CONTEXT.search(text) and (match := take(_WRITE_TIME)):
            # ("need it for a slide in 10 min" is the asker's deadline, not a checkpoint's write time)
            value, unit = (
                float(_group(match, 1, 3, 5, 7, 9) or 0),
                (_group(match, 2, 4, 6, 8, 10) or "s").lower(),
            )
            slots.write_seconds = (
                value * 60 if unit in {"min", "mins", "minute", "minutes", "分钟"} else value
            )
        if match := take(_DISCOUNT):
            if match.group(3):  # "打7折", "八折": pay 70%, 80%
                tenths = to_number(match.group(3))
                slots.discount_share = round(1 - tenths / 10, 4) if tenths < 10 else None
            else:
                slots.discount_share = float(_group(match, 1, 2) or 0) / 100
        if _ON_DEMAND.search(text) and not _COMMITTED.search(text):
            slots.cloud_on_demand = True
        if match := take(_TTFT):
            unit = match.group(2).lower()
            slots.ttft_ms = float(match.group(1)) * (1 if unit in {"ms", "毫秒"} else 1000)
        if match := take(_QPS):
            slots.requests_per_second = float(_group(match, 1, 2, 3) or 0)
        elif match := take(_QPM):
            slots.requests_per_second = float(_group(match, 1, 2) or 0) / 60
        elif match := take(_QPD):
            slots.requests_per_day = scaled(_group(match, 1, 3, 5) or "0", _group(match, 2, 4, 6))
            # served at the rate of its busy hours, not spread evenly over 24 (stated with the plan)
            slots.requests_per_second = round(slots.requests_per_day / (BUSY_HOURS_A_DAY * 3600), 4)
        elif match := take(_DAILY_USERS):
            # "日活10万的客服机器人": users, not requests; each is assumed to send REQUESTS_PER_USER a day
            slots.daily_users = scaled(_group(match, 1, 3) or "0", _group(match, 2, 4))
            slots.requests_per_day = slots.daily_users * REQUESTS_PER_USER
            slots.requests_per_second = round(slots.requests_per_day / (BUSY_HOURS_A_DAY * 3600), 4)
        if match := take(_PROMPT_TOKENS):
            number, k = _group(match, 1, 3, 5, 7), _group(match, 2, 4, 6, 8)
            slots.prompt_tokens = int(to_number(number or "0") * (1000 if k else 1)) or None
        if match := take(_PER_REQUEST):
            figure = str(next(g for g in match.groups() if g))
            # "1k output", "输出1k": thousands
            thousands = re.search(
                rf"(?<![\d.]){re.escape(figure)}\s*k(?![a-z])", match.group(0), re.IGNORECASE
            )
            slots.tokens_per_request = float(figure) * (1000 if thousands else 1)
        if slots.requests_per_second and slots.tokens_per_request and slots.demand_tokens_per_second is None:
            # "50 QPS, 400 tokens each": the output tokens per second to serve
            slots.demand_tokens_per_second = slots.requests_per_second * slots.tokens_per_request
        slots.exclude_power = bool(_NO_POWER.search(text))
        if match := take(_EXTRAS):
            slots.extras_share = float(_group(match, 1, 2, 3) or 0) / 100
        if match := take(_HEADROOM):
            slots.headroom = float(_group(match, 1, 2, 3) or 0) / 100
        if _SINGLE_STREAM.search(text):
            slots.single_stream = True  # "decode 单请求每秒多少 token", "batch size 1": one stream alone
        if match := take(_SCALING):
            slots.scaling_efficiency = float(_group(match, 1, 2, 3, 4, 5, 6) or 0) / 100
        if (match := take(_GOODPUT)) and 0 < (share := float(_group(match, 1, 2, 3) or 0) / 100) <= 1:
            slots.goodput = share
        if match := take(_PORTS_PER_GPU):
            slots.ports_per_gpu = int(to_number(_group(match, 1, 2) or "1"))
        elif match := take(_PORTS_PER_NODE):
            slots.ports_per_node = int(to_number(_group(match, 1, 2) or "1")) or None
        if match := take(_OVERSUBSCRIBED):
            slots.oversubscription = float(_group(match, 1, 2) or 1)
        if match := take(_SWITCH_GBPS):
            slots.switch_gbps = int(match.group(1))
        if re.search(r"\broce\b|\bethernet\b|以太网|\bspectrum\b", text, re.IGNORECASE) and not re.search(
            r"infiniband|\bib\b|quantum", text, re.IGNORECASE
        ):
            slots.ethernet_fabric = True  # "roce 400G 交换机咋选": Ethernet switches, not InfiniBand ones
        slots.fabric_choice = bool(_FABRIC_CHOICE.search(text))
        # (only beside a network: "cheapest way to keep the older checkpoints" is no fabric's budget)
        slots.ethernet_team = bool(_ETHERNET_TEAM.search(text)) and bool(_NETWORK_NAMED.search(text))
        if re.search(r"(?<![a-z])ring(?![a-z])|环形|单环", text, re.I) and not re.search(
            r"hierarch|two[- ]level|tree|分层|树形", text, re.I
        ):
            slots.ring_only = True  # "allreduce …, ring, 400Gb/s per gpu": one flat ring, as asked
        if (link := _LINK.search(text)) and not (
            _STORAGE_LINK_CONTEXT.search(text) and slots.write_gb_s is not None
        ):
            # "两台8卡H100 机间只有 100G 以太网": what the servers talk over, per server unless said per GPU
            speed = float(_group(link, 2, 4, 6, 8, 10) or 0)
            ports = int(_group(link, 1, 3, 5, 7, 9) or 0)
            per_gpu = bool(
                _LINK_PER_GPU.search(text[link.end() :])
                or _LINK_PER_GPU_BEFORE.search(text[max(0, link.start() - 12) : link.start()])
                # "网络是每卡 400G IB": said inside the phrase that names the link
                or _LINK_PER_GPU_BEFORE.search(text[link.start() : link.start() + _group_start(link)])
            )
            slots.link_per_gpu = per_gpu
            slots.link_gbit = speed * (ports or (1 if per_gpu else slots.ports_per_node or 1))
            if ports and not per_gpu and slots.ports_per_node is None:
                slots.ports_per_node = ports  # "8x 400G NDR per node": eight ports of 400 each
        if match := take(_SWITCH_PORTS):
            slots.switch_ports = int(_group(match, 1, 2, 3, 4) or "64")
        if match := _SWITCH_MODEL.search(text):
            # "fat tree with QM9700 (64 NDR ports)": the named switch's radix and port speed
            ports, speed = _SWITCH_MODELS[re.sub(r"[\s-]+", "", _group(match, 1, 2) or "").lower()]
            slots.switch_ports, slots.switch_gbps = slots.switch_ports or ports, speed
        if match := take(_GROWTH_SHARE):
            slots.growth_share_per_year = float(_group(match, 1, 2, 3, 4) or 0) / 100
        if match := take(_RESIDUAL):
            slots.residual_share = float(_group(match, 1, 2, 3, 4, 5, 6) or 0) / 100
        if match := take(_PEAK):
            slots.peak_factor = float(_group(match, 1, 2, 3, 4, 5) or 0)
        if match := take(_KEPT_SHARE):
            slots.data_kept_share = float(_group(match, 1, 2, 3) or 100) / 100
        elif match := take(_DROPPED_SHARE):
            slots.data_kept_share = 1 - float(_group(match, 1, 2) or 0) / 100
        if match := take(_DISK_SIZE):
            slots.disk_tb = float(_group(match, 1, 2) or 0)
        if match := take(_RAW_DATA):
            slots.raw_data_tb = _terabytes(_group(match, 1, 3) or "0", _group(match, 2, 4) or "tb")
            # ("tokenized dataset is ~12TB", "dataset is 20TB tokenized")
            slots.data_tokenized = bool(
                _TOKENIZED.search(text[max(0, match.start() - 16) : match.end()])
                or re.match(
                    r"\s*(?:of\s+)?(?:already\s+)?tokeni[sz]ed\b", text[match.end() : match.end() + 24], re.I
                )
            )
        elif _STORAGE_CONTEXT.search(text) and (match := take(_RAW_DATA_T)):
            slots.raw_data_tb = float(match.group(1))  # "本地 NVMe 配多少 … 数据集 20T": twenty terabytes
        if slots.raw_data_tb and not slots.data_tokenized and (match := take(_TOKENIZED_SIZE)):
            # "原始语料 200TB，tokenize 后大概 40TB": both copies, each as told
            slots.tokenized_tb = _terabytes(_group(match, 1, 3, 5) or "0", _group(match, 2, 4, 6) or "tb")
        elif slots.raw_data_tb is None and (match := take(_TOKENIZED_SIZE)):
            # "tokenized it's ~40TB", "数据集 tokenize 后 20TB": the data kept is the tokenised shards
            slots.raw_data_tb = _terabytes(_group(match, 1, 3, 5) or "0", _group(match, 2, 4, 6) or "tb")
            slots.data_tokenized = True
        elif (
            slots.raw_data_tb is None and _STORAGE_CONTEXT.search(text) and (match := take(_TOKENIZED_SIZE_T))
        ):
            # "数据集 tokenize 后 20T。存储要买多大": a size in a storage question, its B left off
            slots.raw_data_tb, slots.data_tokenized = float(match.group(1)), True
        slots.to_tokenize = bool(_TO_TOKENIZE.search(text))
        if match := take(_COMPRESSION_RATIO):
            slots.data_compression = float(match.group(1))
        elif _COMPRESSED.search(text):
            slots.data_compression = COMPRESSION_RATIOS["gzip" if _GZIP.search(text) else "zstd"]
        if match := take(_GROWTH):
            slots.growth_tb_per_day = _terabytes(_group(match, 1, 3) or "0", _group(match, 2, 4) or "tb")
        if match := take(_REPLICAS):
            slots.replicas = int(to_number(_group(match, 1, 2, 3, 4, 5, 6) or "0"))
        if take(_RETENTION_HALF_YEAR):
            slots.retention_days = 182
        elif match := take(_RETENTION):
            unit = match.group(2).lower()
            per = (
                365
                if unit in {"年", "year", "years"}
                else 30
                if unit in {"个月", "月", "month", "months"}
                else 1 / 24
                if unit in {"小时", "hour", "hours", "h"}
                else 7
                if unit in {"周", "星期", "礼拜", "week", "weeks"}
                else 1
            )
            slots.retention_days = to_number(match.group(1)) * per
        if match := take(_MAINTENANCE):
            slots.maintenance_share = float(_group(match, 1, 2) or 0) / 100
        if match := take(_NETWORK_RESERVE):
            slots.network_reserve = float(_group(match, 1, 2) or 0) / 100
        elif match := take(_NETWORK_SHARE):
            slots.network_share = float(_group(match, 1, 2, 3, 4) or 0) / 100
        if match := take(_INFRA_SHARE):
            slots.infra_share = float(_group(match, 1, 2) or 0) / 100
        if match := take(_EPOCHS):
            slots.epochs = to_number(_group(match, 1, 2, 3, 4, 5) or "0")
        slots.token_bytes = next((size for pattern, size in _TOKEN_BYTES if pattern.search(text)), None)
        slots.period = next((name for pattern, name in _PERIODS if pattern.search(text)), None)
        slots.target_currency = next((c for pattern, c in _TARGET_CURRENCY if pattern.search(text)), None)
        # "$2.2 … vs ¥6 …, rate 7.2": prices in dollars and yuan side by side make a bare rate the exchange rate
        both = len(set(slots.card_hourly_currency.values())) > 1
        if (both or _FX_CONTEXT.search(text)) and (rate := _FX_RATE.search(text)):
            slots.usd_to_cny = float(rate.group(1) or rate.group(2) or rate.group(3))
        if _NO_OFFLOAD.search(text) or _OFFLOAD_ASKED.search(text):
            # "ZeRO-3, NO offload": the optimizer stays on the GPUs, whatever fits; "要不要开offload": whether it
            # fits without, which the verdict answers
            slots.offload = False
        elif _OFFLOAD.search(text):
            slots.offload = True
            if _SAVES.search(text):
                # "zero3 + offload 能省多少显存", "how much does CPU offload save?": without it, then with it
                slots.offload_options = [False, True]
        # of the two price criteria, the one named first ("$ per TFLOPS, and $ per GB while you're at it")
        priced = sorted((m.start(), name) for pattern, name in _RANK_BY[2:4] if (m := pattern.search(text)))
        slots.datacenter_use = bool(_DATACENTER_USE.search(text))
        if match := _DRIVER_VERSION.search(text):
            slots.driver_version = _group(match, 1, 2)
        if wanted := list(_CUDA_VERSION.finditer(text)):
            match = wanted[-1]  # "on CUDA 12.2, want CUDA 12.8": the one named last is the one wanted
            if match.group(1):
                slots.cuda_version = match.group(1)
            elif match.group(4):
                slots.cuda_version = f"{match.group(4)}.0"
            else:  # "cu128", "cu124": the PyTorch build's CUDA
                slots.cuda_version = f"{match.group(2)}.{match.group(3)}"
            if moved := _CUDA_TO.match(text[match.end() : match.end() + 24]):
                slots.cuda_version = moved.group(
                    1
                )  # "from cuda 12.4 to 12.8", "从 cuda 12.4 升 12.8": where it goes
        main_use = next((name for pattern, name in _RANK_BY[:2] if pattern.search(text)), None)
        slots.rank_by = (
            priced[0][1]
            if priced
            else main_use or next((name for pattern, name in _RANK_BY[2:] if pattern.search(text)), None)
        )
        # "H200的带宽多少" asks a figure; "What does FP8 on H100 gain, and what are the risks?" asks why
        # a short message once the card's name is out ("RTX 6000 Ada memory bandwidth?") asks its figure
        short = len(" ".join(text.split())) <= 40
        asks_figure = (_SPEC_ASK.search(text) or short) and not _WHY.search(text)
        if not asks_figure:
            # "what's the h20's memory and bf16 flops? is it even worth it…": one clause asks figures, another why
            asks_figure = any(
                _SPEC_ASK.search(part) and not _WHY.search(part) for part in re.split(r"[?？.。;；!！]", text)
            )
        # in the order they are asked: "显存多大 带宽多少 卡间互联多少" answers memory first
        found = [
            (m.start(), i, name)
            for i, (pattern, name) in enumerate(_SPEC_FIELDS)
            if (m := pattern.search(text))
        ]
        fields = [name for _, _, name in sorted(found)] if asks_figure else []
        if not _SPEC_ASK.search(text):
            # brevity alone asks a card's figure, not its price ("IB or RoCE for 512 H100s? we care about cost")
            fields = [f for f in fields if f not in PRICE_FIELDS]
        if _COMPUTE_WORDS.search(text) and not any(f.endswith("tflops") for f in fields):
            fields.append("bf16_dense_tflops")  # "算力多少": the dense BF16 figure training runs at
        if not fields and _OVERVIEW.search(text):
            # "tell me about Gaudi 3", "介绍一下H20": its spec sheet's headline figures
            fields = list(_OVERVIEW_FIELDS)
        if slots.budget or _NOT_A_PRICE.search(text):
            # "power cost of 16 H100s", "cost to train 7B", "$500k budget": not the price of the hardware
            fields = [f for f in fields if f not in PRICE_FIELDS]
        if _SERVER_MEMORY.search(text) and not _GPU_MEMORY_WORDS.search(text):
            # "how much system memory does a server with 8 MI300X need?": the host's RAM, not the card's HBM
            fields = [f for f in fields if f != "memory_gb"]
        if "cloud_usd_per_gpu_hour" in fields or "server_price_usd" in fields:
            # one price is asked: by the hour, or of the server, not also the card's
            fields = [f for f in fields if f != "price_usd"]
            if "cloud_usd_per_gpu_hour" in fields:
                fields = [f for f in fields if f != "server_price_usd"]
        slots.spec_fields = fields[:5]
        slots.states_only = bool(_STATES_ONLY.search(text))
        if _OPTIMIZER_ONLY.search(text):
            slots.component = "optimizer"
        elif _ACTIVATIONS_ONLY.search(text) and not slots.states_only:
            slots.component = "activations"
        packed = _PER_RACK_COUNT.search(text)
        if packed and slots.nodes_per_rack is None:
            slots.nodes_per_rack = _rack_count(packed)  # "一柜放两台", "one server per rack"
        # "64卡 … 一柜放两台": with the fleet counted in cards, what one rack holds is not the fleet ("4 nodes in one
        # rack" alone is both)
        counted = strip(text, [packed.span()]) if packed and slots.gpu_count else text
        match = _SERVERS.search(counted)
        if (
            match
            and int(to_number(_group(match, 1, 2, 3) or "1")) == 1
            and _DRAW_AFTER.match(counted, match.end())
        ):
            match = None  # "一台10.2kW呢": each server's draw, not a count of one
        if match and slots.servers is None:
            slots.servers = int(to_number(_group(match, 1, 2, 3) or "1"))
        elif slots.servers is None and _ONE_SERVER.search(text):
            slots.servers = 1  # "one node instead", "单机", "一台服务器"
        return strip(text, spans)

    def _money_and_time(self, text: str, slots: Slots) -> None:
        chinese_text = bool(re.search(r"[\u4e00-\u9fff]", text))
        if slots.cloud_price_per_gpu_hour is None and (match := _PER_CARD_MONTH.search(text)):
            # "包月 每卡每月6000", "$1,500 per GPU per month": a rent paid whether used or not, per hour of the month
            currency = "USD" if "$" in match.group(0) else "CNY" if chinese_text else "USD"
            # ("租一卡一月 1.2w": 1.2万 yuan a card a month)
            wan = 10_000 if match.group(2) else 1
            slots.cloud_price_per_gpu_hour = to_number(_group(match, 1, 3) or "0") * wan * 12 / 8760
            slots.cloud_price_currency, slots.cloud_committed = currency, True
        elif slots.cloud_price_per_gpu_hour is None and (match := _BARE_CLOUD_PRICE.search(text)):
            # "what if cloud drops to 1.80", "云上降到12呢": a bare price per GPU-hour, in the message's currency
            currency = "CNY" if chinese_text else "USD"
            amount = float(match.group(1))
            if _KWH_CEILING[currency] < amount < _HOURLY_CEILING[currency]:
                slots.cloud_price_per_gpu_hour, slots.cloud_price_currency = amount, currency
        if slots.colo_per_month is None and (match := _RACK_RENT.search(text)):
            # "机柜 8000/月": a rack's monthly rent written without 元
            slots.colo_per_month = to_number(_group(match, 1, 2) or "0")
            slots.colo_currency = "CNY" if chinese_text else "USD"
            slots.colo_basis = "rack"
        if slots.electricity_price_per_kwh is None and (match := _BARE_POWER_PRICE.search(text)):
            slots.electricity_price_per_kwh, slots.electricity_currency = (
                float(_group(match, 1, 2, 3) or 0),
                "CNY",
            )
        elif slots.electricity_price_per_kwh is None and (match := _PER_KWH.search(text)):
            chinese = re.search(r"[\u4e00-\u9fff]", text)
            slots.electricity_price_per_kwh = float(match.group(1))
            slots.electricity_currency = "CNY" if chinese else "USD"
        if (
            slots.electricity_price_per_kwh is None
            and slots.colo_per_month is None
            and _POWER_INCLUDED.search(text)
            and re.search(r"托管|机房|\bcolo|\bhosting|\bdata ?cent(?:er|re)", text, re.IGNORECASE)
        ):
            # "what if 托管 already includes power": the hosting paid already covers the electricity
            slots.electricity_price_per_kwh = 0.0
        if slots.colo_per_month is None and (match := _BARE_COLO.search(text)):
            # "托管每柜每月8000": a bare monthly rent in a Chinese message, per rack or per server as written
            scale = 10_000 if _group(match, 3, 5) else 1
            slots.colo_per_month, slots.colo_currency = to_number(_group(match, 2, 4) or "0") * scale, "CNY"
            per = _group(match, 1, 6) or ""
            slots.colo_basis = "rack" if "柜" in per else "server" if per else None  # "每台", "台"
            if slots.electricity_price_per_kwh is None and _POWER_INCLUDED.search(
                text[match.start() : match.end() + 24]
            ):
                # "托管每柜每月8000（一柜放一台，含电）": no electricity bill beside it
                slots.electricity_price_per_kwh, slots.electricity_currency = 0.0, "CNY"
        slots.deadline_days = _deadline(text)
        if slots.checkpoint_hours and slots.deadline_days is None and (run := _RUN_LENGTH.search(text)):
            # "checkpoint every 3 hours for a 30 day run": the run's length counts the checkpoints written
            slots.deadline_days = (
                to_number(_group(run, 1, 3) or "0")
                * (7 if re.match(r"w|周|星期", _group(run, 2, 4) or "", re.I) else 1)
                or None
            )
        elif (
            slots.checkpoint_hours
            and slots.deadline_days is None
            and slots.retention_days is None
            and (bare := _BARE_DURATION.search(text))
            and not _NOT_A_DEADLINE.search(text[max(0, bare.start() - 16) : bare.start()])
        ):
            # "70B run, ~60 days. Checkpoint every 3 hours": with an interval and no retention window, the days
            # named are the run's
            slots.deadline_days = to_number(bare.group(1)) * DAYS_PER.get(bare.group(2).lower(), 1)
        if (
            slots.checkpoint_hours
            and slots.deadline_days
            and slots.checkpoints is None
            and _KEEP_ALL.search(text)
        ):
            # "a checkpoint every 3 h for 60 days, what if we keep all of them?": 480 of them, all kept
            slots.checkpoints = round(slots.deadline_days * 24 / slots.checkpoint_hours)
        if (took := _TOOK.search(text)) and not _FUTURE_RUN.search(
            text[max(0, took.start() - 12) : took.start()]
        ):
            # "之前 64 张 A100 跑了 20 天", "our last run took 20 days": a finished run's length (the days stay the
            # run's days too: "256 卡跑了 10 天，按每卡时 2.5 美元" prices those GPU-days)
            slots.took_days = to_number(_group(took, 1, 3, 5, 7) or "0") * DAYS_PER.get(
                (_group(took, 2, 4, 6, 8) or "").lower(), 1
            )
            if (grow := _SCALE_TO_GPUS.search(text)) and slots.gpu_count and not slots.other_gpus:
                # "现在 64 卡要 7 天，扩到 512 卡": the finished run's GPUs, and the count it scales to
                target = int(to_number(grow.group(1)))
                counts = [
                    int(to_number(_group(c, 1, 2) or "0"))
                    for c in _GPU_COUNT_WORD.finditer(text[: grow.start()])
                ]
                before = next((c for c in reversed(counts) if c != target), None)
                if before:
                    slots.measured_gpus, slots.gpu_count = before, target
                    if slots.deadline_days == slots.took_days:
                        slots.deadline_days = None
        if (
            slots.deadline_days is None
            and slots.params_b
            and slots.tokens_b
            and (match := _BARE_DURATION.search(text))
            and not _NOT_A_DEADLINE.search(text[max(0, match.start() - 16) : match.start()])
        ):
            unit = match.group(2).lower()
            slots.deadline_days = to_number(match.group(1)) * DAYS_PER.get(unit, 1)
        yearly = _MONTHS_A_YEAR.search(text)
        options = _UTIL_OPTIONS.search(text)
        listed = re.findall(r"(\d+(?:\.\d+)?)\s*%", _group(options, 1, 2) or "") if options else []
        shares = [u for u in dict.fromkeys(float(p) / 100 for p in listed) if 0 < u <= 1]
        if len(shares) > 1:
            # "show at 100% and 70% utilization": each one, the last as the one the rest is computed at
            slots.utilization_options, slots.utilization = shares, shares[-1]
        elif match := _UTIL.search(text):
            slots.utilization = float(next(g for g in match.groups() if g)) / 100
        elif match := _SHARE_OF_TIME.search(text):
            slots.utilization = round(_SHARES[next(g for g in match.groups() if g).lower()], 4)
        elif yearly:
            # "一年大概集中训三四个月", "we train 3 months a year": the share of the year the GPUs work
            months = to_number(_group(yearly, 1, 2) or "0")
            if 0 < months <= 12:
                slots.utilization = round(months / 12, 4)
        elif _ROUND_THE_CLOCK.search(text):
            slots.utilization = 1.0
        elif (daily := _HOURS_A_DAY.search(text)) and 0 < (
            hours := to_number(_group(daily, 1, 2) or "0")
        ) <= 24:
            slots.utilization = hours / 24  # "8h a day", "每天跑10小时": the share of the day it runs
        if match := _YEARS.search(text):
            slots.years = (
                1.0
                if _group(match, 8, 9)
                else to_number(
                    _group(match, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20) or "0"
                )
            )
            # "if we commit for a year", "a 1-year commitment", "签一年的话": the term of the price, which a
            # comparison already over its own years keeps (see Router.route)
            slots.years_committed = bool(
                _COMMIT_BEFORE.search(text[max(0, match.start() - 24) : match.start()])
                or _COMMIT_AFTER.search(text[match.end() : match.end() + 16])
                or re.search(r"签\s*(?:约\s*)?[一两三四五\d]", text[max(0, match.start() - 4) : match.end()])
            )
        elif (match := _MONTHS.search(text)) and slots.deadline_days is None and not yearly:
            slots.years = to_number(match.group(1)) / 12  # (not the months used each year: "一年训三四个月")
        elif _HALF_YEAR.search(text) and slots.deadline_days is None:
            slots.years = 0.5  # "租半年呢", "for half a year"
        elif (
            slots.deadline_days
            and (match := _MONTHS.search(text))
            and not (slots.params_b or slots.tokens_b or slots.gpu_hours or slots.training_flops)
            and (slots.server_price or slots.cloud_price_per_gpu_hour or slots.lease_per_month)
        ):
            # "need 64 H100s for 12 months; cloud $2.49/GPU-hr or buy at $300k a server": with no run to finish,
            # the months are how long the hardware is needed, the period the prices are compared over
            slots.years, slots.deadline_days = to_number(match.group(1)) / 12, None


_BLANKS = re.compile(r"\s{2,}")


def _blanks(text: str) -> str:
    return _BLANKS.sub(" ", text)


def _terabytes(number: str, unit: str) -> float:
    return to_number(number) * {"pb": 1000.0, "tb": 1.0, "gb": 0.001}[unit.lower()]


def _a_year(counted: str) -> bool:
    """'2025 H100' names a year, not 2025 GPUs ('2025张H100' or '2025x H100' would be a count)."""
    # "2048 B200s" is a count: only a year a card could be bought in reads as one
    return bool(re.fullmatch(r"\s*(?:199\d|20[0-3]\d)\s*(?:年)?\s*", counted))


# InfiniBand against RoCE asked: "IB or RoCE?", "InfiniBand NDR or RoCE", "RoCE还是IB", "用IB还是以太网"
_FABRIC_CHOICE = flags(
    r"\b(?:infiniband|ib)\b(?:\s*(?:ndr|xdr|hdr))?[^.?。？]{0,16}(?:\bor\b|\bvs\.?|\bversus\b|还是|或者|或)[^.?。？]{0,8}(?:\broce|\bethernet|以太网)"
    r"|(?:\broce|\bethernet|以太网)(?:\s*v2)?[^.?。？]{0,16}(?:\bor\b|\bvs\.?|\bversus\b|还是|或者|或)[^.?。？]{0,8}(?:\binfiniband|\bib\b)"
)
# why Ethernet would suit them: skills, no IB experience, a tight budget
_ETHERNET_TEAM = flags(
    r"\b(?:knows?|know|familiar with|experience with|only (?:knows?|do|does|run)|comfortable with)\b[^.?]{0,16}\bethernet"
    r"|\bnever (?:run|ran|used|operated)\s+(?:ib|infiniband)|\bbudget (?:is )?tight|\btight budget|cost[- ]sensitive|\bcheap"
    r"|只会以太网|熟悉以太网|没(?:用|玩|搞)过\s*(?:ib|infiniband)|预算紧|预算有限|预算不多|省钱|便宜"
)


_NETWORK_NAMED = flags(
    r"\broce\b|\bethernet\b|以太网|\binfiniband\b|\bib\b|\bfabric\b|\bnetwork|网络|组网|交换机"
)


# a run that already happened and how long it took: "跑了 20 天", "用了两周", "took 20 days", "ran for 3 weeks"
_TOOK = flags(
    rf"(?:跑了|训了|用了|花了|耗时|训练了)\s*(?:大概|约|差不多)?\s*{NUMBER}\s*(?:个)?\s*(天|周|星期|个月|月)"
    rf"|\b(?:took|ran for|run took|trained for|needed)\s*(?:about|around|roughly|~)?\s*{NUMBER}\s*(days?|weeks?|months?)\b"
    # the run as it goes today: "现在 64 卡训一个模型要 7 天", "currently takes 7 days on 64 GPUs"
    rf"|(?:现在|目前|当前)[^。？?；;]{{0,24}}?(?:要|需要|得|用|花)\s*(?:大概|约|差不多)?\s*{NUMBER}\s*(?:个)?\s*(天|周|星期|个月|月)"
    rf"|\b(?:currently|right now|today)\b[^.?;]{{0,40}}?\btakes?\s*(?:about|around|roughly|~)?\s*{NUMBER}\s*(days?|weeks?|months?)\b"
)
# a count of GPUs: "64 卡", "128 H100s", "on 256 GPUs"
_GPU_COUNT_WORD = flags(
    rf"{AMOUNT}\s*(?:x\s*)?(?:张卡|张|卡(?![时])|GPUs?\b|cards\b|[A-Za-z]*\d+[A-Za-z]*s\b)"
    rf"|(?:\bon|\bacross|\busing|用|在)\s*{AMOUNT}(?=\s)"  # "on 128 H100s", the card's name blanked out
)
# the GPUs a finished run is scaled to: "扩到 512 卡", "scale to 512 GPUs", "go to 512 H100s"
_SCALE_TO_GPUS = flags(
    rf"(?:扩到|扩展到|扩容到|加到|增加到|增至|上到|换到|\bscal(?:e|ing) (?:out |up )?to|\bgrow(?:ing)? to|\bgo(?:ing)? to|\bmove to)"
    rf"\s*{AMOUNT}\s*(?:张卡|张|卡(?![时])|GPUs?\b|cards\b|[A-Za-z]*\d+[A-Za-z]*s\b)"
)
_FUTURE_RUN = flags(r"\b(?:will|would|should|must|to be|it'?ll)\s*$|(?:要|需要|得|能)\s*$")


_A_PERIOD = flags(r"\b(?:in|within|under|inside)\s+(?:a|one|1)\s+(day|week|fortnight|month|quarter)\b")
_PERIOD_DAYS = {"day": 1, "week": 7, "fortnight": 14, "month": 30, "quarter": 91}


def _deadline(text: str) -> float | None:
    for phrase, days in _RELATIVE_TIME.items():
        if re.search(rf"{phrase}\s*(?:内|以内|之内|完成|训完|搞定)", text):
            return float(days)
    if (period := _A_PERIOD.search(text)) and not _KEPT_FOR.search(
        text[max(0, period.start() - 40) : period.end()]
    ):
        return float(_PERIOD_DAYS[period.group(1).lower()])  # "want it done in a week", "within a month"
    match = _DEADLINE.search(text)
    if match and _KEPT_FOR.search(text[max(0, match.start() - 40) : match.end()]):
        match = None  # "keep checkpoints for 30 days": how long something is kept, not the time the run has
    if not match:
        return None
    number = _group(match, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23)
    unit = (_group(match, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24) or "day").lower()
    return round(to_number(number or "0") * DAYS_PER.get(unit, 1), 6)


# accelerators people name that the catalog does not (yet) hold: other Ascend bins and generations
# ("910B3", "Ascend 950"), other China-market parts, older or workstation cards; a name here is never
# silently replaced by a default GPU. Catalogued names (bare "910B" = the 910B2 entry, "910C", "L20",
# "Trainium2"/"Trn2") are found by the name index first and blanked before this runs.
_UNKNOWN_CARD = flags(
    r"(?:huawei\s*)?(?:ascend|昇腾)\s*\d{3}[a-z]?\d?[a-z]{0,2}|(?<![A-Za-z0-9.])910(?:a|b[134]|b\dc)(?![A-Za-z0-9])"
    # the model code after a maker's name is Latin letters and digits: "MLU590显存多大" names MLU590, not 显存多大
    r"|\bmlu\s*-?\d{3}[a-z0-9]*|寒武纪(?:思元)?\s*[a-z0-9-]{0,6}"
    r"|(?:kunlun|昆仑)(?:芯|xin)?\s*[a-z0-9-]{0,5}|\bp800\b|海光\s*(?:dcu)?\s*[a-z0-9-]{0,6}"
    r"|\b(?:hygon\s*)?dcu\s*[kz]?\d{0,3}\b"
    r"|摩尔线程\s*(?:mtt\s*)?[a-z0-9-]{0,6}|\bmtt\s*s\d{3,4}\b|壁仞\s*[a-z0-9-]{0,6}|\bbr1\d0\b"
    r"|沐曦\s*[a-z0-9-]{0,6}|燧原\s*[a-z0-9-]{0,6}|天数智芯\s*[a-z0-9-]{0,6}"
    r"|\bl2\b|\b4090\s*d\b|\brtx\s*3080\w*|\b3080\b|\bt4\b|\bmi250x?\b|\bmi210\b"
    r"|\btrainium(?:\s*[13])?\b|\btrn[13]n?\b|\binferentia\s*\d?\b|\bp100\b|\bk80\b|\ba800\s*40g\w*"
    # other parts people run on that the catalog lacks (its own names are read and masked before this):
    # "a single A10G 24GB", "MI308X", "TPU v4", "RTX A5000", "4060 Ti"
    r"|\ba10g\b|\ba30\b|\ba16\b|\bp40\b|\bb100\b|\bmi3\d{2}[a-z]?\b|\btpu\s*v[234]\b|\brtx\s*a[2-6]000\b"
    r"|\btitan\s*(?:rtx|v|xp?)\b|\brtx\s*\d0[5-9]0(?:\s*ti)?\b|\b\d0[5-9]0\s*ti\b"
)


# the memory written right after a card's name: "A10G 24GB", "MI308X 192G"
_MEMORY_AFTER_CARD = flags(r"\s*(\d{2,3})\s*(?:g|gb|gib)\b")
_MEMORY_BEFORE = flags(r"(?<![\d.])(\d{2,3})\s*(?:g|gb|gib)\s*(?:的)?\s*$")
_CARD_MEMORY = flags(
    r"(?<![\d.])(\d{2,3})\s*(?:g|gb|gib)\s*(?:的)?\s*(?:显存|vram|hbm|memory|卡|cards?|gpus?)"
    r"|(?:显存|vram|hbm|memory per (?:card|gpu))\s*(?:是|为|有|of|is)?\s*(\d{2,3})\s*(?:g|gb|gib)\b"
    # "Ascend 910B with 64GB each", "64 GB per card"
    r"|(?:with|has|have|having)\s*(\d{2,3})\s*(?:g|gb|gib)\s*(?:each|apiece|per (?:card|gpu|device))"
    r"|(?<![\d.])(\d{2,3})\s*(?:g|gb|gib)\s*(?:each|apiece|per (?:card|gpu|device))"
    r"|(?<![\d.])(\d{2,3})\s*(?:g|gb|gib)\s*(?:的)?\s*(?:version|variant|one|版本|版)\b"  # "the 40GB version"
)
_NIC_BEFORE = flags(r"connectx|\bcx-?\d|\bnics?\b|网卡|infiniband|\bib\b|roce|ethernet|以太网|\blinks?\b")
# a count of the cards the catalog does not hold: "8 Ascend 910B", "8张910B", "用8张64G显存的卡"
_UNKNOWN_COUNT = flags(r"(?<![\d.])(\d{1,5})\s*(?:x|×|\*|张|块|颗|片)?\s*$")
_MEMORY_CARD_COUNT = flags(
    r"(?:(?<![\d.])(\d{1,5})\s*(?:张|块|x|×)|\b(an?|one|single)|(一张|单张|一块|单卡)"
    # "just one of those 40GB cards", "其中一张"
    r"|\b(one) of (?:those|these|the|our|them|my)|(其中一张|其中一块))\s*(?:每卡)?\s*$"
)


def _mask(text: str, mentions: list[Mention]) -> str:
    """Blank out GPU and server names so 'H100' or 'A100 80GB' never read as sizes or counts."""
    chars = list(text)
    for m in mentions:
        chars[m.start : m.end] = " " * (m.end - m.start)
    return "".join(chars)
