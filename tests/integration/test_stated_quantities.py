"""Quantities the user states are the ones computed with (issue 11, set 30's "given quantities replaced by
defaults"): a named switch's radix, a share of maximum power, the machine shape a count is rounded to, an MFU
written a few words from its figure, a request's prompt and output lengths, a request rate written with words
between "QPS" and its figure, and a time-to-first-token target. Phrasings are our own; expected figures are
worked out in each docstring from the inputs and published constants."""

from __future__ import annotations

import re

import pytest

from assistant.models import Answer
from assistant.service import Assistant
from tests.integration.conversation import first_sentence, output, talk, tools

pytestmark = pytest.mark.integration


def _call(answer: Answer, name: str) -> dict[str, object]:
    return next(call.input for call in answer.tool_calls if call.name == name)


def test_a_named_switch_sets_the_radix_of_the_fat_tree(assistant: Assistant) -> None:
    """NVIDIA's QM9700 datasheet: 64 NDR (400 Gb/s) ports. 40 servers x 8 ports = 320 endpoints; a non-blocking
    leaf gives 32 ports down and 32 up, so ceil(320 / 32) = 10 leaves and 320 uplinks over 64-port spines = 5;
    15 switches, not the 144-port XDR switches a 400G fabric never uses. Grown to 96 servers: 768 endpoints,
    24 leaves + 12 spines = 36, still two tiers (64-port switches reach 64^2 / 2 = 2,048 endpoints)."""
    first, second = talk(
        assistant,
        "40 HGX H100 servers, 8x 400G NDR per server, non-blocking fat tree on QM9700 switches: how many leaf "
        "and spine switches?",
        "and if we grow to 96 servers?",
    )
    assert (_call(first, "fabric")["switch_ports"], output(first, "fabric")["switches"]) == (64, 15)
    assert (output(second, "fabric")["leaf_switches"], output(second, "fabric")["spine_switches"]) == (24, 12)
    assert "64-port" in first_sentence(first)


def test_an_ethernet_switch_named_runs_its_800g_ports_as_two_400g_links(assistant: Assistant) -> None:
    """Spectrum-4 SN5600: 64 x 800GbE, each split into two 400GbE links for 400G NICs: 128 ports a switch. 256
    GPUs x one 400G port: 4 leaves (64 down, 64 up) and 256 / 128 = 2 spines."""
    (answer,) = talk(
        assistant, "SN5600 switches for 32 servers of 8 H100, one 400G port per GPU: how many switches?"
    )
    assert _call(answer, "fabric")["switch_ports"] == 128
    assert output(answer, "fabric")["switches"] == 6


@pytest.mark.parametrize(
    ("message", "share"),
    [
        ("What's the yearly electricity bill for 20 DGX H100 at $0.09/kWh, PUE 1.25, if they average 65% of "
         "max power?", 0.65),
        ("20台DGX H100，每台 10.2 kW 满载 平均 65%，电价 0.6 元/度，PUE 1.25，一年电费多少", 0.65),
    ],
)  # fmt: skip
def test_an_average_share_of_maximum_power_is_the_load_billed(
    assistant: Assistant, message: str, share: float
) -> None:
    """DGX H100 at its 10.2 kW maximum (NVIDIA DGX H100 datasheet): 20 x 10.2 = 204 kW x 1.25 PUE x 8,760 h x
    0.65 = 1,451,970 kWh a year; x $0.09 = $130,677 (or x ¥0.6 = ¥871,182)."""
    (answer,) = talk(assistant, message)
    assert _call(answer, "power_cost")["utilization"] == share
    assert output(answer, "power_cost")["energy_mwh_per_year"] == pytest.approx(1_451.97, rel=0.01)


