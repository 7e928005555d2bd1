"""The calculators' warnings in the reader's language.

As for the assumptions (assumptions.py), each warning shape in tools/*.py has a pattern and a Chinese
rendering that copies the captured numbers and catalog names verbatim, and so are the parameter names
(staff_per_year, cooling='liquid'): a reader types those into the API as they are.
"""

from __future__ import annotations

import re

from assistant.composer.rules import NUMBER, PRICE_KIND, Groups, Rule, rendered, rule
from knowledge.text import Language

_SEGMENT = {"consumer": "消费级", "workstation": "工作站级", "datacenter": "数据中心级"}
_PRICING = {
    "on-demand": "按需",
    "reserved-1y": "一年预留",
    "reserved-3y": "三年预留",
    "spot": "竞价",
    "community": "社区",
}
# one superseded cloud price as cost._describe_price writes it
_CLOUD_PRICE = (
    rf"(?P<provider>.+?) (?P<instance>\S+) (?P<pricing>{'|'.join(_PRICING)}) \$(?P<usd>{NUMBER})/GPU-hour "
    r"\((?P<region>.+?), as of (?P<date>[\d-]+)\)"
)
_ANY_CLOUD_PRICE = re.sub(r"\(\?P<\w+>", "(?:", _CLOUD_PRICE)  # the same, with no named groups to repeat


def _listed(items: str) -> str:
    """``a, b and c`` -> ``a、b、c``: a list of ids or parameter names, each kept as written."""
    return "、".join(re.split(r", | and ", items))


def _superseded(g: Groups) -> str:
    prices = [
        f"{p['provider']} {p['instance']} {_PRICING[p['pricing']]} ${p['usd']}/GPU 小时"
        f"（{p['region']}，截至 {p['date']}）"
        for p in re.finditer(f"(?:^|; ){_CLOUD_PRICE}", g["prices"])
    ]
    return "已被取代的价格只列出供与较早的研究对比，不计入：" + "；".join(prices)


def _price_spread(g: Groups) -> str:
    kinds = "、".join(PRICE_KIND[k] for k in g["kinds"].split(", "))
    return (
        f"购买价格的类型不同（{kinds}）或时间相差一年以上（{_listed(g['years'])}）："
        "每 TFLOP 价格和每 GB 价格只能作粗略参考"
    )


def _pcie_ring(g: Groups) -> str:
    why = "只能用桥接器连接成对的卡" if g["bridge"] else "没有 GPU 之间的直连链路"
    return (
        f"{g['gpu']} {why}：{g['gpus']} 卡服务器内的环形通信走 {g['link']}，"
        "GPU 分属不同 CPU 插槽时还要经过 CPU"
    )


