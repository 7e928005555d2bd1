"""The calculators' input errors in the reader's language.

``ToolBox.run_for`` keeps each error as ``field: message`` (a `CalculatorInputError` from tools/*.py or a
pydantic validation message of an input model), and tests and the API read those strings as they are. As
for the assumptions (assumptions.py), each error shape has a pattern over the whole string and a Chinese
rendering that copies the field, numbers, catalog names and ids, and parameter names verbatim.
"""

from __future__ import annotations

import re

from assistant.composer.rules import NUMBER, Groups, Rule, rendered, rule
from knowledge.text import Language

_FIELD = r"(?P<field>[\w.]+)"  # gpu, gpus.0, prices_usd: the input field as the calculator named it
_NAME = r"(?P<name>'[^']*'|\"[^\"]*\")"  # what the user typed, as Python's repr quotes it
_HINT = r"(?:; did you mean (?P<close>.+)\?)?"
_PLAIN = r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?"  # a number next to '..', which NUMBER would swallow
_LINK_KIND = {"scale-up": "节点内（scale-up）", "host": "主机接口", "scale-out": "节点间（scale-out）"}


def _listed(items: str) -> str:
    """``a, b or c`` -> ``a、b、c``: ids, options or parameter names, each kept as written."""
    return "、".join(re.split(r", | or ", items))


def _close(g: Groups) -> str:
    return f"；你是不是指 {_listed(g['close'])}？" if g["close"] else ""


def _unknown_server(g: Groups) -> str:
    return (
        f"{g['field']}：目录中没有名为 {g['name']} 的参考服务器{_close(g)}"
        f"（目录中的服务器：{_listed(g['known'])}）"
    )


def _unknown_link(g: Groups) -> str:
    kinds = "或".join(_LINK_KIND.get(k, k) for k in g["kinds"].split(" or "))
    return f"{g['field']}：目录中没有名为 {g['name']} 的{kinds}链路{_close(g)}"