def test_whole_nodes_of_a_size_round_the_count_and_a_worded_mfu_is_used(assistant: Assistant) -> None:
    """ "round to whole 4-GPU nodes" is the machine's shape, not four GPUs; "MFU on A100 at our scale is 45%";
    90% goodput leaves 27 of the 30 days for training. 13B x 0.5T tokens x 6 = 3.9e22 FLOPs; A100 at 312 dense
    BF16 TFLOPS x 45% x 27 days x 86,400 s = 3.28e20 FLOPs a GPU: 119.1 GPUs, 120 in whole 4-GPU nodes."""
    (answer,) = talk(
        assistant,
        "Pretraining a 13B model on 500B tokens in 30 days. MFU on A100 at our scale is 45%, and assume 90% "
        "goodput. How many A100s, rounded to whole 4-GPU nodes?",
    )
    call = _call(answer, "gpus_for_deadline")
    assert (call["mfu"], call["gpus_per_node"], call["goodput"]) == (0.45, 4, 0.9)
    assert output(answer, "gpus_for_deadline")["gpus"] == 120
    assert "120 x" in first_sentence(answer)
    assert "of 4)" in first_sentence(answer)


@pytest.mark.parametrize(
    "message",
    [
        "Internal assistant on Llama 3.1 8B: 40 concurrent users, avg prompt 3k tokens + 1k output. One L4 enough?",
        "Llama 3.1 8B 内部助手，并发 40，平均输入3k输出1k，一张 L4 够吗",
    ],
)
def test_a_requests_prompt_and_output_are_the_context_cached(assistant: Assistant, message: str) -> None:
    """Each sequence caches its prompt and what it generates: 3,000 + 1,000 = 4,000 tokens, not the model's
    128k. Llama 3.1 8B caches 32 layers x 8 KV heads x 128 x 2 (K, V) x 2 bytes = 128 KiB a token: 40 x 4,000 x
    128 KiB = 21 GB of KV cache plus 16 GB of weights, over the L4's 24 GB."""
    (answer,) = talk(assistant, message)
    call = _call(answer, "inference_memory")
    assert (call["context_tokens"], call["batch"]) == (4000, 40)
    assert output(answer, "inference_memory")["fits"] is False


@pytest.mark.parametrize(
    ("message", "ttft"),
    [
        ("上线 Llama 3.1 70B，L40S，QPS 峰值大约 3，平均 input 4k output 250，TTFT 要 < 0.5s，要几张卡", 500),
        ("Serving Llama 3.1 70B on L40S: 3 requests/s at peak, 4k prompts, 250 output tokens, time to first "
         "token under 500 ms. How many GPUs?", 500),
    ],
)  # fmt: skip
def test_a_request_rate_shape_and_first_token_target_size_the_serving_estimate(
    assistant: Assistant, message: str, ttft: int
) -> None:
    """Prefill of a 4,000-token prompt on Llama 3.1 70B is 2 x 70.6B x 4,000 = 5.65e14 FLOPs; on L40S at 362
    dense BF16 TFLOPS x 50% that is 780 ms at tensor parallel 4 (the smallest group that holds it) and 390 ms at
    8, so a 500 ms target takes 8-GPU replicas; the headline says the first token lands within it."""
    (answer,) = talk(assistant, message)
    call = _call(answer, "serving_estimate")
    assert (call["requests_per_second"], call["prompt_tokens"], call["output_tokens"]) == (3, 4000, 250)
    assert call["ttft_ms"] == ttft
    result = output(answer, "serving_estimate")
    assert (result["tensor_parallel"], result["meets_ttft"]) == (8, True)
    lead = answer.answer.split("\n\n")[0]
    assert "500 ms" in lead
    assert "390" in lead