# One rule per warning shape in tools/*.py, grouped by module, as in assumptions.RULES.
# tests/unit/test_warnings_zh.py runs the calculators into every warning and checks each rendering.
RULES: list[Rule] = [
    # driver_check
    rule(
        r"driver (?P<driver>[\d.]+) runs CUDA (?P<cuda>[\d.]+) builds through minor-version compatibility only: "
        r"features that need the (?P<release>[\d.]+) driver \(such as JIT-compiling newer PTX\) are unavailable",
        "驱动 {driver} 只能通过次版本兼容运行 CUDA {cuda} 的构建：需要 {release} 驱动的功能（例如即时编译更新的 PTX）不可用",
    ),
    # compute
    rule(
        rf"(?P<n>\d+) servers run at (?P<p>{NUMBER})% of capacity at the peak: little slack",
        "{n} 台服务器在峰值时负载达 {p}%：余量很小",
    ),
    rule(r"no GPU count given: GPU-hours need it", "没有给出卡数：算 GPU 小时需要卡数"),
    # serving_estimate
    rule(
        rf"even one sequence streams at (?P<r>{NUMBER}) tokens/s on (?P<tp>\d+) x (?P<gpu>.+?), below the "
        rf"(?P<u>{NUMBER}) asked: a faster card or more tensor parallelism is needed",
        "在 {tp} 张 {gpu} 上单路序列也只有 {r} token/s，低于要求的 {u}：需要更快的卡或更高的张量并行",
    ),
    rule(
        r"tensor parallel (?P<tp>\d+): communication between the GPUs is not modelled, so the rate is optimistic",
        "张量并行 {tp}：未计入卡间通信，估算的速率偏乐观",
    ),
    rule(
        rf"the (?P<t>{NUMBER}) ms first-token target is missed even at tensor parallel (?P<tp>\d+): a card with more "
        r"FLOPs, FP8 or a shorter prompt is needed",
        "即使张量并行 {tp}，也达不到 {t} ms 的首 token 目标：需要算力更强的卡、FP8 或更短的输入",
    ),
    rule(
        r"mixture of experts: every expert's weights are counted as read each step",
        "混合专家模型：按每一步读取全部专家权重计算",
    ),
    rule(
        rf"the budget is below one server \((?P<price>{NUMBER}) USD\): consider fewer GPUs per server, a cheaper card or renting",
        "预算不够买一台服务器（约 {price} 美元）：可考虑每台少配几张卡、换更便宜的卡，或租用",
    ),
    rule(
        rf"(?P<ports>{NUMBER}) ports exceed a 3-tier fat tree of (?P<k>\d+)-port switches \((?P<max>{NUMBER})\)",
        "{ports} 个端口超出了 {k} 口交换机 3 层胖树的上限（{max}）",
    ),
    rule(
        rf"one server \((?P<kw>{NUMBER}) kW\) draws more than the rack's (?P<rack>{NUMBER}) kW: the rack needs more "
        "power and cooling, or a lower power cap on the GPUs",
        "单台服务器（{kw} kW）已超过机柜的 {rack} kW：机柜需要更大的供电和散热能力，或给 GPU 设更低的功耗上限",
    ),
    rule(
        r"uint16 holds ids only for vocabularies up to 65,536 \(GPT-2's 50,257 fits; Llama 3's 128k does not\)",
        "uint16 只能容纳不超过 65,536 个词的词表（GPT-2 的 50,257 可以；Llama 3 的 128k 不行）",
    ),
    rule(
        rf"a (?P<v>{NUMBER})-token vocabulary does not fit uint16 \(at most 65,536 ids\): use 4 bytes",
        "{v} 个词的词表放不进 uint16（最多 65,536 个 id）：请用 4 字节",
    ),
    rule(
        r"MFU against the FP8 peak is half the MFU against the BF16 peak for the same run",
        "同一次训练，按 FP8 峰值算的 MFU 只有按 BF16 峰值算的一半",
    ),
    rule(
        rf"at s=(?P<seq>\d+) the attention term adds (?P<share>{NUMBER})%: set include_attention",
        "s={seq} 时注意力项会使计算量增加 {share}%：请设置 include_attention",
    ),
    rule(
        rf"(?P<exact>{NUMBER}) GPUs fill the last server almost completely: a lower MFU needs another server",
        "{exact} 张 GPU 几乎占满最后一台服务器：MFU 再低一些就需要再加一台服务器",
    ),
    rule(
        rf"implied MFU (?P<mfu>{NUMBER})% is above what LLM training reaches: check the throughput or the GPU",
        "推算出的 MFU 为 {mfu}%，高于大模型训练实际能达到的水平：请核对吞吐量或 GPU 型号",
    ),
    # cluster_plan
    rule(
        r"(?P<gpu>.+) ranks first at the same MFU as every other GPU; with today's software AMD and Intel "
        r"parts usually reach a lower share of peak, so re-run with a lower mfu for them",
        "{gpu} 排在第一，但这是按与其他 GPU 相同的 MFU 算的；以目前的软件，AMD 和 Intel 的卡通常只能"
        "达到更低的峰值比例，请为它们设更低的 mfu 重新计算",
    ),
    # cost: hardware and power
    rule(
        r"(?P<gpus>\d+) GPUs need (?P<servers>\d+) x (?P<server>.+) \((?P<per>\d+) GPUs each\); power and "
        r"purchase count (?P<whole>\d+) whole servers \((?P<slots>\d+) GPU slots\)",
        "{gpus} 张 GPU 需要 {servers} 台 {server}（每台 {per} 张）；功耗和购置成本按 {whole} 台整机"
        "（{slots} 个 GPU 位）计",
    ),
    rule(
        r"(?P<fields>\w+(?: and \w+)*) ignored: the server's power is used; give server_power_kw to change it",
        lambda g: f"{_listed(g['fields'])} 未被采用：按服务器的功耗计算；如需修改，请给出 server_power_kw",
    ),
    rule(
        r"the default overhead share comes from 8-GPU DGX servers; a (?P<segment>\w+) build differs: "
        r"set server_overhead_share",
        lambda g: (
            "默认的非 GPU 功耗比例来自 8 卡 DGX 服务器；"
            f"{_SEGMENT.get(g['segment'], g['segment'])}配置的机器与之不同：请设置 server_overhead_share"
        ),
    ),
    rule(
        r"(?P<name>.+) is liquid-cooled: set cooling='liquid' or give a PUE",
        "{name} 采用液冷：请设置 cooling='liquid' 或给出 PUE",
    ),
    rule(
        rf"\$(?P<usd>{NUMBER}) per kWh is very high: is it in cents, per MWh, or in another currency\?",
        "每 kWh ${usd} 的电价过高：是不是其实以美分计、按每 MWh 计，或者是其他币种？",
    ),
    # cost: cloud
    rule(
        rf"superseded prices are listed for comparison with older studies but not counted: "
        rf"(?P<prices>{_ANY_CLOUD_PRICE}(?:; {_ANY_CLOUD_PRICE})*)",
        _superseded,
    ),
    rule(
        r"the cheapest price is under half the median: check that (?P<provider>.+) offers the interconnect "
        r"\(multi-node InfiniBand\) and reliability the job needs",
        "最便宜的价格不到中位数的一半：请确认 {provider} 能提供这项任务所需的互联（多节点 InfiniBand）和可靠性",
    ),
    # cost: TCO
    rule(
        r"no catalog price for (?P<server>.+): priced per GPU plus platform share",
        "目录中没有 {server} 的价格：按单卡价格加平台费用比例计",
    ),
    rule(
        rf"at (?P<u>{NUMBER})% utilisation buying would overtake cloud only in month (?P<month>\d+)",
        "利用率为 {u}% 时，购买的累计成本要到第 {month} 个月才会低于上云",
    ),
    rule(
        r"the catalog has no on-demand cloud price for (?P<gpu>.+): cloud is not compared; give "
        r"a cloud price per GPU-hour to compare it",
        "目录中没有 {gpu} 的按需云价：未与上云比较；给出每卡时的云上价格即可比较",
    ),
    rule(
        r"cloud rents only the GPUs asked for; buying and leasing pay for whole servers",
        "上云只租所需数量的 GPU；购买和租赁要按整台服务器付费",
    ),
    rule(
        r"staff cost is 0: owned clusters need operators; give staff_per_year",
        "人力成本为 0：自有集群需要运维人员；请给出 staff_per_year",
    ),
    rule(
        rf"the period ends (?P<left>{NUMBER}) months before the (?P<term>\d+)-month lease term does: those payments "
        r"are still owed but are not counted",
        "比较期比 {term} 个月的租期早 {left} 个月结束：这部分租金仍需支付，但未计入",
    ),
    # deepspeed_estimate
    rule(
        r"the docs' ZeRO-2 table predates DeepSpeed PR #5099; current code gives less",
        "文档中的 ZeRO-2 表格早于 DeepSpeed PR #5099；按当前代码算出的值更小",
    ),
    # gpu_compare
    rule(
        r"purchase prices differ in kind \((?P<kinds>[a-z]+(?:, [a-z]+)*)\) or are more than a year apart "
        r"\((?P<years>\d+(?:, \d+)*)\): \$ per TFLOP and \$ per GB are rough",
        _price_spread,
    ),
    rule(
        r"no purchase price for (?P<ids>.+): give prices_usd to include them",
        lambda g: f"{_listed(g['ids'])} 没有购买价格：请给出 prices_usd 以纳入比较",
    ),
    rule(
        r"paper peaks across vendors: achievable matmul is ~80% of peak on H100 and ~50-60% on MI300X with "
        r"ROCm 6\.2\+, and software maturity differs; do not pick on peak TFLOPS alone",
        "这里比较的是各厂商的纸面峰值：实际可达的矩阵乘法性能在 H100 上约为峰值的 80%，在 MI300X（ROCm 6.2+）"
        "上约为 50-60%，软件成熟度也不同；不要只看峰值 TFLOPS 选卡",
    ),
    rule(
        r"GeForce cards: BF16 at the FP32-accumulate rate, no NVLink, and a driver licence that excludes "
        r"data-centre deployment",
        "GeForce 显卡：BF16 只有 FP32 累加时的速率，没有 NVLink，驱动许可也不允许在数据中心部署",
    ),
    rule(
        r"not ranked by (?P<by>\w+) \(no value\): (?P<ids>.+)",
        lambda g: f"{_listed(g['ids'])} 没有 {g['by']} 的数值，未参与排名",
    ),
    # gpu_memory
    rule(
        r"(?P<layers>\d+) layers do not split evenly over (?P<stages>\d+) pipeline stages",
        "{layers} 层无法平均分到 {stages} 个流水线阶段",
    ),
    rule(
        r"tensor parallelism above 8 crosses nodes in 8-GPU servers and is usually slow",
        "张量并行超过 8 时，在 8 卡服务器上会跨节点，通常很慢",
    ),
    rule(
        r"tensor parallel (?P<tp>\d+) > (?P<kv>\d+) KV heads: KV heads are replicated",
        "张量并行 {tp} 大于 KV 头数 {kv}：KV 头会被复制",
    ),
    rule(
        r"ZeRO shards over data-parallel ranks; with one there is nothing to shard",
        "ZeRO 在数据并行的各 rank 之间分片；只有一个 rank 时无片可分",
    ),
    # host_ram
    rule(
        rf"(?P<gib>{NUMBER}) GiB is more than a two-socket server holds \(8 TiB with 32 x 256 GB DIMMs\): "
        r"spread offload over more servers or offload less",
        "{gib} GiB 超过了双路服务器能装的上限（32 条 256 GB 内存条，共 8 TiB）：请把卸载分摊到更多服务器上，"
        "或少卸载一些",
    ),
    rule(
        rf"ratio (?P<ratio>{NUMBER})x is above the 1-2x rule of thumb; the catalog's servers ship "
        rf"(?P<low>{NUMBER})-(?P<high>{NUMBER})x",
        "主机内存与显存之比 {ratio} 倍，高于 1-2 倍的经验值；目录中的服务器出厂配置为 {low}-{high} 倍",
    ),
    rule(
        rf"(?P<ram>{NUMBER}) GB is desktop-PC sizing \(the common '8-16 GB is enough' advice\); a GPU training "
        rf"server with (?P<gpu>{NUMBER}) GB of GPU memory needs about (?P<size>{NUMBER}) GB",
        "{ram} GB 是台式机的配置（常见的“8-16 GB 就够了”的说法）；显存共 {gpu} GB 的 GPU 训练服务器"
        "需要约 {size} GB",
    ),
    rule(
        rf"(?P<ram>{NUMBER}) GB is short of the (?P<gib>{NUMBER}) GiB floor", "{ram} GB 低于 {gib} GiB 的下限"
    ),
    # inference_memory
    rule(
        r"latent attention is not split by head: each of the (?P<tp>\d+) tensor-parallel GPUs keeps the "
        r"whole KV latent \(vLLM\), so per-GPU KV does not shrink with TP; data-parallel attention avoids "
        r"the copies",
        "潜在注意力（MLA）不按头切分：{tp} 张张量并行 GPU 各自保存完整的 KV 潜在向量（vLLM 的做法），"
        "所以每卡 KV 不会随张量并行减少；注意力改用数据并行可避免这些副本",
    ),
    rule(
        r"tensor parallel (?P<tp>\d+) is above the (?P<kv>\d+) KV heads: each head is replicated on "
        r"(?P<copies>\d+) GPUs \(as vLLM does\), so per-GPU KV stops shrinking and the KV cache summed over "
        r"GPUs is (?P<times>\d+)x the model's",
        "张量并行 {tp} 超过 KV 头数 {kv}：每个 KV 头在 {copies} 张卡上重复存放（vLLM 的做法），所以每卡 KV "
        "不再减少，各卡 KV 缓存之和是模型本身的 {times} 倍",
    ),
    rule(
        rf"(?P<tokens>{NUMBER}) tokens exceed the (?P<context>{NUMBER})-token native context of (?P<model>.+); "
        r"check that the released model supports it",
        "{tokens} token 超出了 {model} 原生支持的 {context} token 上下文；请确认发布的模型支持这么长的上下文",
    ),
    rule(
        r"derived shape assumes full multi-head attention \(KV heads = attention heads\); a GQA/MQA model "
        r"caches several times less: give kv_heads or a model preset",
        "按参数量推算的模型结构假定为完整多头注意力（KV 头数 = 注意力头数）；GQA/MQA 模型的缓存要少好几倍："
        "请给出 kv_heads 或选用模型预设",
    ),
    rule(
        r"(?P<gpu>.+) has no FP8 tensor cores: (?P<precision>\S+) weights run as weight-only kernels that "
        r"dequantise to 16-bit \(same memory, less speed-up\)",
        "{gpu} 没有 FP8 张量核心：{precision} 权重只能用仅权重量化的内核运行，计算前反量化为 16 位"
        "（显存占用相同，加速更少）",
    ),
    rule(
        rf"only (?P<share>{NUMBER})% of the usable memory is left: longer prompts may not fit",
        "可用显存只剩 {share}%：更长的提示可能放不下",
    ),
    rule(
        r"gpu_memory_utilization above 0\.95 leaves little room for fragmentation and spikes",
        "gpu_memory_utilization 高于 0.95 时，留给显存碎片和用量峰值的余地很小",
    ),
    # network
    rule(
        r"(?P<gpu>.+) GPUs are fully meshed without a switch: one GPU pair shares a single link, so rings "
        r"reach the aggregate figure only when spread over all links; expect less than an NVSwitch node",
        "{gpu} 各卡之间是无交换机的全互联：每对 GPU 只共用一条链路，环形通信要分布到所有链路上才能达到标称的总带宽；"
        "实际会低于 NVSwitch 节点",
    ),
    rule(
        r"(?P<gpu>.+) (?:(?P<bridge>only bridges pairs of cards)|has no GPU-to-GPU link): the ring inside a "
        r"(?P<gpus>\d+)-GPU server runs over (?P<link>.+), and through the CPUs when GPUs sit on different "
        r"sockets",
        _pcie_ring,
    ),
    rule(
        rf"communication is (?P<share>{NUMBER})% of the step: overlap it with the backward pass, accumulate more "
        r"micro-batches per step, or use a faster network",
        "通信占单步时间的 {share}%：请让通信与反向传播重叠、每步累积更多微批，或换用更快的网络",
    ),
    rule(
        rf"the intra-node phases alone take (?P<inside>{NUMBER}) s, over the (?P<budget>{NUMBER}) s budget: no "
        r"network meets the target; overlap more or accumulate more micro-batches per step",
        "仅节点内阶段就要 {inside} 秒，超过了 {budget} 秒的预算：任何网络都达不到目标；"
        "请提高通信重叠比例，或每步累积更多微批",
    ),
    rule(r"the catalog lists no scale-out links", "目录中没有节点间（scale-out）网络链路"),
    rule(
        rf"no catalog link gives (?P<need>{NUMBER}) GB/s per GPU with (?P<ports>{NUMBER}) port\(s\) per GPU; "
        r"(?P<link>.+) would need (?P<more>\d+) ports per GPU",
        "目录中没有哪种链路能在每卡 {ports} 个端口时提供每卡 {need} GB/s；{link} 需要每卡 {more} 个端口",
    ),
    # storage
    rule(
        r"the catalog has no shared \(parallel file system\) tier; showing the fastest local one",
        "目录中没有共享存储层（并行文件系统）；这里给出最快的本地存储",
    ),
    rule(
        rf"each server must write (?P<need>{NUMBER}) GB/s, above the (?P<has>{NUMBER}) GB/s one client gets from "
        r"(?P<tier>.+): lengthen checkpoint_write_seconds, save asynchronously to local NVMe first, or "
        r"spread the job over more servers",
        "每台服务器需要写入 {need} GB/s，超过了单个客户端从 {tier} 获得的 {has} GB/s："
        "请延长 checkpoint_write_seconds、先异步保存到本地 NVMe，或把任务分摊到更多服务器上",
    ),
    rule(
        r"the checkpoint interval is longer than the run: only the final checkpoint is written",
        "检查点间隔比整个训练还长：只会写入最后一个检查点",
    ),
    rule(
        rf"synchronous saves of (?P<seconds>{NUMBER}) s every (?P<hours>{NUMBER}) h stall training (?P<share>{NUMBER})% "
        r"of the time: save asynchronously or less often",
        "每 {hours} 小时同步保存一次、每次 {seconds} 秒，训练有 {share}% 的时间停顿：请改为异步保存或降低保存频率",
    ),
    rule(
        r"one weights-only checkpoint is larger than a server's local NVMe",
        "单个仅含权重的检查点就超过了一台服务器的本地 NVMe 容量",
    ),
    # scaling
]


def warning_in_language(text: str, language: Language) -> str | None:
    """``text``, one of the calculators' warnings, in ``language``; None when there is no rendering."""
    return text if language == "en" else rendered(text, RULES)