# One rule per error shape, grouped by where it is raised: `CalculatorInputError` in tools/*.py, then the
# pydantic messages of the input models. tests/unit/test_errors_zh.py reaches every raise in tools/*.py
# and checks each rendering.
RULES: list[Rule] = [
    # common
    rule(
        rf"{_FIELD}: unknown accelerator {_NAME}{_HINT}",
        lambda g: f"{g['field']}：目录中没有名为 {g['name']} 的加速卡{_close(g)}",
    ),
    rule(rf"{_FIELD}: unknown server {_NAME}{_HINT} \(catalog servers: (?P<known>.+)\)", _unknown_server),
    rule(
        rf"{_FIELD}: (?P<gpu>.+) has no dense (?P<precision>[A-Z0-9]+) figure in the catalog",
        "{field}：目录中没有 {gpu} 的稠密 {precision} 算力数据",
    ),
    # driver_check
    rule(
        r"cuda: give a CUDA version or a GPU to check a driver against",
        "cuda：请给出 CUDA 版本或 GPU，才能核对驱动",
    ),
    rule(
        r"gpu: (?P<gpu>.+) is not an NVIDIA GPU: CUDA drivers do not apply",
        "gpu：{gpu} 不是 NVIDIA GPU，不适用 CUDA 驱动",
    ),
    rule(
        r"cuda: CUDA (?P<cuda>[\d.]+) is not a release this check knows \((?P<known>.+)\)",
        "cuda：不认识 CUDA {cuda} 这个版本（已知版本：{known}）",
    ),
    # serving_estimate
    rule(
        r"gpu: a catalog GPU is needed: its bandwidth and FLOPs set the rate",
        "gpu：需要目录中的 GPU：速率由它的显存带宽和算力决定",
    ),
    rule(
        r"gpu: even 64 x (?P<gpu>.+) cannot hold the model and one sequence",
        "gpu：即使 64 张 {gpu} 也放不下模型和一路序列",
    ),
    # architecture
    rule(
        rf"model: unknown model {_NAME}{_HINT}",
        lambda g: f"model：目录中没有名为 {g['name']} 的模型预设{_close(g)}",
    ),
    rule(
        r"params_b: give the model size in billions of parameters, or a model preset",
        "params_b：请给出模型参数量（以十亿为单位），或一个模型预设",
    ),
    rule(
        r"kv_heads: (?P<heads>\d+) attention heads are not a multiple of (?P<kv>\d+) KV heads",
        "kv_heads：{heads} 个注意力头不是 {kv} 个 KV 头的整数倍",
    ),
    rule(
        r"active_params_b: active parameters cannot exceed total parameters",
        "active_params_b：激活参数量不能超过总参数量",
    ),
    # cost
    rule(
        r"gpu: (?P<server>.+) holds (?P<held>\S+), not (?P<gpu>\S+); drop one of gpu and server",
        "gpu：{server} 配的是 {held}，不是 {gpu}；gpu 和 server 只给其中一个",
    ),
    rule(
        r"gpu: name a catalog GPU \(e\.g\. 'H100'\) or a reference server \(e\.g\. 'dgx-h100'\)",
        "gpu：请给出目录中的 GPU（如 'H100'）或参考服务器（如 'dgx-h100'）",
    ),
    rule(r"gpus: give the number of (?P<gpu>.+) GPUs", "gpus：请给出 {gpu} 的数量"),
    rule(
        rf"budget: the catalog has no sourced purchase price for (?P<gpu>.+) to compare a quote of "
        rf"(?P<amount>{NUMBER}) (?P<currency>USD|CNY) with",
        "budget：目录中没有 {gpu} 有出处的采购价格，无法判断 {amount} {currency} 的报价是否合理",
    ),
    rule(
        r"capex_per_server: the catalog has no purchase price for (?P<gpu>.+); give the price of one server",
        "capex_per_server：目录中没有 {gpu} 的采购价格；请告诉我一台服务器的价格（例如“每台 220 万元”），我来算能买几台",
    ),
    rule(
        r"gpu: name a catalog GPU or server, or give capex_per_server",
        "gpu：请给出目录中的 GPU 或服务器型号，或每台服务器的价格（capex_per_server）",
    ),
    rule(
        r"nodes: give the number of servers \(or of fabric ports\)",
        "nodes：请给出服务器台数（或网络端口数）",
    ),
    rule(
        r"server_power_kw: give the kW of one server, a catalog server or a GPU",
        "server_power_kw：请给出单台服务器的功率（kW）、目录中的服务器或 GPU 型号",
    ),
    rule(
        r"server_power_kw: needs a server or a number of servers; without one use server_overhead_share",
        "server_power_kw：需要同时给出服务器或服务器台数；没有时请改用 server_overhead_share",
    ),
    rule(
        r"price_per_gpu_hour: the catalog has no cloud price for (?P<gpu>.+); give price_per_gpu_hour",
        "price_per_gpu_hour：目录中没有 {gpu} 的云上价格；请给出 price_per_gpu_hour",
    ),
    rule(
        r"capex_per_gpu: the catalog has no purchase price for (?P<gpu>.+); give capex_per_gpu or capex_total",
        "capex_per_gpu：目录中没有 {gpu} 的购买价格；请给出 capex_per_gpu 或 capex_total",
    ),
    # gpu_compare
    rule(
        r"(?P<field>gpus\.\d+): (?P<a>'[^']*'|\"[^\"]*\") and (?P<b>'[^']*'|\"[^\"]*\") are both (?P<gpu>.+); "
        r"list each GPU once",
        "{field}：{a} 和 {b} 都是 {gpu}；每种 GPU 只列一次",
    ),
    rule(
        rf"(?P<field>prices_usd|cloud_prices_usd|mfu): {_NAME} \((?P<gpu>.+)\) is not one of the GPUs compared",
        "{field}：{name}（{gpu}）不在参与比较的 GPU 之中",
    ),
    rule(
        r"(?P<field>prices_usd|cloud_prices_usd): (?P<a>'[^']*'|\"[^\"]*\") and (?P<b>'[^']*'|\"[^\"]*\") both price (?P<gpu>.+); "
        r"give one price per GPU",
        "{field}：{a} 和 {b} 给的都是 {gpu} 的价格；每种 GPU 只给一个价格",
    ),
    rule(
        r"mfu: (?P<a>'[^']*'|\"[^\"]*\") and (?P<b>'[^']*'|\"[^\"]*\") both give (?P<gpu>.+) an MFU; give one MFU per GPU",
        "mfu：{a} 和 {b} 给的都是 {gpu} 的 MFU；每种 GPU 只给一个 MFU",
    ),
    # gpu_memory, inference_memory
    rule(
        r"tensor_parallel: (?P<tp>\d+) does not divide the (?P<heads>\d+) attention heads of (?P<model>.+)",
        "tensor_parallel：{tp} 不能整除 {model} 的 {heads} 个注意力头",
    ),
    rule(
        r"tensor_parallel: (?P<tp>\d+) does not divide the (?P<kv>\d+) KV heads of (?P<model>.+)",
        "tensor_parallel：{tp} 不能整除 {model} 的 {kv} 个 KV 头",
    ),
    rule(
        r"tensor_parallel: (?P<tp>\d+) is more than the (?P<kv>\d+) KV heads of (?P<model>.+) but not a "
        r"multiple of them, so the heads cannot be replicated evenly",
        "tensor_parallel：{tp} 大于 {model} 的 {kv} 个 KV 头，却不是它的整数倍，KV 头无法均匀地复制到各卡上",
    ),
    rule(
        r"gpus: (?P<gpus>\d+) GPUs is not a multiple of tensor_parallel (?P<tp>\d+)",
        "gpus：{gpus} 张卡不是 tensor_parallel {tp} 的整数倍",
    ),
    # host_ram
    rule(
        r"gpu: give the GPU \(a catalog name\), gpu_memory_gb per GPU, or total_gpu_memory_gb per server",
        "gpu：请给出 GPU（目录中的名称）、每卡显存 gpu_memory_gb，或每台服务器的总显存 total_gpu_memory_gb",
    ),
    # network
    rule(rf"{_FIELD}: unknown (?P<kinds>.+?) link {_NAME}{_HINT}", _unknown_link),
    rule(
        rf"intra_node_link: (?P<gpu>.+) has no switched GPU link and its host interface {_NAME} is not in "
        r"the catalog; give intra_node_link or intra_node_gb_s",
        "intra_node_link：{gpu} 没有经交换机互连的 GPU 链路，它的主机接口 {name} 也不在目录中；"
        "请给出 intra_node_link 或 intra_node_gb_s",
    ),
    rule(
        r"gpus_per_node: one GPU has nothing to all-reduce; give 2 or more GPUs",
        "gpus_per_node：只有一张 GPU 时没有需要 all-reduce 的数据；请给出 2 张或更多 GPU",
    ),
    rule(
        r"step_time_s: give the compute time per step to size against a share of it",
        "step_time_s：要按单步时间的占比来测算，请给出每步的计算时间",
    ),
    rule(
        r"gpu: give the GPU whose peak sets the compute time of a batch",
        "gpu：请给出 GPU 型号，用它的峰值算力来计算一个 batch 的计算时间",
    ),
    rule(
        r"gpu: the catalog has no dense BF16 peak for (?P<gpu>'.+')",
        "gpu：目录中没有 {gpu} 的 BF16 稠密峰值算力",
    ),
    rule(
        r"gpu: give gpu, intra_node_link or intra_node_gb_s for the link between GPUs in a server",
        "gpu：请给出 gpu、intra_node_link 或 intra_node_gb_s，以确定服务器内 GPU 之间的链路",
    ),
    rule(
        r"inter_node_link: give inter_node_link \((?P<options>.+)\) or inter_node_gbit_s_per_gpu",
        lambda g: (
            f"inter_node_link：请给出 inter_node_link（{_listed(g['options'])}）或 inter_node_gbit_s_per_gpu"
        ),
    ),
    # storage
    rule(
        rf"bytes_per_token_id: uint16 holds ids 0-65,535 only; a vocabulary of (?P<vocab>{NUMBER}) needs 4 bytes "
        r"\(int32\)",
        "bytes_per_token_id：uint16 只能表示 0-65,535 的 id；{vocab} 的词表需要 4 字节（int32）",
    ),
    rule(
        r"dataset_tokens_b: give dataset_tokens_b \(billions of tokens\) or dataset_raw_gb \(GB of raw text\)",
        "dataset_tokens_b：请给出 dataset_tokens_b（token 数，以十亿计）或 dataset_raw_gb（原始文本 GB 数）",
    ),
    rule(
        r"run_days: give the run length to count the weights-only history",
        "run_days：请给出训练时长，才能算出只保留权重的历史检查点有多少个",
    ),
    # pydantic: the input models' own checks, which name no single field
    rule(
        r"input: gpus \((?P<gpus>\d+)\) must be a multiple of tensor x pipeline x context parallel "
        r"\((?P<group>\d+)\)",
        "GPU 数 gpus（{gpus}）必须是张量并行 × 流水线并行 × 上下文并行（{group}）的整数倍",
    ),
    rule(
        rf"input: mfu \((?P<mfu>{_PLAIN})\) must lie within mfu_low\.\.mfu_high "
        rf"\((?P<low>{_PLAIN})\.\.(?P<high>{_PLAIN})\)",
        "mfu（{mfu}）必须在 mfu_low..mfu_high（{low}..{high}）之内",
    ),
    rule(
        r"input: give exactly one of tokens_per_second_per_gpu, tokens_per_second or step_time_s",
        "tokens_per_second_per_gpu、tokens_per_second 和 step_time_s 请给且只给其中一个",
    ),
    rule(
        r"input: step_time_s needs tokens_per_step \(global batch x sequence length\)",
        "step_time_s 需要配合 tokens_per_step（全局 batch × 序列长度）",
    ),
    rule(
        r"input: give exactly one of gpu_hours, training_flops, tokens_per_second_per_gpu, step_time_s or a "
        r"finished run \(from_gpus and from_days\)",
        "gpu_hours、training_flops、tokens_per_second_per_gpu、step_time_s 和已完成的一次训练（from_gpus 与 from_days）"
        "请给且只给其中一个",
    ),
    rule(
        r"input: from_gpu needs from_gpus, from_days and gpu, the card the run moves to",
        "from_gpu 需要同时给出 from_gpus、from_days 和 gpu（任务要换到的卡）",
    ),
    rule(r"input: training_flops needs the gpu whose peak runs them", "training_flops 需要指定运行它的 GPU"),
    rule(
        r"input: step_time_s needs tokens_per_step \(global batch x sequence length\) and tokens_b",
        "step_time_s 需要配合 tokens_per_step（全局 batch × 序列长度）和 tokens_b",
    ),
    rule(
        r"input: a throughput needs tokens_b, the tokens to train on",
        "给出吞吐时还需要 tokens_b（训练 token 数）",
    ),
    rule(
        r"input: give exactly one of tokens_per_second_per_server or tokens_per_second_per_gpu",
        "tokens_per_second_per_server 和 tokens_per_second_per_gpu 请给且只给其中一个",
    ),
    # compute_optimal
    rule(
        r"price_per_gpu_hour: the catalog has no on-demand cloud price for (?P<gpu>.+); give price_per_gpu_hour",
        "price_per_gpu_hour：目录中没有 {gpu} 的按需云上价格；请给出 price_per_gpu_hour",
    ),
    rule(
        r"input: give exactly one of budget, gpu_hours, gpus with days, or training_flops",
        "budget、gpu_hours、gpus 加 days、training_flops 请给且只给其中一项",
    ),
    rule(
        r"input: give gpu \(a catalog card\) or gpu_memory_gb",
        "请给出 gpu（目录中的卡）或 gpu_memory_gb（每卡显存）",
    ),
    rule(
        r"input: give tokens_b, text_tb, raw_tb, tokens_per_second_per_gpu, samples_per_second_per_gpu or "
        r"checkpoint_tb",
        "请给出 tokens_b、text_tb、raw_tb、tokens_per_second_per_gpu、samples_per_second_per_gpu 或 checkpoint_tb 之一",
    ),
    rule(
        r"input: offload_params offloads the shards of ZeRO stage 3 \(FSDP\): set zero_stage 3",
        "offload_params 卸载的是 ZeRO stage 3（FSDP）的分片：请把 zero_stage 设为 3",
    ),
    rule(
        r"input: text_tb estimates the tokens: give it without tokens_b or raw_tb",
        "text_tb 用来估算 token 数：给了 text_tb 就不要再给 tokens_b 或 raw_tb",
    ),
    rule(
        r"input: checkpoint_tb needs write_seconds \(the time allowed to write it\), the checkpoints kept "
        r"\(checkpoints_kept, or checkpoint_interval_hours with checkpoint_window_hours\) or nodes "
        r"\(the servers sharing it\)",
        "checkpoint_tb 需要配合 write_seconds（允许的写入时间）、保留的检查点数（checkpoints_kept，"
        "或 checkpoint_interval_hours 加 checkpoint_window_hours）或 nodes（分担它的服务器数）",
    ),
    rule(
        r"input: nodes splits a checkpoint: give checkpoint_tb, the size of one",
        "nodes 用于分摊检查点：请给出 checkpoint_tb（单个检查点大小）",
    ),
    rule(
        r"input: checkpoints kept need checkpoint_tb, the size of one",
        "保留的检查点需要配合 checkpoint_tb（单个检查点大小）",
    ),
    rule(
        r"input: growth_tb_per_day needs retention_days, how long data is kept",
        "growth_tb_per_day 需要配合 retention_days（数据保留天数）",
    ),
    rule(
        r"input: a read rate per GPU needs gpus, the GPUs reading data",
        "每卡读取速率需要配合 gpus（读取数据的 GPU 数）",
    ),
    rule(
        r"input: give samples_per_second_per_gpu and sample_mb together",
        "samples_per_second_per_gpu 和 sample_mb 需要一起给出",
    ),
    rule(
        r"input: give tokens_per_second_per_gpu or samples_per_second_per_gpu, not both",
        "tokens_per_second_per_gpu 和 samples_per_second_per_gpu 只给其中一个",
    ),
    rule(
        r"input: give gpu_hours, or gpus and days, not both",
        "请给出 gpu_hours，或者给出 gpus 和 days，不要同时给",
    ),
    rule(r"input: give gpu_hours, or both gpus and days", "请给出 gpu_hours，或者同时给出 gpus 和 days"),
    rule(
        r"input: give storage_tb and storage_price_per_gb_month together",
        "存储容量（storage_tb）和每 GB 每月单价（storage_price_per_gb_month）需要一起给出",
    ),
    rule(
        r"input: give price_per_gpu_hour or price_per_instance_hour, not both",
        "price_per_gpu_hour 和 price_per_instance_hour 只给其中一个",
    ),
    rule(
        r"input: give capex_total or capex_per_gpu, not both",
        "capex_total 和 capex_per_gpu 只给其中一个",
    ),
    rule(
        r"input: give resale_value or residual_share, not both",
        "resale_value 和 residual_share 只给其中一个",
    ),
    rule(
        r"input: give cloud_per_month or cloud_price_per_gpu_hour, not both",
        "cloud_per_month 和 cloud_price_per_gpu_hour 只给其中一个",
    ),
    rule(
        r"input: give lease_per_month or lease_rate_per_month, not both",
        "lease_per_month 和 lease_rate_per_month 只给其中一个",
    ),
    rule(
        r"input: give lease_apr or a lease payment \(lease_per_month or lease_rate_per_month\), not both",
        "lease_apr 和租金（lease_per_month 或 lease_rate_per_month）只给其中一个",
    ),
]