def test_a_quote_for_several_machines_on_demand_use_and_a_longer_life_are_applied(
    assistant: Assistant,
) -> None:
    """The quote is the capex: $1.6M for 4 nodes incl. networking = $400k a node, nothing added for the fabric;
    running costs $30k a month = $360k a year. Fully used for 3 years: buy $1.6M + 3 x $360k = $2.68M against
    reserved cloud 32 x 8,760 x 3 x $2.40 = $2,018,304. Used half the time on demand at $3.80: cloud pays only
    the hours used, 32 x 8,760 x 3 x 0.5 x $3.80 = $1,597,824. Kept 5 years: buy $1.6M + 5 x $360k = $3.4M
    against 32 x 8,760 x 5 x 0.5 x $3.80 = $2,663,040."""
    first, second, third = talk(
        assistant,
        "Buy or cloud for 32 H100s? Purchase quote $1.6M for 4 HGX nodes incl. networking and storage; colo, "
        "power and ops about $30k/month. Cloud is $2.40/GPU-hr reserved for 3 years. 3-year life, full "
        "utilization.",
        "We'd really only use them 50% of the time, and on-demand we'd pay only for what we use, at $3.80/GPU-hr.",
        "What if we keep the hardware 5 years instead of 3?",
    )
    one = _call(first, "tco")
    assert (one["capex_per_server"], one["network_storage_share"], one["utilization"]) == (400_000, 0.0, 1.0)
    assert output(first, "tco")["totals"]["buy"]["usd"] == pytest.approx(2_680_000)  # type: ignore[index]
    assert output(first, "tco")["totals"]["cloud"]["usd"] == pytest.approx(2_018_304)  # type: ignore[index]
    assert _call(second, "tco")["cloud_committed"] is False
    assert output(second, "tco")["totals"]["cloud"]["usd"] == pytest.approx(1_597_824)  # type: ignore[index]
    assert _call(third, "tco")["years"] == 5
    assert output(third, "tco")["totals"]["buy"]["usd"] == pytest.approx(3_400_000)  # type: ignore[index]
    assert output(third, "tco")["totals"]["cloud"]["usd"] == pytest.approx(2_663_040)  # type: ignore[index]


def test_a_resale_amount_comes_off_the_purchase(assistant: Assistant) -> None:
    """¥2.2M a server + ¥25k a month hosting for 3 years = ¥3.1M; sold for ¥600k at the end: ¥2.5M, below the
    ¥2.7M of renting at ¥75k a month, so buying now wins."""
    _, resale = talk(
        assistant,
        "H800 8卡整机，买的话 ¥220万一台，托管+电费每台每月 ¥2.5万；租的话整机月租 ¥7.5万。用3年，哪个划算？",
        "买的话如果三年后能卖 60万呢？",
    )
    assert output(resale, "tco")["totals"]["buy"]["cny"] == pytest.approx(2_500_000, rel=1e-6)  # type: ignore[index]
    assert "购买最划算" in first_sentence(resale)


@pytest.mark.parametrize(
    "message",
    [
        "Full fine-tune of Llama 3.1 70B on 2B tokens: 2 nodes of 8x H100 SXM or 1 node of 8x H200, which is faster?",
        "70B 全参微调 2B token，两台8卡H100 还是 一台8卡H200，哪个快",
    ],
)
def test_machines_of_each_card_compare_as_counted(assistant: Assistant, message: str) -> None:
    """Each option with its own count: 2 x 8 = 16 H100 against 1 x 8 = 8 H200, not 16 of each. Both cards have
    989 dense BF16 TFLOPS (NVIDIA datasheets), so 6 x 70.6B x 2B tokens = 8.5e20 FLOPs at 40% MFU takes 594
    GPU-hours on either: 1.55 days on 16 H100s, twice that on 8 H200s."""
    (answer,) = talk(assistant, message)
    compare = _call(answer, "gpu_compare")
    assert compare["job"]["counts"] == {"h100-sxm": 16, "h200": 8}  # type: ignore[index]
    lead = answer.answer.split("\n\n")[0]
    assert "16 x" in lead or "16 张" in lead
    assert "8 x" in lead or "8 张" in lead


def test_raw_corpus_named_before_its_size_is_read_with_the_share_kept(assistant: Assistant) -> None:
    """ "语料原始大概 50TB … 清洗完大概剩30%": 50 TB x 30% = 15 TB of clean text; at about 4 bytes of text per token
    (OpenAI's rule of thumb) that is 3.75T tokens, 15 TB as 4-byte ids."""
    (answer,) = talk(assistant, "中文语料原始大概 40TB（jsonl 没压缩），清洗完大概剩30%，要准备多少存储？")
    call = _call(answer, "data_volume")
    assert (call["text_tb"], call["kept_share"]) == (40.0, 0.3)
    assert "12 TB" in first_sentence(answer)


