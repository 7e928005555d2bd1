"""The calculators' assumptions in the reader's language.

The calculators in tools/ write each assumption as one English sentence, and tests and LLM tool calls read
those sentences as they are. Here each sentence shape has a pattern and a Chinese rendering that copies the
captured numbers, units and catalog names verbatim: nothing is recomputed or reformatted.
"""

from __future__ import annotations

import re

from assistant.composer.rules import NUMBER, PRICE_KIND, Groups, Rule, rendered, rule
from knowledge.text import Language

_SOURCE = {
    "given": "用户给定",
    "catalog": "目录数据",
    "user value": "用户给定",
    "catalog estimate, no vendor figure": "目录估算值，厂商未公布",
}
_CURRENCY = {"USD": "美元", "CNY": "元"}
_LEASE_SOURCE = {"given": "用户给定", "assumed": "假设"}
_COOLING = {"air": "风冷", "liquid": "液冷"}
_PRICE_UNIT = {"accelerator": "单卡", "server": "整机"}
_RECOMPUTE = {"none": "不做激活重计算", "selective": "选择性激活重计算", "full": "完整激活重计算"}
_SWITCH = {"on": "开启", "off": "关闭"}
_TRAINING_PRECISION = {
    "fp32": "FP32",
    "bf16-mixed": "BF16 混合精度",
    "fp16-mixed": "FP16 混合精度",
    "fp8-mixed": "FP8 混合精度",
}
_OPTIMIZER = {
    "adamw": "AdamW",
    "adam": "Adam",
    "adam-8bit": "8 位 Adam",
    "sgd-momentum": "带动量的 SGD",
    "sgd": "SGD",
    "adafactor": "Adafactor",
}


def _origin(origin: str) -> str:
    """``given`` or ``catalog <name>``: where a figure came from."""
    return "用户给定" if origin == "given" else f"目录中的 {origin.removeprefix('catalog ')}"


def _dimms(layout: str) -> str:
    """``24 x 64 GB DIMMs`` -> ``24 条 64 GB 内存条``; an unknown layout stays as written."""
    beyond = re.fullmatch(rf"({NUMBER} GB): more than (\d+) x (\d+ GB) DIMMs", layout)
    if beyond:
        return f"{beyond[1]}：超过 {beyond[2]} 条 {beyond[3]} 内存条的上限"
    options = re.fullmatch(r"(\d+ x \d+ GB(?: or \d+ x \d+ GB)*) DIMMs", layout)
    if not options:
        return layout
    sticks = [re.sub(r"(\d+) x (\d+ GB)", r"\1 条 \2", o) for o in options[1].split(" or ")]
    return "或".join(sticks) + " 内存条"


def _model(g: Groups) -> str:
    active = f"，激活 {g['active']}B" if g["active"] else ""
    shape = (
        f"{g['params']}B 参数{active}；{g['layers']} 层，隐藏维度 {g['hidden']}，{g['heads']} 个注意力头"
        f"（{g['kv']} 个 KV 头），MLP {g['ffn']}，词表 {g['vocab']}"
    )
    if g["origin"] == "derived from the parameter count (GPT-like proportions)":
        return f"模型结构按参数量推算（类 GPT 比例）：{shape}"
    return f"模型：{g['name']}（目录预设），{shape}"


def _flops_per_token(g: Groups) -> str:
    active = " 激活参数" if g["active"] else ""
    attention = f" + 12·L·h·s（s={g['seq']}）" if g["seq"] else "（未计注意力项）"
    frozen = "（底座冻结，不算权重梯度）" if g["frozen"] else ""
    return f"每 token 计算量 = {g['factor']} × {g['params']}B{active}{frozen}{attention}"


def _shares(g: Groups) -> str:
    platform = (
        f"平台（CPU、内存、网卡、机箱）按 GPU 购置成本的 {g['platform']}% 计，" if g["platform"] else ""
    )
    return f"{platform}网络与存储按服务器购置成本的 {g['network']}% 计：规划比例，并非报价"