def error_in_language(text: str, language: Language) -> str:
    """``text``, one calculator input error as ``field: message``, in ``language``.

    An error with no rendering reads as a generic sentence that names the field, never as English.
    """
    if language == "en":
        return text
    shown = rendered(text, RULES)
    if shown is not None:
        return shown
    field = text.split(": ", 1)[0] if ": " in text else "input"
    named = "" if field == "input" else f" {field} "
    return f"输入{named}的值无法用于计算，请检查后重试"


# the calculators' input fields in words, for errors shown in a chat (the API keeps the field names)
FIELD_WORDS: dict[str, tuple[str, str]] = {
    "gpu": ("the GPU", "GPU 型号"),
    "gpus": ("the GPU count", "GPU 数量"),
    "gpus_per_node": ("GPUs per server", "每台服务器的 GPU 数"),
    "nodes": ("the server count", "服务器台数"),
    "model": ("the model", "模型"),
    "params_b": ("the model size", "模型参数量"),
    "active_params_b": ("the active parameters", "激活参数量"),
    "tokens_b": ("the training tokens", "训练 token 数"),
    "seq_len": ("the sequence length", "序列长度"),
    "context_tokens": ("the context length", "上下文长度"),
    "micro_batch": ("the micro-batch", "微批大小"),
    "tensor_parallel": ("tensor parallelism", "张量并行度"),
    "pipeline_parallel": ("pipeline parallelism", "流水线并行度"),
    "zero_stage": ("the ZeRO stage", "ZeRO 阶段"),
    "mfu": ("the MFU", "MFU"),
    "run_days": ("the run's days", "训练天数"),
    "deadline_days": ("the deadline", "期限"),
    "cloud_price_per_gpu_hour": ("a cloud price per GPU-hour", "每卡时的云上价格"),
    "price_per_gpu_hour": ("a price per GPU-hour", "每卡时的价格"),
    "cloud_per_month": ("a monthly cloud bill", "每月云账单"),
    "electricity_price_per_kwh": ("the electricity price", "电价"),
    "server_power_kw": ("the server's power", "每台服务器功率"),
    "rack_kw": ("the rack's power", "机柜功率"),
    "capex_per_server": ("the price per server", "每台服务器价格"),
    "prices_usd": ("the prices", "价格"),
    "budget": ("the budget", "预算"),
    "years": ("the period", "年限"),
    "months": ("the period", "月数"),
    "utilization": ("the utilisation", "利用率"),
    "lease_per_month": ("the monthly lease", "每月租金"),
    "lease_term_months": ("the lease term", "租期"),
    "lease_apr": ("the lease APR", "租赁年利率"),
    "staff_per_year": ("staff cost per year", "每年人员成本"),
    "weight_precision": ("the weights' precision", "权重精度"),
    "kv_cache_precision": ("the KV cache precision", "KV 缓存精度"),
    "precision": ("the precision", "精度"),
}
_FIELD_PREFIX = re.compile(r"^(?P<field>[a-z][\w.]*)\s*[:：]\s*")
_FIELD_TOKEN = re.compile(r"\b([a-z]+(?:_[a-z0-9]+)+)\b")
_FIELD_TOKEN_ZH = re.compile(r"\s?\b([a-z]+(?:_[a-z0-9]+)+)\b\s?")