def test_a_link_speed_per_node_does_not_make_the_count_per_node(assistant: Assistant) -> None:
    """ "16 h100s (2 nodes) … IB is only 200g per node": 16 GPUs in all; the "per node" is the link's. 6 x 34B x
    5B tokens = 1.02e21 FLOPs / (16 x 989 TFLOPS x 40%) = 44.8 hours, not the 22.4 of 32 GPUs."""
    (answer,) = talk(
        assistant,
        "we got 16 h100s (2 nodes), full finetune of a 34b model, how long for 5B tokens? our IB is only 200g per "
        "node btw",
    )
    assert _call(answer, "training_compute")["gpus"] == 16


@pytest.mark.parametrize(
    "message",
    [
        "Qwen2-7B 推理，28层，4个KV head，head_dim 128，32k 上下文 fp16。单卡 L20 48G 能并发几路？",
        "serving a 7B model with 28 layers and 4 KV heads (head dim 128) at 32k context in fp16 on one L20 48GB: "
        "how many concurrent sequences?",
    ],
)
def test_kv_heads_given_for_an_unnamed_model_are_the_ones_cached(assistant: Assistant, message: str) -> None:
    """2 (K, V) x 28 layers x 4 KV heads x 128 x 2 bytes = 57,344 bytes = 56 KiB a token (not the 112 KiB of the
    8 KV heads assumed when none are given); a 32,768-token sequence caches 1.88 GB."""
    (answer,) = talk(assistant, message)
    assert _call(answer, "inference_memory")["kv_heads"] == 4
    assert output(answer, "inference_memory")["kv_bytes_per_token_per_gpu"] == 57_344


def test_a_quote_written_with_w_buys_whole_machines_and_the_follow_up_runs_on_them(
    assistant: Assistant,
) -> None:
    """ "110w" is 110万 (1.1M yuan) where a price is talked about: ¥20M / ¥1.1M = 18 servers, 144 H20s. "按你说的
    配置" then trains on those 144: 6 x 7B x 1T tokens = 4.2e22 FLOPs / (144 x 148 TFLOPS x 40%) = 57 days."""
    bought, timed = talk(
        assistant,
        "预算 2000w RMB，H20 8卡整机报价 110w 一台，能买几台？",
        "按你说的配置，训 7B 1T tokens 要多久",
    )
    assert _call(bought, "budget_fit")["capex_per_server"] == 1_100_000
    assert output(bought, "budget_fit")["gpus"] == 144
    assert _call(timed, "training_compute")["gpus"] == 144
    assert "57 天" in first_sentence(timed)


def test_keeping_every_checkpoint_of_a_run_counts_them_all(assistant: Assistant) -> None:
    """ "每 2000 步存一次，一共 4 万步，全留": 40,000 / 2,000 = 20 full checkpoints of a 70B run, 70B x 14 bytes
    (BF16 weights + FP32 master and Adam moments) = 980 GB each: 19.6 TB of checkpoints."""
    (answer,) = talk(
        assistant, "70B 预训练，checkpoint 每 2000 步存一次，一共 4 万步，全留的话 checkpoint 要多少存储"
    )
    assert _call(answer, "storage")["checkpoints_retained"] == 20


@pytest.mark.parametrize(
    ("message", "lead"),
    [
        ("PUE 1.5 机房 vs PUE 1.2 机房，1 MW IT 负载，电价 0.5 元/kWh，一年差多少钱?", "¥1,314,000"),
        ("Colo A has PUE 1.5 and colo B PUE 1.2; 1 MW of IT load at 0.5 CNY/kWh, what's the yearly difference?",
         "¥1,314,000"),
    ],
)  # fmt: skip
def test_two_facilities_pues_lead_with_the_yearly_difference(
    assistant: Assistant, message: str, lead: str
) -> None:
    """PUE is facility energy over IT energy (The Green Grid): 1,000 kW x 8,760 h x (1.5 - 1.2) = 2,628 MWh a
    year more at PUE 1.5; x ¥0.5 = ¥1,314,000."""
    (answer,) = talk(assistant, message)
    call = _call(answer, "power_cost")
    assert (call["pue"], call["compare_pue"]) == (1.5, 1.2)
    assert lead in answer.answer.split("\n\n")[0]