# One rule per sentence shape in tools/*.py, grouped by module: a pattern matches a whole sentence, and a
# string renders with str.format over the named groups. tests/unit/test_assumptions_zh.py runs the
# calculators on many inputs and checks that every sentence has a rule and keeps its numbers and names.
RULES: list[Rule] = [
    rule(
        r"the rent covers power, hosting and support: nothing is added to it",
        "租金已包含电费、托管和维保（用户给定）：不另加费用",
    ),
    rule(rf"(?P<share>{NUMBER})% off the price given \(given\)", "在所给价格上优惠 {share}%（用户给定）"),
    rule(
        rf"(?P<gbit>{NUMBER}) Gbit/s at line rate; TCP/RDMA overhead and the far end's write speed add to it "
        r"\(expect 70-90% of line rate in practice\)",
        "按 {gbit} Gbit/s 线速计；TCP/RDMA 协议开销和对端的写入速度会拉长时间（实际通常为线速的 70%-90%）",
    ),
    # driver_check
    rule(
        r"driver minimums for Linux, GA releases \(NVIDIA release notes, as of (?P<date>[\d-]+)\)",
        "驱动最低版本按 Linux 正式版（NVIDIA 发行说明，截至 {date}）",
    ),
    rule(
        rf"(?P<gpu>.+) \((?P<arch>.+)\) needs CUDA (?P<cuda>{NUMBER}) or newer",
        "{gpu}（{arch}）需要 CUDA {cuda} 及以上",
    ),
    # architecture.describe
    rule(
        rf"model: (?P<name>.+), (?P<params>{NUMBER})B parameters(?:, (?P<active>{NUMBER})B active)?; (?P<layers>\d+) "
        r"layers, hidden (?P<hidden>\d+), (?P<heads>\d+) heads \((?P<kv>\d+) KV\), MLP (?P<ffn>\d+), "
        r"vocab (?P<vocab>\d+) "
        r"\[(?P<origin>derived from the parameter count \(GPT-like proportions\)|catalog preset)\]",
        _model,
    ),
    # compute
    rule(
        rf"(?P<tokens>{NUMBER}) tokens per step / (?P<s>{NUMBER}) s / (?P<gpus>{NUMBER}) GPUs = (?P<rate>{NUMBER}) tokens/s per GPU",
        "每步 {tokens} token ÷ {s} 秒 ÷ {gpus} 张卡 = 每卡每秒 {rate} token",
    ),
    rule(
        rf"MFU (?P<mfu>{NUMBER})% \((?P<how>given|assumed)\)",
        lambda g: f"MFU {g['mfu']}%（" + ("用户给定" if g["how"] == "given" else "假设值") + "）",
    ),
    rule(r"(?P<n>[24]) bytes per token id \((?P<w>uint16|uint32)\)", "每个 token id 占 {n} 字节（{w}）"),
    rule(
        rf"(?P<raw>{NUMBER}) TB now(?: \+ (?P<g>{NUMBER}) TB/day x (?P<d>{NUMBER}) days)?, (?P<n>\d+) cop(?:y|ies)",
        lambda g: (
            f"现有 {g['raw']} TB"
            + (f" + 每天 {g['g']} TB × {g['d']} 天" if g["g"] else "")
            + f"，{g['n']} 份副本"
        ),
    ),
    rule(rf"(?P<r>{NUMBER}) output tokens/s per GPU \(given\)", "每卡每秒输出 {r} token（用户给定）"),
    rule(
        rf"(?P<r>{NUMBER}) output tokens/s per server \(given\) over (?P<g>\d+) GPUs = (?P<per>{NUMBER}) per GPU",
        "每台服务器每秒输出 {r} token（用户给定），分摊到 {g} 张卡为每卡 {per}",
    ),
    rule(rf"busy (?P<u>{NUMBER})% of paid hours", "付费时长中 {u}% 处于满负荷"),
    rule(
        rf"(?P<r>{NUMBER}) output tokens/s per server(?: \((?P<given>given)\)| = (?P<g>\d+) GPUs x (?P<per>{NUMBER}))",
        lambda g: (
            f"每台服务器每秒输出 {g['r']} token"
            + ("（用户给定）" if g["given"] else f" = {g['g']} 张卡 × {g['per']}")
        ),
    ),
    rule(rf"headroom (?P<h>{NUMBER})% over the peak", "在峰值之上留 {h}% 余量"),
    rule(
        r"CPU: (?P<n>\d+) GPUs x \((?P<w>\d+) loader workers \+ (?:the training process \+ NCCL/OS|2)\) = "
        r"(?P<c>\d+) physical cores at least(?:; the catalog's 8-GPU servers ship (?P<lo>\d+)-(?P<hi>\d+) cores)?",
        lambda g: (
            f"CPU：{g['n']} 张卡 ×（{g['w']} 个数据加载进程 + 训练进程 + NCCL/系统）= 至少 {g['c']} 个物理核"
            + (f"；目录中的 8 卡服务器配 {g['lo']}-{g['hi']} 核" if g["lo"] else "")
        ),
    ),
    rule(
        rf"plan (?P<c>\d+) cores: (?P<p>{NUMBER}) per GPU, the median of the catalog's 8-GPU servers",
        "按 {c} 核规划：每卡 {p} 核，取目录中 8 卡服务器的中位数",
    ),
    rule(
        rf"(?P<b>{NUMBER}) bytes of raw text per token \(English averages about 4; measure your tokenizer on a "
        r"sample, Chinese text differs\)",
        "每个 token 约 {b} 字节原始文本（英文平均约 4 字节；中文不同，请用自己的分词器在样本上实测）",
    ),
    # serving_estimate
    rule(
        rf"(?P<gpu>.+?): (?P<bw>{NUMBER}) GB/s at (?P<be>{NUMBER})% efficiency for decoding, (?P<tf>{NUMBER}) dense "
        rf"(?P<p>FP8|BF16) TFLOPS at (?P<ce>{NUMBER})% for prefill",
        "{gpu}：解码按显存带宽 {bw} GB/s 的 {be}% 计，预填充按 {p} 稠密算力 {tf} TFLOPS 的 {ce}% 计",
    ),
    rule(
        rf"(?P<i>{NUMBER}) prompt \+ (?P<o>{NUMBER}) output tokens per request; each user streams at least "
        rf"(?P<u>{NUMBER}) tokens/s",
        "每个请求输入 {i} + 输出 {o} token；每个用户至少 {u} token/s",
    ),
    rule(
        r"batch (?P<b>\d+) per replica, limited by (?P<why>memory|latency|scheduler|given)(?: \(vLLM max_num_seqs (?P<m>\d+)\))?",
        lambda g: (
            f"每个副本并发 {g['b']} 路，受"
            + {"memory": "显存", "latency": "每用户速度", "scheduler": "调度上限", "given": "给定值"}[
                g["why"]
            ]
            + "限制"
            + (f"（vLLM max_num_seqs {g['m']}）" if g["m"] else "")
        ),
    ),
    rule(
        rf"(?P<h>{NUMBER})% headroom over the peak; (?P<n>\d+) GPUs per server",
        "在峰值之上留 {h}% 余量；每台服务器 {n} 张卡",
    ),
    rule(
        r"a roofline estimate: measure tokens/s per GPU under your load \(vLLM benchmark_serving\) to replace it",
        "这是屋顶线估算：请在自己的负载下实测每卡 token/s（vLLM benchmark_serving）来替代它",
    ),
    rule(r"rounded up to whole servers of (?P<n>\d+) GPUs", "按每台 {n} 卡的整机向上取整"),
    rule(r"catalog figures as of (?P<d>[\d, -]+)", "目录数据，截至 {d}"),
    rule(
        rf"cloud bill (?P<b>{NUMBER}) (?P<c>USD|CNY) per month \(given\) for the same work, the same as "
        rf"(?P<p>{NUMBER}) USD per GPU-hour on (?P<g>\d+) GPUs at (?P<u>{NUMBER})%",
        lambda g: (
            f"每月云上账单 {g['b']} {_CURRENCY[g['c']]}（用户给定），相当于 {g['g']} 张卡在 {g['u']}% 利用率下每卡时 {g['p']} 美元"
        ),
    ),
    rule(
        r"cloud cost is the monthly bill given, for the whole period",
        "上云成本按给定的月账单计，覆盖整个周期",
    ),
    rule(
        rf"(?P<n>\d+) servers x (?P<p>{NUMBER}) (?P<c>USD|CNY) each \(given\)",
        lambda g: f"{g['n']} 台服务器 × 每台 {g['p']} {_CURRENCY[g['c']]}（用户给定）",
    ),
    rule(r"tensor TFLOPS are dense, without 2:4 sparsity", "张量算力均为稠密值，不含 2:4 稀疏"),
    rule(rf"(?P<t>{NUMBER})B tokens", "训练 {t}B token"),
    rule(
        rf"(?P<t>{NUMBER})B tokens \(Chinchilla-optimal: 20 per parameter; not a data recommendation\)",
        "训练 {t}B token（按 Chinchilla 最优取每个参数 20 个 token；并非数据量建议）",
    ),
    rule(
        rf"FLOPs per token = (?P<factor>[46]) x (?P<params>{NUMBER})B(?P<active> active)?"
        r"(?P<frozen> \(frozen base: no weight gradients\))?"
        r"(?: \+ 12·L·h·s \(s=(?P<seq>\d+)\)| \(attention term left out\))",
        _flops_per_token,
    ),
    rule(
        rf"FLOPs per token = (?P<factor>[46]) x (?P<params>{NUMBER})B(?P<active> active)?"
        r"(?P<frozen> \(frozen base: no weight gradients\))? \+ 12·L·H·Q·s \(s=(?P<seq>\d+)\)",
        lambda g: _flops_per_token(g).replace("12·L·h·s", "12·L·H·Q·s"),
    ),
    rule(
        rf"attention 6·L·H·\(Qk\+Qv\)·s = 6 x (?P<L>\d+) x (?P<H>\d+) x \((?P<qk>\d+) \+ (?P<v>\d+)\) x "
        rf"(?P<s>\d+) = (?P<flops>{NUMBER}) FLOPs per token \(PaLM Appendix B: heads x head size, not the hidden "
        r"size\)",
        "注意力项 6·L·H·(Qk+Qv)·s = 6 × {L} × {H} × ({qk} + {v}) × {s} = 每 token {flops} FLOPs"
        "（PaLM 附录 B：按注意力头数 × 每头维度计，而不是隐藏维度）",
    ),
    rule(
        rf"(?P<gpu>.+): (?P<peak>{NUMBER}) dense (?P<precision>[A-Z0-9]+) TFLOP/s per GPU "
        r"\((?P<source>catalog|user value)\)(?P<no_bf16> \(it has no BF16\))?",
        lambda g: (
            f"{g['gpu']}：单卡稠密 {g['precision']} 峰值 {g['peak']} TFLOP/s（{_SOURCE[g['source']]}）"
            + ("；该卡不支持 BF16" if g["no_bf16"] else "")
        ),
    ),
    rule(
        rf"MFU (?P<mfu>{NUMBER})% \(range (?P<low>{NUMBER})%-(?P<high>{NUMBER})%\); published runs report 35-55% on "
        r"H100/A100-class GPUs",
        "MFU {mfu}%（区间 {low}%-{high}%）；公开的训练报告在 H100/A100 级 GPU 上为 35-55%",
    ),
    rule(
        rf"MFU (?P<mfu>{NUMBER})% \(range (?P<low>{NUMBER})%-(?P<high>{NUMBER})%\); (?P<per>\d+) GPUs per server",
        "MFU {mfu}%（区间 {low}%-{high}%）；每台服务器 {per} 张卡",
    ),
    # cluster_plan
    rule(
        rf"MFU (?P<mfu>{NUMBER})% on every GPU \(vendors differ in achievable MFU: calibrate with your own runs\)",
        "所有 GPU 都按 MFU {mfu}% 计（各厂商实际能达到的 MFU 不同，请用自己的实测校准）",
    ),
    rule(
        r"memory check: ZeRO-3, tensor parallel up to 8, full recomputation where selective is not enough; "
        r"(?P<precision>\S+), micro-batch (?P<mb>\d+)",
        lambda g: (
            "显存校验：ZeRO-3，张量并行最多 8，选择性激活重计算不够时改用完整激活重计算；"
            f"{_TRAINING_PRECISION.get(g['precision'], g['precision'])}，微批 {g['mb']}"
        ),
    ),
    rule(
        rf"purchase cost = GPUs x newest catalog price x \(1 \+ (?P<share>{NUMBER})% for servers, "
        r"network, storage\)",
        "购买成本 = GPU 数量 × 目录最新价格 × (1 + {share}%，用于服务器、网络和存储)",
    ),
    # cost: exchange rate, hardware, power
    rule(
        rf"exchange rate (?P<rate>{NUMBER}) CNY per USD \(given\)",
        "汇率按每美元 {rate} 元人民币计（用户给定）",
    ),
    rule(
        rf"exchange rate (?P<rate>{NUMBER}) CNY per USD \(catalog defaults, as of (?P<date>[\d-]+)\); "
        "check the current rate before quoting yuan",
        "汇率按每美元 {rate} 元人民币计（目录默认值，截至 {date}）；报人民币价格前请核对当前汇率",
    ),
    rule(r"(?P<gpus>\d+) GPUs: one (?P<server>.+)", "{gpus} 张 GPU：一台 {server}"),
    rule(
        rf"(?P<gpu>.+) TDP (?P<w>{NUMBER}) W per GPU \((?P<source>given|catalog estimate, no vendor figure|catalog)\)",
        lambda g: f"{g['gpu']} 单卡 TDP {g['w']} W（{_SOURCE[g['source']]}）",
    ),
    rule(rf"IT load (?P<kw>{NUMBER}) kW \(given\)", "IT 负载 {kw} kW（给定）"),
    rule(
        rf"IT load = (?P<n>\d+) x (?P<kw>{NUMBER}) kW per server \(given\)",
        "IT 负载 = {n} × 每台 {kw} kW（用户给定）",
    ),
    rule(
        r"the power given is the average draw all year, busy or idle \(given\)",
        "所给功率按全年平均功耗计，无论忙闲（用户给定）",
    ),
    rule(
        rf"IT load = (?P<n>\d+) x (?P<kw>{NUMBER}) kW per (?P<server>.+) "
        r"\((?:(?P<given>given)|catalog maximum system power, as of (?P<date>[\d-]+))\); "
        "a maximum rating: measured draw while training is usually lower",
        lambda g: (
            f"IT 负载 = {g['n']} × {g['kw']} kW（每台 {g['server']}，"
            + ("用户给定" if g["given"] else f"目录中的最大系统功耗，截至 {g['date']}")
            + "）；这是额定最大值，训练时实测功耗通常更低"
        ),
    ),
    rule(
        rf"(?P<days>{NUMBER}) days: (?P<tokens>{NUMBER}) tokens / \((?P<rate>{NUMBER}) tokens/s per GPU x "
        rf"(?P<s>{NUMBER}) s\) = (?P<gpus>{NUMBER}) GPUs, rounded up",
        "{days} 天：{tokens} token ÷（每卡每秒 {rate} token × {s} 秒）= {gpus} 张卡，向上取整",
    ),
    rule(
        rf"(?P<tokens>{NUMBER}) tokens per step / (?P<s>{NUMBER}) s = (?P<tps>{NUMBER}) tokens/s for the whole job",
        "每步 {tokens} token / {s} 秒 = 整个任务每秒 {tps} token",
    ),
    # budget
    rule(
        rf"network and storage (?P<share>{NUMBER})% of server capex for a cluster \(a planning share, not a quote\); "
        "a single server needs none",
        "集群网络和存储按服务器购置成本的 {share}% 计（规划比例，不是报价）；单台服务器不需要",
    ),
    rule(
        rf"(?P<price>{NUMBER}) (?P<cur>USD|CNY) per server \(given\)", "每台服务器 {price} {cur}（用户给定）"
    ),
    # fabric
    rule(
        rf"(?P<k>\d+)-port switches at the endpoint speed; each leaf gives (?P<down>\d+) ports to GPUs and (?P<up>\d+) up"
        rf"(?: \((?:(?P<nb>non-blocking)|(?P<r>{NUMBER}):1 oversubscribed)\))?",
        lambda g: (
            f"{g['k']} 口交换机（按端点速率）；每台 leaf {g['down']} 个口接 GPU、{g['up']} 个口上联"
            + ("（无阻塞）" if g["nb"] else f"（{g['r']}:1 收敛）" if g["r"] else "")
        ),
    ),
    rule(
        rf"(?P<ports>{NUMBER}) fabric ports(?: = (?P<n>\d+) servers x (?P<g>\d+) GPUs x (?P<p>\d+) per GPU)?",
        lambda g: (
            f"{g['ports']} 个网络端口"
            + (f" = {g['n']} 台服务器 × {g['g']} 张卡 × 每卡 {g['p']} 个" if g["n"] else "")
        ),
    ),
    rule(
        r"compute fabric only: storage, in-band management and out-of-band networks need their own switches",
        "只计算计算网络：存储网、带内管理网和带外管理网另需交换机",
    ),
    # rack fit
    rule(
        rf"(?P<server>.+): (?P<kw>{NUMBER}) kW maximum system power \(catalog, as of (?P<date>[\d-]+)\)",
        "{server}：最大系统功耗 {kw} kW（目录数据，截至 {date}）",
    ),
    rule(
        rf"server IT power = (?P<n>\d+) x (?P<w>{NUMBER}) W x \(1 \+ (?P<share>{NUMBER})% non-GPU share\) = "
        rf"(?P<kw>{NUMBER}) kW \(catalog, as of (?P<date>[\d-]+)\)",
        "单台服务器 IT 功率 = {n} × {w} W ×（1 + GPU 以外部分 {share}%）= {kw} kW（目录数据，截至 {date}）",
    ),
    rule(
        rf"server IT power scaled from (?P<server>.+?) \((?P<ref>{NUMBER}) kW for (?P<n>\d+) GPUs of the same "
        rf"(?P<w>{NUMBER}) W\): (?P<kw>{NUMBER}) kW \(catalog, as of (?P<date>[\d-]+)\)",
        "单台服务器 IT 功率按 {server} 折算（{n} 张同为 {w} W 的卡共 {ref} kW）：{kw} kW（目录数据，截至 {date}）",
    ),
    rule(rf"(?P<kw>{NUMBER}) kW per server \(given\)", "每台服务器 {kw} kW（用户给定）"),
    rule(
        rf"GPUs capped at (?P<cap>{NUMBER}) W instead of (?P<tdp>{NUMBER}) W: (?P<n>\d+) x (?P<d>{NUMBER}) W = "
        rf"(?P<cut>{NUMBER}) kW less per server, (?P<kw>{NUMBER}) kW",
        "GPU 功耗限到 {cap} W（原 {tdp} W）：每台少 {n} × {d} W = {cut} kW，为 {kw} kW",
    ),
    rule(
        r"only servers counted: switches, storage and PDUs in the same rack take their share",
        "只计入服务器：同一机柜里的交换机、存储和 PDU 也要占用功率",
    ),
    rule(
        rf"non-GPU server power (?P<share>{NUMBER})% of GPU TDP \(given\)",
        "服务器中 GPU 以外部分的功耗按 GPU TDP 的 {share}% 计（用户给定）",
    ),
    rule(
        rf"non-GPU server power (?P<share>{NUMBER})% of GPU TDP \(catalog defaults, as of (?P<date>[\d-]+): "
        r"DGX H100 \(10\.2 kW - 8 x 0\.7 kW\) / 5\.6 kW\); a node draws more than its GPUs",
        "服务器中 GPU 以外部分的功耗按 GPU TDP 的 {share}% 计（目录默认值，截至 {date}：DGX H100 "
        "(10.2 kW - 8 × 0.7 kW) / 5.6 kW）；整机功耗高于其中 GPU 之和",
    ),
    rule(
        rf"a (?P<segment>consumer|workstation) build of (?P<n>\d+) cards is a workstation: (?P<host>{NUMBER}) kW for the "
        rf"CPU, memory, drives and fans, and a (?P<eff>{NUMBER})%-efficient power supply \(catalog defaults, as of "
        rf"(?P<date>[\d-]+)\), not a DGX's server overhead",
        lambda g: (
            f"{g['n']} 张{'消费级' if g['segment'] == 'consumer' else '工作站'}卡按工作站计：CPU、内存、硬盘和风扇共 "
            f"{g['host']} kW，电源效率 {g['eff']}%（目录默认值，截至 {g['date']}），不套用 DGX 服务器的额外功耗比例"
        ),
    ),
    rule(
        r"PUE 1 for a desk-side workstation \(no data-hall cooling counted\); give one if it sits in a hall",
        "桌边工作站按 PUE 1 计（不计机房制冷）；若放在机房里，请给出 PUE",
    ),
    rule(rf"PUE (?P<pue>{NUMBER}) \(given\)", "PUE {pue}（用户给定）"),
    rule(
        rf"PUE (?P<pue>{NUMBER}) for (?P<cooling>air|liquid) cooling \(catalog defaults, as of (?P<date>[\d-]+)\)",
        lambda g: f"{_COOLING[g['cooling']]} PUE {g['pue']}（目录默认值，截至 {g['date']}）",
    ),
    rule(
        rf"PUE (?P<pue>{NUMBER}) for liquid cooling \(catalog defaults, as of (?P<date>[\d-]+)\); (?P<name>.+) is sold liquid-cooled",
        lambda g: f"液冷 PUE {g['pue']}（目录默认值，截至 {g['date']}）；{g['name']} 只有液冷版本",
    ),
    rule(
        rf"electricity (?P<price>{NUMBER}) (?P<currency>USD|CNY)/kWh \(given\)(?: = \$(?P<usd>{NUMBER})/kWh)?",
        lambda g: (
            f"电价 {g['price']} {_CURRENCY[g['currency']]}/kWh（用户给定）"
            + (f"，折合 ${g['usd']}/kWh" if g["usd"] else "")
        ),
    ),
    rule(
        rf"electricity \$(?P<price>{NUMBER})/kWh \(catalog defaults, as of (?P<date>[\d-]+): about the US "
        r"industrial average\); use your contracted tariff",
        "电价 ${price}/kWh（目录默认值，截至 {date}：约为美国工业电价平均水平）；请换成实际签约电价",
    ),
    rule(
        rf"(?P<hours>{NUMBER}) hours per year x utilisation (?P<u>{NUMBER}); idle draw is not counted, so low "
        r"utilisation understates power",
        "每年 {hours} 小时 × 利用率 {u}；未计空闲功耗，利用率低时会低估用电",
    ),
    # cost: cloud
    rule(
        rf"(?P<gpus>\d+) GPUs x (?P<days>{NUMBER}) days x 24 h = (?P<hours>{NUMBER}) GPU-hours",
        "{gpus} 张卡 × {days} 天 × 24 小时 = {hours} GPU 小时",
    ),
    rule(
        r"prices per GPU-hour = instance price per hour / GPUs per instance; hyperscaler prices include "
        r"CPUs, RAM, NVMe and network, marketplace prices are host-set and move often",
        "每 GPU 小时价格 = 实例每小时价格 / 实例内 GPU 数；大型云厂商的价格包含 CPU、内存、NVMe 和网络，"
        "算力市场的价格由出租方自定，变动频繁",
    ),
    rule(
        r"on-demand list prices; committed-use and negotiated prices are typically 30-60% lower",
        "按需目录价；承诺用量或议价的价格通常低 30-60%",
    ),
    rule(
        rf"on (?P<run>{NUMBER}) GPUs: (?P<tps>{NUMBER}) tokens/s per GPU x (?P<eff>{NUMBER})% scaling efficiency = (?P<out>{NUMBER})",
        lambda g: f"在 {g['run']} 张卡上：每卡每秒 {g['tps']} token × 扩展效率 {g['eff']}% = {g['out']}",
    ),
    rule(
        r"cost = GPU-hours x price: storage, egress and staff are excluded",
        "费用 = GPU 小时 × 单价：不含存储、出网流量和人力",
    ),
    rule(
        rf"(?P<hours>{NUMBER}) GPU-hours \+ (?P<share>{NUMBER})% margin \(given\) = (?P<total>{NUMBER}) GPU-hours",
        "{hours} 卡时 + {share}% 余量（用户给定）= {total} 卡时",
    ),
    rule(
        r"cost = GPU-hours x price: storage, egress, staff, failed runs and experiments are excluded",
        "费用 = GPU 小时 × 单价：不含存储、出网流量、人力、失败的训练和实验",
    ),
    rule(
        r"cost = GPU-hours x price \+ the storage given: egress, staff, failed runs and experiments are excluded",
        "费用 = GPU 小时 × 单价 + 给定的存储：不含出网流量、人力、失败的训练和实验",
    ),
    rule(
        rf"storage (?P<tb>{NUMBER}) TB x 1,000 GB x (?P<price>{NUMBER}) (?P<currency>USD|CNY) per GB-month x "
        rf"(?P<months>{NUMBER}) months",
        lambda g: (
            f"存储 {g['tb']} TB × 1,000 GB × 每 GB 每月 {g['price']} {_CURRENCY[g['currency']]} × {g['months']} 个月"
        ),
    ),
    # cost: TCO
    rule(
        rf"capex (?P<capex>{NUMBER}) (?P<currency>USD|CNY) \(given, everything included\)",
        lambda g: f"购置成本 {g['capex']} {_CURRENCY[g['currency']]}（用户给定，已含全部）",
    ),
    rule(
        rf"(?P<unit>accelerator|server) price \$(?P<usd>{NUMBER}) \((?P<kind>list|street|msrp|estimate), catalog "
        r"(?P<id>\S+), as of (?P<date>[\d-]+)\); data-centre prices are rarely published and vary with "
        r"volume and date",
        lambda g: (
            f"{_PRICE_UNIT[g['unit']]}价格 ${g['usd']}（{PRICE_KIND[g['kind']]}，目录 {g['id']}，截至 "
            f"{g['date']}）；数据中心硬件价格很少公开，且随采购量和时间变化"
        ),
    ),
    rule(
        r"the server price includes CPUs, RAM, NICs and chassis: no platform share added",
        "整机价格已含 CPU、内存、网卡和机箱：不再另加平台费用",
    ),
    rule(
        rf"(?:platform \(CPUs, RAM, NICs, chassis\) (?P<platform>{NUMBER})% of GPU capex and )?"
        rf"network and storage (?P<network>{NUMBER})% of server capex: "
        r"(?:planning shares, not quotes|a planning share, not a quote)",
        _shares,
    ),
    rule(
        rf"platform \(CPUs, RAM, NICs, chassis\) (?P<platform>{NUMBER})% of GPU capex: a planning share, not a quote",
        "平台（CPU、内存、网卡、机箱）按 GPU 购置成本的 {platform}% 计：规划比例，并非报价",
    ),
    rule(
        rf"network and storage (?P<amount>{NUMBER}) (?P<currency>USD|CNY) \(given\)",
        lambda g: f"网络与存储 {g['amount']} {_CURRENCY[g['currency']]}（用户给定）",
    ),
    rule(
        r"(?P<n>\d+) copies of the raw text and the token ids \(given\)",
        "原始文本和 token id 各保留 {n} 份（用户给定）",
    ),
    rule(r"(?P<n>\d+) copies of the token ids", "token id 数据保留 {n} 份"),
    rule(
        rf"(?P<old>.+?) (?P<op>{NUMBER}) -> (?P<new>.+?) (?P<np>{NUMBER}) dense (?P<p>[A-Z0-9]+) TFLOP/s \(catalog\): "
        rf"(?P<x>{NUMBER})x at the same MFU; a faster card is harder to keep fed, so its MFU is often lower "
        r"\(Llama 3 reports 38-43% on H100, Megatron-LM 52% on A100\): take this as the fastest case",
        "{old} {op} → {new} {np} 稠密 {p} TFLOP/s（目录数据）：相同 MFU 下快 {x} 倍；更快的卡更难喂饱，MFU 往往更低"
        "（Llama 3 在 H100 上为 38%-43%，Megatron-LM 在 A100 上为 52%），这是最快的情况",
    ),
    rule(
        rf"scaling efficiency (?P<eff>{NUMBER})% from (?P<a>{NUMBER}) to (?P<b>{NUMBER}) GPUs \(given\)",
        "从 {a} 卡到 {b} 卡的扩展效率 {eff}%（用户给定）",
    ),
    rule(
        rf"scaling efficiency (?P<eff>{NUMBER})% from (?P<a>{NUMBER}) to (?P<b>{NUMBER}) GPUs "
        r"\(assumed: 90-95% on a non-blocking 400G fabric\)",
        "从 {a} 卡到 {b} 卡的扩展效率按 {eff}% 计（假设：无阻塞 400G 网络上一般为 90%-95%）",
    ),
    rule(
        r"one more checkpoint is on disk while the next is written, before the oldest is deleted",
        "写下一个检查点时最旧的还没删，盘上会多一个",
    ),
    rule(
        rf"(?P<share>{NUMBER})% kept after cleaning and deduplication: (?P<tb>{NUMBER}) TB of text",
        "清洗、去重后保留 {share}%：{tb} TB 文本",
    ),
    rule(
        rf"(?P<share>{NUMBER})% of the text kept after cleaning and deduplication",
        "清洗、去重后保留 {share}% 的文本",
    ),
    rule(
        rf"(?P<disk>{NUMBER}) TB per disk, before hot spares and file-system or RAID overhead",
        "每块盘 {disk} TB，未计热备盘和文件系统或 RAID 开销",
    ),
    rule(
        rf"(?P<c>{NUMBER}) TB compressed x (?P<r>{NUMBER}) = (?P<u>{NUMBER}) TB of text uncompressed "
        r"\(`zstd -l` or `gzip -l` prints your files' real ratio\)",
        "压缩后 {c} TB × {r} = 解压后 {u} TB 文本（`zstd -l` 或 `gzip -l` 可查看文件的实际压缩比）",
    ),
    rule(
        rf"the (?P<c>{NUMBER}) TB are compressed: x (?P<r>{NUMBER}) = (?P<u>{NUMBER}) TB of text "
        r"\(`zstd -l` prints the real ratio\)",
        "这 {c} TB 是压缩数据：× {r} = {u} TB 文本（`zstd -l` 可查看实际压缩比）",
    ),
    # scaling
    # quote
    rule(
        rf"(?P<n>\d+) x (?P<price>{NUMBER}) (?P<currency>USD|CNY) \(given\)",
        lambda g: f"{g['n']} × {g['price']} {_CURRENCY[g['currency']]}（用户给定）",
    ),
    rule(rf"plus (?P<share>{NUMBER})% of the items on top \(given\)", "另加 {share}%（用户给定）"),
    rule(
        rf"straight-line over (?P<months>{NUMBER}) months: no interest, resale or running costs",
        "按 {months} 个月直线摊销：不计利息、残值和运行成本",
    ),
    rule(
        rf"electricity (?P<bill>{NUMBER}) (?P<currency>USD|CNY) per year \(given\)",
        lambda g: f"电费每年 {g['bill']} {_CURRENCY[g['currency']]}（用户给定）",
    ),
    rule(
        rf"lease (?P<lease>{NUMBER}) (?P<currency>USD|CNY) per month \(given\)",
        lambda g: f"租金每月 {g['lease']} {_CURRENCY[g['currency']]}（用户给定）",
    ),
    rule(
        rf"lease payment (?P<rate>{NUMBER})% of capex per month: capex repaid over a (?P<term>\d+)-month term "
        rf"\((?P<ts>given|assumed)\) at (?P<apr>{NUMBER})% APR \((?P<as>given|assumed)\) as an annuity, "
        r"r / \(1 - \(1 \+ r\)\^-n\) with r = APR / 12; ask lessors for their terms",
        lambda g: (
            f"月租按购置成本的 {g['rate']}% 计：购置成本按 {g['term']} 个月租期（{_LEASE_SOURCE[g['ts']]}）、"
            f"年利率 {g['apr']}%（{_LEASE_SOURCE[g['as']]}）等额偿还，r / (1 - (1 + r)^-n)，r = 年利率 / 12；"
            "请向租赁方询问实际条款"
        ),
    ),
    rule(
        rf"lease payment (?P<rate>{NUMBER})% of capex per month \(given\)",
        "月租按购置成本的 {rate}% 计（用户给定）",
    ),
    rule(rf"period (?P<months>{NUMBER}) months \(given\)", "比较期 {months} 个月（用户给定）"),
    rule(
        r"the rent is paid every month of the period: a rental has no term",
        "租金按比较期内每个月支付：租用没有租期",
    ),
    rule(
        rf"lease payments stop after the (?P<term>\d+)-month term \((?P<ts>given|assumed)\), (?P<paid>{NUMBER}) of "
        rf"the period's (?P<months>{NUMBER}) months: a full-payout lease, so the hardware is then the lessee's and "
        r"only its running costs go on",
        lambda g: (
            f"租金在 {g['term']} 个月租期（{_LEASE_SOURCE[g['ts']]}）满后停止，即比较期 {g['months']} 个月中付 "
            f"{g['paid']} 个月：全额融资租赁，期满后硬件归承租方，之后只付运行费用"
        ),
    ),
    rule(
        rf"the (?P<term>\d+)-month lease term \((?P<ts>given|assumed)\) covers the whole (?P<months>{NUMBER})-month "
        r"period",
        lambda g: f"{g['term']} 个月的租期（{_LEASE_SOURCE[g['ts']]}）覆盖整个 {g['months']} 个月的比较期",
    ),
    rule(
        r"no resale value, financing cost on a purchase, inflation or discounting; prices stay flat over the period",
        "不计残值、购置的融资成本、通胀和折现；期内价格不变",
    ),
    rule(
        rf"resale value (?P<value>{NUMBER}) (?P<cur>USD|CNY) at the end \(given\); no financing cost on a purchase, "
        "inflation or discounting; prices stay flat over the period",
        lambda g: (
            f"期末按 {'¥' if g['cur'] == 'CNY' else '$'}{g['value']} 转售（用户给定）；不计购置的融资成本、通胀和折现；期内价格不变"
        ),
    ),
    rule(
        rf"resale value (?P<share>{NUMBER})% of capex at the end \(given\); no financing cost on a purchase, "
        "inflation or discounting; prices stay flat over the period",
        "期末残值按购置成本的 {share}% 计（用户给定）；不计购置的融资成本、通胀和折现；期内价格不变",
    ),
    rule(
        r"cloud cost is every GPU-hour of the period x the reserved price \(paid whether used or not\): no "
        r"staff, storage or egress added for cloud",
        "云上费用按整个周期的每个 GPU 小时 × 预留价格计（用不用都要付）；云上不另加人员、存储和流量费用",
    ),
    rule(
        r"cloud cost is GPU-hours used x price: no staff, storage or egress added for cloud",
        "上云成本 = 实际使用的 GPU 小时 × 单价：不另计人力、存储和出网流量",
    ),
    rule(
        r"buy and lease pay for idle hours; cloud bills only the hours used",
        "购买和租赁在空闲时段也要付费；上云只按实际使用时长计费",
    ),
    # deepspeed_estimate
    rule(
        rf"(?P<params>{NUMBER})B parameters, largest layer (?P<layer>{NUMBER})M parameters"
        r"(?P<embedding> \(embedding: vocab x hidden\))?",
        lambda g: (
            f"{g['params']}B 参数，最大的层 {g['layer']}M 参数"
            + ("（词嵌入层：词表 × 隐藏维度）" if g["embedding"] else "")
        ),
    ),
    rule(
        rf"(?P<nodes>\d+) node\(s\) x (?P<gpus>\d+) GPUs; CPU buffer factor (?P<f>{NUMBER}); model states only "
        r"\(no activations\)",
        "{nodes} 个节点 × 每节点 {gpus} 张卡；CPU 缓冲系数 {f}；只计模型状态（不含激活）",
    ),
    rule(
        r"GiB = 2\^30 bytes: DeepSpeed prints these values with the label 'GB'",
        "GiB = 2^30 字节：DeepSpeed 输出这些数值时标注的是“GB”",
    ),
    # gpu_compare
    rule(
        r"TFLOP/s are dense \(no 2:4 sparsity\) peak tensor rates from the catalog",
        "TFLOP/s 为目录中的稠密（不含 2:4 稀疏）张量峰值",
    ),
    rule(
        r"memory is the vendor's usable GB \(10\^9 bytes\) per GPU; TDP is the highest shipping "
        r"configuration",
        "显存为厂商标称的单卡可用 GB（10^9 字节）；TDP 取出货配置中的最高值",
    ),
    rule(
        r"purchase price: yours where given, else the newest catalog price for one GPU \(any kind\)",
        "购买价格：给了价格就用你的，否则用目录中最新的单卡价格（不限价格类型）",
    ),
    # gpu_spec
    rule(
        r"totals for (?P<count>\d+) cards: card price x cards, server price x whole 8-GPU servers",
        "按 {count} 张卡合计：卡价 × 卡数，服务器价 × 整台 8 卡服务器数",
    ),
    # compute_optimal
    rule(
        r"cheapest current catalog on-demand price: (?P<provider>.+?) on-demand \$(?P<price>[\d.]+)/GPU-hour "
        r"\((?P<region>[^,]+), as of (?P<date>[\d-]+)\)",
        "目录中当前最便宜的按需价格：{provider}，每 GPU 小时 ${price}（{region}，截至 {date}）",
    ),
    rule(
        rf"(?P<gpu>.+): (?P<peak>{NUMBER}) dense (?P<precision>[A-Z0-9]+) TFLOP/s at (?P<mfu>{NUMBER})% MFU",
        "{gpu}：稠密 {precision} 算力 {peak} TFLOP/s，MFU {mfu}%",
    ),
    rule(
        rf"model fixed at (?P<n>{NUMBER})B parameters \(given\); tokens = C / \(6 N\)",
        "模型规模固定为 {n}B 参数（用户给定）；token 数 = C / (6N)",
    ),
    rule(
        rf"(?P<k>{NUMBER}) tokens per parameter \(Chinchilla\); more tokens per parameter give a smaller model that "
        rf"is cheaper to serve \(Llama 3 8B saw about (?P<llama>{NUMBER})\)",
        "每参数 {k} 个 token（Chinchilla）；每参数 token 更多，模型更小、推理更省（Llama 3 8B 约为 {llama}）",
    ),
    rule(
        rf"(?P<price>{NUMBER}) (?P<currency>USD|CNY) per GPU-hour \(given\)",
        "每 GPU 小时 {price} {currency}（用户给定）",
    ),
    rule(
        r"cloud: the cheapest catalog price per GPU-hour among on-demand prices",
        "云价格：目录按需价格中最便宜的每 GPU 小时价格",
    ),
    rule(
        r"cloud: the cheapest catalog price per GPU-hour of any kind \(community, spot too\)",
        "云价格：目录中最便宜的每 GPU 小时价格，不限类型（含社区和竞价实例）",
    ),
    rule(
        r"scale-up bandwidth adds both directions \(NVLink 900 GB/s = 450 GB/s each way\)",
        "纵向扩展（scale-up）带宽为双向之和（NVLink 900 GB/s = 每个方向 450 GB/s）",
    ),
    # gpu_memory
    rule(r"sequence length (?P<seq>\d+), micro-batch (?P<mb>\d+)", "序列长度 {seq}，微批 {mb}"),
    rule(
        rf"(?P<precision>\S+), (?P<optimizer>\S+): (?P<bytes>{NUMBER}) bytes per trainable parameter "
        r"before sharding",
        lambda g: (
            f"{_TRAINING_PRECISION.get(g['precision'], g['precision'])}，"
            f"{_OPTIMIZER.get(g['optimizer'], g['optimizer'])}：切分前每个可训练参数 {g['bytes']} 字节"
        ),
    ),
    rule(
        r"data parallel (?P<dp>\d+) = (?P<gpus>\d+) GPUs / \(t=(?P<t>\d+) x p=(?P<p>\d+) x cp=(?P<cp>\d+)\); "
        r"ZeRO stage (?P<stage>\d) shards over it",
        lambda g: (
            f"数据并行度 {g['dp']} = {g['gpus']} 张卡 / (t={g['t']} × p={g['p']} × cp={g['cp']})；"
            + (
                "ZeRO stage 0，不做分片"
                if g["stage"] == "0"
                else f"ZeRO stage {g['stage']} 在数据并行维度上分片"
            )
        ),
    ),
    rule(
        r"activations: Korthikanti et al\. 2022, recompute=(?P<recompute>none|selective|full), sequence "
        r"parallel=(?P<sp>on|off), FlashAttention=(?P<flash>on|off); first pipeline stage holds L "
        r"layers' worth",
        lambda g: (
            f"激活按 Korthikanti 等（2022）估算：{_RECOMPUTE[g['recompute']]}，序列并行{_SWITCH[g['sp']]}，"
            f"FlashAttention {_SWITCH[g['flash']]}；流水线第一段按 L 层的激活计"
        ),
    ),
    rule(
        rf"overhead (?P<gb>{NUMBER}) GB per GPU \(CUDA context, NCCL buffers, fragmentation\)",
        "每卡额外开销 {gb} GB（CUDA 上下文、NCCL 缓冲区、显存碎片）",
    ),
    rule(
        r"MoE activations: each token passes through (?P<k>\d+) routed \+ (?P<shared>\d+) shared experts of "
        r"(?P<ffn>\d+), an MLP width of (?P<width>\d+)",
        "MoE 激活：每个 token 经过 {k} 个路由专家 + {shared} 个共享专家（每个宽 {ffn}），MLP 总宽度 {width}",
    ),
    rule(
        r"GPU capacity is the vendor's figure in GB; HBM is usually that many GiB, so real headroom is "
        r"~7% larger",
        "显存容量按厂商标称的 GB 计；HBM 实际通常是同样数量的 GiB，所以真实余量约多 7%",
    ),
    rule(
        rf"QLoRA base: (?P<bytes>{NUMBER}) bytes per parameter \(NF4 \+ double quantisation\)",
        "QLoRA 底座：每个参数 {bytes} 字节（NF4 + 双重量化）",
    ),
    rule(
        rf"LoRA rank (?P<rank>\d+) on every linear layer: (?P<trainable>{NUMBER})B trainable parameters",
        "每个线性层加秩为 {rank} 的 LoRA：可训练参数 {trainable}B",
    ),
    rule(
        rf"(?P<count>\d+) LoRA adapters of rank (?P<rank>\d+) on every linear layer, resident in 16 bits beside the "
        rf"base weights: (?P<gb>{NUMBER}) GB in all",
        "{count} 个秩为 {rank} 的 LoRA 适配器（每个线性层都加），以 16 位常驻在底座权重旁：共 {gb} GB",
    ),
    rule(
        rf"model states set to (?P<bytes>{NUMBER}) bytes per parameter by the user",
        "模型状态按用户设定的每参数 {bytes} 字节计",
    ),
    # host_ram
    rule(rf"GPU memory (?P<total>{NUMBER}) GB per server \(given\)", "每台服务器显存 {total} GB（用户给定）"),
    rule(
        rf"GPU memory (?P<n>\d+) x (?P<per>{NUMBER}) GB = (?P<total>{NUMBER}) GB per server "
        r"\((?P<origin>given|catalog .+)\)",
        lambda g: f"每台服务器显存 {g['n']} × {g['per']} GB = {g['total']} GB（{_origin(g['origin'])}）",
    ),
    rule(
        rf"baseline (?P<ratio>{NUMBER})x GPU memory: OS, framework and loader processes, page cache",
        "基础部分按显存的 {ratio} 倍：操作系统、框架与数据加载进程、页缓存",
    ),
    rule(
        r"data loaders: (?P<gpus>\d+) GPUs x (?P<workers>\d+) workers x (?P<batches>\d+) batches x "
        rf"(?P<mb>{NUMBER}) MB",
        "数据加载：{gpus} 张卡 × {workers} 个 worker × 预取 {batches} 批 × {mb} MB",
    ),
    rule(
        rf"pinned buffers (?P<gb>{NUMBER}) GB per GPU \(NCCL proxies, host-device copies; an assumption\)",
        "锁页缓冲区每卡 {gb} GB（NCCL 代理、主机与 GPU 之间的拷贝；假设值）",
    ),
    rule(
        rf"asynchronous checkpoint staging: (?P<params>{NUMBER})B x (?P<bytes>{NUMBER}) bytes / (?P<nodes>\d+) "
        r"servers, pinned",
        "异步检查点暂存：{params}B × {bytes} 字节 / {nodes} 台服务器，使用锁页内存",
    ),
    rule(
        rf"ZeRO-Offload: (?P<params>{NUMBER})B x (?P<bytes>{NUMBER}) bytes / (?P<nodes>\d+) servers x "
        rf"(?P<f>{NUMBER}) buffer \(DeepSpeed zero_init estimate\)",
        "ZeRO-Offload：{params}B × {bytes} 字节 / {nodes} 台服务器 × {f} 缓冲系数"
        "（按 DeepSpeed zero_init 估算）",
    ),
    rule(
        rf"(?P<gb>{NUMBER}) GB per GPU; training keeps (?P<free>{NUMBER})% free, serving uses (?P<use>{NUMBER})% \(vLLM's default\)",
        "每卡 {gb} GB；训练留 {free}% 余量，推理按 {use}% 使用（vLLM 默认值）",
    ),
    rule(
        rf"a (?P<a>{NUMBER}) A circuit at (?P<v>{NUMBER}) V carries (?P<kw>{NUMBER}) kW continuously "
        rf"\((?P<share>{NUMBER})% of its (?P<rated>{NUMBER}) kW rating\)",
        "{v} V、{a} A 的线路可持续承载 {kw} kW（额定 {rated} kW 的 {share}%）",
    ),
    rule(
        r"dense Llama-like shapes derived from the parameter count; micro-batch 1, no CPU offload",
        "按参数量推导的类 Llama 稠密结构；微批 1，不做 CPU 卸载",
    ),
    rule(
        r"the offloaded states exceed the baseline ratio, so they size the RAM in its place \(not added to it\)",
        "卸载的状态超过按比例的基线，由它取代基线来定内存大小（不与基线相加）",
    ),
    rule(
        r"the offloaded states fit within the baseline ratio's headroom \(not added to it\)",
        "卸载的状态在按比例基线的余量之内（不与基线相加）",
    ),
    rule(
        rf"rounded up to (?P<size>{NUMBER}) GB of DIMMs \((?P<layout>.+)\); DIMM 'GB' are binary, so the "
        rf"(?P<gb>{NUMBER}) GB \(10\^9\) needed is (?P<gib>{NUMBER}) GiB",
        lambda g: (
            f"向上取整为 {g['size']} GB 内存（{_dimms(g['layout'])}）；内存条标的“GB”其实是 GiB，"
            f"所需的 {g['gb']} GB（10^9 字节）即 {g['gib']} GiB"
        ),
    ),
    rule(
        r"catalog servers ship (?P<ratios>.+) host RAM per GPU memory",
        # the list separators become 、; the names and ratios stay as the calculator wrote them
        lambda g: "目录中各服务器的主机内存与显存之比：" + re.sub(rf"({NUMBER}x), ", r"\1、", g["ratios"]),
    ),
    # inference_memory
    rule(
        rf"weights (?P<precision>\S+): (?P<bytes>{NUMBER}) bytes per parameter"
        rf"(?: \+ (?P<overhead>{NUMBER})% quantisation scales/zeros)?; "
        r"all parameters are resident \(MoE experts too\)",
        lambda g: (
            f"权重 {g['precision']}：每个参数 {g['bytes']} 字节"
            + (f"，另加 {g['overhead']}% 的量化缩放因子/零点" if g["overhead"] else "")
            + "；全部参数常驻显存（MoE 专家也是）"
        ),
    ),
    rule(
        rf"KV cache (?P<precision>\S+): (?P<bytes>{NUMBER}) bytes per value; (?P<tokens>{NUMBER}) tokens x "
        r"(?P<batch>\d+) sequences per replica(?P<default> \(the model's context length\))?",
        lambda g: (
            f"KV 缓存 {g['precision']}：每个值 {g['bytes']} 字节；"
            f"每个副本 {g['batch']} 条序列 × 每条 {g['tokens']} token"
            + ("（模型的上下文长度）" if g["default"] else "")
        ),
    ),
    rule(
        r"latent attention: (?P<values>\d+) cached values per token per layer, the same on every TP rank",
        "潜在注意力（MLA）：每层每 token 缓存 {values} 个值，各张量并行 rank 上相同",
    ),
    rule(
        rf"PUE (?P<b>{NUMBER}) instead of (?P<a>{NUMBER}): the same (?P<kw>{NUMBER}) kW of IT load and hours",
        "PUE {b} 代替 {a}：同样 {kw} kW 的 IT 负载和运行时长",
    ),
    rule(
        rf"goodput (?P<g>{NUMBER})%: (?P<d>{NUMBER}) days of wall clock train for (?P<t>{NUMBER}) days",
        "有效训练时间占比 {g}%：{d} 天的工期实际训练 {t} 天",
    ),
    rule(
        rf"time to first token: one (?P<p>{NUMBER})-token prefill takes (?P<ms>{NUMBER}) ms on (?P<tp>\d+) GPU\(s\) "
        rf"against the (?P<t>{NUMBER}) ms target; queueing at the peak adds to it, so keep the replicas below "
        r"saturation \(the headroom\) or measure p95 under load",
        "首 token 时间：一次 {p} token 的预填充在 {tp} 张卡上约 {ms} ms，目标 {t} ms；高峰时的排队会再加上去，"
        "所以副本要留余量不跑满，或在真实负载下实测 p95",
    ),
    rule(
        r"KV heads split over tensor parallel (?P<tp>\d+): (?P<per>\d+) per GPU(?:, each replicated on "
        r"(?P<copies>\d+) GPUs)?",
        lambda g: (
            f"KV 头按张量并行 {g['tp']} 切分：每卡 {g['per']} 个"
            + (f"，每个 KV 头在 {g['copies']} 张卡上重复存放" if g["copies"] else "")
        ),
    ),
    rule(
        r"(?P<gpus>\d+) GPUs = (?P<replicas>\d+) replica\(s\) x tensor parallel (?P<tp>\d+); "
        r"weights divided by (?P<tp2>\d+)",
        "{gpus} 张卡 = {replicas} 个副本 × 张量并行 {tp}；权重分到 {tp2} 张卡上",
    ),
    rule(
        rf"per GPU: (?P<workspace>{NUMBER}) GB activations/workspace \+ (?P<runtime>{NUMBER}) GB CUDA/runtime overhead",
        "每卡：激活/工作区 {workspace} GB + CUDA/运行时开销 {runtime} GB",
    ),
    rule(
        r"every layer attends to the full context \(sliding-window layers cache less\); "
        r"paged KV blocks \(vLLM: 16 tokens\) waste under one block per sequence",
        "每层都对完整上下文做注意力（滑动窗口层缓存更少）；"
        "分页 KV 块（vLLM：16 token）每条序列浪费不到一个块",
    ),
    rule(
        rf"usable = (?P<gb>{NUMBER}) GB x (?P<u>{NUMBER}) gpu_memory_utilization; the vendor's GB figure is "
        r"used, so real headroom is a few % larger \(HBM is about that many GiB\)",
        "可用显存 = {gb} GB × {u}（gpu_memory_utilization）；按厂商标称的 GB 计，真实余量会多几个百分点"
        "（HBM 实际约为同样数量的 GiB）",
    ),
    # network
    rule(
        r"pure data parallelism over (?P<gpus>\d+) GPUs \((?P<nodes>\d+) x (?P<per>\d+)\): "
        rf"every GPU all-reduces all (?P<params>{NUMBER})B (?P<precision>\S+) gradients once per optimizer step "
        r"\(frameworks that reduce FP32 gradients, e\.g\. Megatron with FP32 gradient accumulation, "
        r"need gradient_precision='fp32'\)",
        "纯数据并行，共 {gpus} 张卡（{nodes} × {per}）：每个优化器步里每张卡对全部 {params}B 个 {precision} "
        "梯度做一次 all-reduce（以 FP32 归约梯度的框架，例如开启 FP32 梯度累积的 Megatron，"
        "需设 gradient_precision='fp32'）",
    ),
    rule(
        rf"intra-node (?P<gb>{NUMBER}) GB/s per GPU each way \(given\)",
        "节点内每卡单向 {gb} GB/s（用户给定）",
    ),
    rule(
        rf"intra-node (?P<link>.+): (?P<both>{NUMBER}) GB/s per (?P<gpu>.+) with both directions added, so "
        rf"(?P<one>{NUMBER}) GB/s each way",
        "节点内 {link}：每张 {gpu} 双向合计 {both} GB/s，即单向 {one} GB/s",
    ),
    rule(rf"intra-node (?P<link>.+): (?P<gb>{NUMBER}) GB/s each way", "节点内 {link}：单向 {gb} GB/s"),
    rule(
        rf"scale-out (?P<gbit>{NUMBER}) Gb/s per GPU \(given\) / 8 = (?P<gb>{NUMBER}) GB/s each way",
        "节点间每卡 {gbit} Gb/s（用户给定）/ 8 = 单向 {gb} GB/s",
    ),
    rule(
        rf"scale-out (?P<nics>{NUMBER}) x (?P<link>.+) per GPU: (?P<rate>{NUMBER} Gb/s / 8 = )?"
        rf"(?P<port>{NUMBER}) GB/s per port each way, (?P<gb>{NUMBER}) GB/s per GPU",
        "节点间每卡 {nics} × {link}：{rate}每端口单向 {port} GB/s，每卡 {gb} GB/s",
    ),
    rule(
        rf"efficiency (?P<eff>{NUMBER})% of line rate; bandwidth terms only "
        r"\(latency matters for small buckets and very many ranks\)",
        "有效带宽按线速的 {eff}% 计；只计带宽项（分桶很小或 rank 很多时，延迟也会有影响）",
    ),
    rule(
        r"two-level time = 2\(g-1\)/g x S/B_intra \+ 2\(N-1\)/N x S/\(g x B_inter\); "
        r"NCCL pipelines the phases over one ring per NIC, so measured times approach the larger term, "
        r"not the sum",
        "两级时间 = 2(g-1)/g × S/B_intra + 2(N-1)/N × S/(g × B_inter)；"
        "NCCL 在每块网卡的一个环上流水执行各阶段，所以实测时间接近两项中较大的一项，而不是两项之和",
    ),
    rule(
        r"ZeRO-3/FSDP: parameter all-gathers in forward and backward plus gradient reduce-scatter "
        r"move 3Ψ against 2Ψ, so 1\.5x the all-reduce volume \(ZeRO §7\)",
        "ZeRO-3/FSDP：前向和反向的参数 all-gather 加上梯度 reduce-scatter 共传输 3Ψ（all-reduce 为 2Ψ），"
        "即 all-reduce 通信量的 1.5 倍（ZeRO 论文 §7）",
    ),
    rule(
        rf"compute (?P<step>{NUMBER}) s per step; (?P<overlap>{NUMBER})% of communication overlapped",
        "每步计算 {step} 秒；{overlap}% 的通信与计算重叠",
    ),
    rule(
        rf"target: exposed communication <= (?P<share>{NUMBER})% of the step, so one all-reduce may take "
        rf"(?P<s>{NUMBER}) s",
        "目标：未被掩盖的通信不超过单步时间的 {share}%，因此一次 all-reduce 最多可用 {s} 秒",
    ),
    # storage
    rule(r"(?P<bytes>\d+) bytes per token id \(given\)", "每个 token id {bytes} 字节（用户给定）"),
    rule(
        r"vocabulary unknown: 4 bytes \(int32\) per token id assumed; "
        r"a vocabulary <= 65,536 \(e\.g\. Llama 2's 32,000\) allows uint16 and halves the tokenised size",
        "词表大小未知：按每个 token id 4 字节（int32）计；"
        "词表不超过 65,536（如 Llama 2 的 32,000）时可用 uint16，分词后的数据量减半",
    ),
    rule(
        rf"vocabulary (?P<vocab>{NUMBER}) <= 65,536: token ids fit uint16 \(2 bytes\)",
        "词表 {vocab} 不超过 65,536：token id 可用 uint16 存储（2 字节）",
    ),
    rule(
        rf"vocabulary (?P<vocab>{NUMBER}) > 65,536: token ids need int32 \(4 bytes\)",
        "词表 {vocab} 超过 65,536：token id 需用 int32 存储（4 字节）",
    ),
    rule(
        rf"raw text and tokens both given: (?P<ratio>{NUMBER}) raw bytes per token",
        "原始文本和 token 数都已给出：每 token 对应 {ratio} 字节原始文本",
    ),
    rule(
        rf"raw text estimated at (?P<bytes>{NUMBER}) bytes per token "
        r"\(about 4 for English BPE; an assumption, give dataset_raw_gb for the real size\)",
        "原始文本按每 token {bytes} 字节估算"
        "（英文 BPE 约为 4；这是假设，给出 dataset_raw_gb 可得到实际大小）",
    ),
    rule(
        rf"tokens estimated at (?P<bytes>{NUMBER}) raw bytes per token "
        r"\(about 4 for English BPE; an assumption, give dataset_tokens_b for the real count\)",
        "token 数按每 token {bytes} 字节原始文本估算"
        "（英文 BPE 约为 4；这是假设，给出 dataset_tokens_b 可得到实际数量）",
    ),
    rule(
        rf"a checkpoint every (?P<hours>{NUMBER}) h over (?P<days>{NUMBER}) days: (?P<written>\d+) written, the newest "
        r"(?P<kept>\d+) kept in full(?:, (?P<older>\d+) older ones kept as weights only)?",
        lambda g: (
            f"{g['days']} 天内每 {g['hours']} 小时保存一个检查点：共写入 {g['written']} 个，最新的 "
            f"{g['kept']} 个完整保留" + (f"，更早的 {g['older']} 个只保留权重" if g["older"] else "")
        ),
    ),
    rule(
        r"(?P<kept>\d+) weights-only checkpoints kept besides the full ones \(given\)",
        "另外保留 {kept} 个只含权重的检查点（按所给）",
    ),
    rule(
        rf"LoRA rank (?P<rank>\d+): checkpoints hold the (?P<adapters>{NUMBER})M adapter parameters; the "
        rf"(?P<base>{NUMBER}) GB base model is stored once",
        "LoRA 秩 {rank}：检查点只含 {adapters}M 个适配器参数；{base} GB 的基础模型只存一份",
    ),
    rule(
        r"(?P<kept>\d+) full checkpoints retained \(give run_days for the written count\)",
        "保留 {kept} 个完整检查点（给出 run_days 可算出写入的总数）",
    ),
    rule(
        rf"full checkpoint (?P<full>{NUMBER}) bytes per parameter; weights-only (?P<weights>{NUMBER}) "
        r"\((?P<precision>\S+)\); gradients are not saved",
        "完整检查点每参数 {full} 字节；仅权重检查点每参数 {weights} 字节（{precision}）；梯度不保存",
    ),
    rule(
        rf"scratch and logs (?P<scratch>{NUMBER})% of data \+ checkpoints; headroom \+(?P<headroom>{NUMBER})% on top",
        "临时文件和日志按数据加检查点的 {scratch}% 计；另加 {headroom}% 余量",
    ),
    rule(
        rf"one full checkpoint \((?P<gb>{NUMBER}) GB\) in (?P<s>{NUMBER}) s(?:, sharded so that each of (?P<nodes>\d+) "
        r"servers writes 1/(?P<part>\d+))?",
        lambda g: (
            f"一个完整检查点（{g['gb']} GB）要在 {g['s']} 秒内写完"
            + (f"，分片后 {g['nodes']} 台服务器各写 1/{g['part']}" if g["nodes"] else "")
        ),
    ),
    rule(
        rf"local data NVMe (?P<tb>{NUMBER}) TB per server \((?P<origin>given|catalog .+)\)",
        lambda g: f"每台服务器本地数据 NVMe {g['tb']} TB（{_origin(g['origin'])}）",
    ),
]


def in_language(text: str, language: Language) -> str | None:
    """``text``, one of the calculators' assumptions, in ``language``; None when there is no rendering."""
    return text if language == "en" else rendered(text, RULES)