def for_reader(text: str, language: Language, shown: str | None = None) -> str:
    """``text``, one calculator input error, as a chat shows it: in ``language`` (``shown`` when the caller
    rendered it already), without the field name before it, and with the field names inside it in words
    ('give a cloud price per GPU-hour')."""
    shown = shown if shown is not None else error_in_language(text, language)
    index = 0 if language == "en" else 1
    field = _FIELD_PREFIX.match(shown)
    if field and field.group("field").split(".")[0] in {*FIELD_WORDS, "input"}:
        name = field.group("field").split(".")[0]
        rest = shown[field.end() :]
        # "gpus: Input should be <= 64" needs the field it is about; "gpu: unknown accelerator 'X'" does not
        labelled = name != "input" and not _SELF_CONTAINED.match(rest)
        shown = f"{FIELD_WORDS[name][index]}{': ' if index == 0 else '：'}{rest}" if labelled else rest
    tokens = _FIELD_TOKEN if index == 0 else _FIELD_TOKEN_ZH  # no spaces around words in Chinese
    return tokens.sub(
        lambda m: FIELD_WORDS.get(m.group(1), (m.group(1).replace("_", " "),) * 2)[index], shown
    )


# a message that names what it is about: "the catalog has no …", "unknown accelerator 'X'", "目录中没有…"
_SELF_CONTAINED = re.compile(r"^(?:the catalog|unknown|no |give |目录中|请给出|没有)", re.IGNORECASE)