def test_prices_written_with_w_rent_per_card_month_and_buy_per_machine(assistant: Assistant) -> None:
    """ "租一卡一月 1.2w": ¥12,000 a card a month, paid whether used or not: 8 x 12,000 x 36 = ¥3,456,000 over 3
    years; "买一台 8 卡 240w": ¥2.4M, the machine's price (the catalog's missing H800 price is no obstacle)."""
    (answer,) = talk(
        assistant, "H800 租一卡一月 1.2w（含电），买一台 8 卡 240w 用三年，电 0.8 一度、PUE 1.3，哪个划算"
    )
    call = _call(answer, "tco")
    assert call["capex_per_server"] == 2_400_000
    assert output(answer, "tco")["totals"]["cloud"]["cny"] == pytest.approx(3_456_000, rel=1e-4)  # type: ignore[index]
    assert "购买最划算" in first_sentence(answer)


def test_fp8_after_a_bf16_mfu_is_planned_below_twice_the_speed(assistant: Assistant) -> None:
    """The 40% MFU given for BF16 is of the BF16 peak; FP8 end to end is seldom 2x (NVIDIA's Transformer Engine
    results run 1.3-1.5x), so the FP8 run is planned at 30% of the FP8 peak: 1,979 x 0.30 = 594 TFLOPS a GPU,
    1.5x BF16's 989 x 0.40 = 396: 41.1 days become 27.4, not 20.6."""
    _, fp8 = talk(
        assistant,
        "Pretraining an 8B model on 15T tokens on 512 H100s at 40% MFU: how long?",
        "and with FP8?",
    )
    call = _call(fp8, "training_compute")
    assert (call["precision"], call["mfu"]) == ("fp8", 0.3)


def test_a_quote_converted_also_says_what_each_gpu_costs(assistant: Assistant) -> None:
    """¥2,350,000 for an 8-GPU server at the catalog's 7.02 CNY per USD: $334,758, and $41,845 (¥293,750) per
    GPU, the figure asked."""
    (answer,) = talk(
        assistant, "供应商 quote 是 2,350,000 元 per 8×H800 server. What's that in USD, and per GPU?"
    )
    lead = answer.answer.split("\n\n")[0]
    assert "$334,758" in lead
    assert "$41,845" in lead


def test_a_monthly_rent_runs_for_the_whole_period_compared(assistant: Assistant) -> None:
    """A machine rented at ¥80,000 a month for 5 years is paid 60 times (¥4.8M), not for a 36-month lease term
    after which a leased machine is owned."""
    (answer,) = talk(assistant, "租一台8卡H800 月租8万，买的话230万一台，用5年，哪个划算")
    assert _call(answer, "tco")["lease_term_months"] == 60


@pytest.mark.parametrize(
    ("question", "kept", "lead"),
    [
        # 50,000 / 500 = 100 checkpoints of 34B x 14 bytes = 476 GB: 47.6 TB
        ("34B 模型，每 500 step 存一次 ckpt（带 optimizer），一共跑 5w step。存储要多大", 100, "47.6 TB"),
        # a retention stated beside the schedule wins: the last 5 of 20 checkpoints, 5 x 980 GB = 4.9 TB
        ("70B model, checkpoint every 1000 steps, 20k steps total, keep the last 5. Storage?", 5, "4.9 TB"),
    ],
)
def test_a_checkpoint_schedule_in_steps_counts_the_checkpoints_the_run_writes(
    assistant: Assistant, question: str, kept: int, lead: str
) -> None:
    """A save interval and a run length in steps, with no number kept, mean every checkpoint the run writes
    is held; a number kept, when given, is what is held."""
    (answer,) = talk(assistant, question)
    assert _call(answer, "storage")["checkpoints_retained"] == kept
    assert lead in answer.answer.split("\n\n")[0]


def test_a_per_server_price_written_in_w_is_the_servers_price_in_a_tco(assistant: Assistant) -> None:
    """ "16 台 910B 服务器，单台 150w": ¥1.5M a server (w = 万), so buying is 16 x 1.5M = ¥24M plus five years of
    power (16 x 5.5 kW x 1.3 x 8,760 h x ¥0.6 = ¥601,286 a year) and 5% maintenance (¥1.2M a year): ¥33.0M."""
    (answer,) = talk(
        assistant,
        "帮忙算个 TCO：16 台 910B 服务器，单台 150w，用 5 年，电费 0.6/度，PUE 1.3，单台按 5.5kW， 维保每年按设备款 5%",
    )
    assert "¥33,006,432" in answer.answer.split("\n\n")[0]


@pytest.mark.parametrize("follow_up", ["and seq len goes from 4k to 32k?", "序列长度从4k拉到32k呢"])
def test_a_length_that_goes_from_one_value_to_another_is_the_new_one(
    assistant: Assistant, follow_up: str
) -> None:
    """ "goes from 4k to 32k" changes the sequence length to 32k (32,768 tokens), not back to the 4k it was."""
    _, changed = talk(
        assistant,
        "full finetune Qwen2.5-14B, bf16 mixed precision + AdamW. will 8x A100 80GB do it? seq 4k",
        follow_up,
    )
    assert _call(changed, "training_memory")["seq_len"] == 32768


@pytest.mark.parametrize(
    ("question", "per_server", "gpus"),
    [
        # one 8x H200 node: the $310k is that node's price
        (
            "TCO for one 8x H200 node over 4 years: hardware $310k, avg draw 10.5 kW, $0.11/kWh, PUE 1.3",
            310_000,
            8,
        ),
        # four nodes named: $1.2M of hardware is $300k a node
        ("TCO for 4 HGX H100 nodes over 3 years, hardware $1.2M total, $0.12/kWh", 300_000, 32),
        # 16 台, 硬件一共 2400万: ¥1.5M a server
        ("16 台 910B 服务器，硬件一共 2400万，用5年，电费0.6/度，TCO多少", 1_500_000, 128),
    ],
)
def test_the_hardware_price_given_is_what_the_machines_cost(
    assistant: Assistant, question: str, per_server: float, gpus: int
) -> None:
    """ "hardware $310k" is the price of the machines named, not a budget to spend: TCO prices them at it, each
    machine's share when several are named."""
    (answer,) = talk(assistant, question)
    call = _call(answer, "tco")
    assert (call["capex_per_server"], call["gpus"]) == (per_server, gpus)


@pytest.mark.parametrize(
    "message",
    [
        "我们 8 机 64 卡 H100 训 70B，global batch 1024，seq 4096，一个 step 实测 72 秒。MFU 多少？1.4T token 要跑多久",
        "64 H100s training 70B, global batch 1024 x 4096 tokens, step time 72 s. what MFU? and how long for 1.4T tokens",
    ],
)
def test_a_measured_step_time_gives_the_mfu_and_the_run(assistant: Assistant, message: str) -> None:
    """1,024 x 4,096 = 4,194,304 tokens per 72 s step on 64 GPUs = 910 tokens/s per GPU; 6 x 70e9 x 910 =
    3.82e14 FLOP/s of 989e12 dense BF16 = 38.6% MFU (Narayanan et al. 2021 for 6ND accounting; NVIDIA H100
    datasheet). 1.4e12 tokens / (910 x 64) = 2.40e7 s = 278 days."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["throughput_calibration"], tools(answer)
    assert answer.tool_calls[0].input["step_time_s"] == 72
    assert "39%" in first_sentence(answer)
    assert "278" in first_sentence(answer)


@pytest.mark.parametrize(
    ("message", "lead"),
    [
        (
            "910B 64G，13B 全参预训练，2T token，按实测 280T 算力（不是峰值）算，256 卡要训多久",
            "**25.2 天**",
        ),
        (
            "we measured ~410 TFLOPS/gpu achieved on h100 sxm in our megatron runs. pretraining a 9B dense on 1.6T "
            "tokens w/ 256 gpus, how long",
            "**9.53 days**",
        ),
    ],
)
def test_a_measured_tflops_per_gpu_is_the_work_done_not_a_peak(
    assistant: Assistant, message: str, lead: str
) -> None:
    """6 x 13e9 x 2e12 = 1.56e23 FLOPs / (256 x 280e12) = 2.18e6 s = 25.2 days; 6 x 9e9 x 1.6e12 = 8.64e22 /
    (256 x 410e12) = 8.23e5 s = 9.53 days. No MFU on top of a measured rate (Narayanan et al. 2021)."""
    (answer,) = talk(assistant, message)
    assert lead in first_sentence(answer), answer.answer[:200]
    assert "实测的 MFU" not in answer.answer
    assert "measured MFU or tokens/s" not in answer.answer  # the rate was given: not asked for again


def test_an_moe_run_with_its_data_and_active_size_written_in_english_inside_chinese(
    assistant: Assistant,
) -> None:
    """6 x 12e9 active x 2.3e12 tokens = 1.656e23 FLOPs / (256 x 989e12 x 0.35) = 1.87e6 s = 21.6 days (MoE compute
    follows the active parameters: Fedus et al. 2021)."""
    (answer,) = talk(
        assistant,
        "预训练 data 2.3T tokens，model 是 MoE，总参 46B，active 12B。256 卡 H800，MFU 35%，要多久?",
    )
    call = answer.tool_calls[0].input
    assert (call["tokens_b"], call["params_b"], call["active_params_b"]) == (2300, 46, 12)
    assert "**21.6 天**" in first_sentence(answer)


@pytest.mark.parametrize(
    "message",
    [
        "70B llama 3 on 4x H100 80GB in bf16 with vllm: fine at 8k, but at 128k context only a couple of users at once. why?",
        "4张H100 部署 Llama 3 70B BF16 上下文开到128k 并发上不去 为什么",
    ],
)
def test_a_long_context_that_leaves_room_for_few_sequences_names_the_kv_cache_as_the_limit(
    assistant: Assistant, message: str
) -> None:
    """Llama 3 70B (80 layers, 8 KV heads of 128, Meta's model card and config; GQA): 2 x 80 x 8 x 128 x 2 bytes
    = 320 KiB a token, 42.9 GB for one 131,072-token sequence, so 4 x 80 GB hold the 141 GB of weights and only 3
    such sequences: the lead says the KV cache is the limit, not a bare "it fits"."""
    (answer,) = talk(assistant, message)
    call = answer.tool_calls[0]
    assert call.name == "inference_memory"
    assert call.input["context_tokens"] == 131072, call.input
    assert call.output["max_concurrent_sequences"] == 3
    assert re.match(r"It fits, but the KV cache is the limit|放得下，但 KV 缓存是瓶颈", answer.answer), (
        answer.answer[:200]
    )


@pytest.mark.parametrize(
    "message",
    [
        "full fine-tuning a 30B on one 8x H100 node with FSDP at 4k context, is it possible or do we need two nodes?",
        "单机8卡H100全参微调30B可以吗，还是得上两台",
        "30B 全参 8卡 H100 放得下吗？还是需要16卡",
    ],
)
def test_the_setup_given_is_checked_not_the_alternative_asked(assistant: Assistant, message: str) -> None:
    """ "one 8x H100 node … or do we need two nodes?": the one node is checked (its answer says whether a
    second is needed); 30B x 16 bytes / 8 GPUs = 60 GB of model states per GPU under ZeRO-3."""
    (answer,) = talk(assistant, message)
    assert _call(answer, "training_memory")["gpus"] == 8, answer.answer[:300]


@pytest.mark.parametrize(
    ("message", "fits"),
    [
        # DGX H100: 10.2 kW (NVIDIA's DGX H100 user guide) > 9 kW
        ("机房单柜才9kW，风冷，放得下一台8卡H100吗", 0),
        ("单柜就 12kW，能放几台 8卡 A800", 1),
    ],
)
def test_a_racks_budget_written_with_a_particle_is_the_racks(
    assistant: Assistant, message: str, fits: int
) -> None:
    """ "单柜才9kW", "单柜就 12kW": the rack's power budget, what the machines must fit in, not a draw to bill."""
    (answer,) = talk(assistant, message)
    fit = output(answer, "rack_fit")
    assert fit["servers_per_rack"] == fits, answer.answer[:200]  # type: ignore[index]
