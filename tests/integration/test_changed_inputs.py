"""A follow-up that changes one input reworks the answer with it (issue 11, set 21's classes): a deadline that
slips, a cloud price that drops, a monthly rent per card, a fleet counted beside a per-server quote, an exchange
rate at the end of a sentence, GPU-hours asked with the number word after them, and a budget that stays in the
conversation without turning a question about named GPUs into a purchase plan. Phrasings are our own; expected
figures are worked out in each docstring from the inputs and published constants."""

from __future__ import annotations

import re

import pytest

from assistant.service import Assistant
from tests.integration.conversation import first_sentence, output, talk, tools

pytestmark = pytest.mark.integration

_THIRTEEN_B = "pretraining a 13B on 2T tokens within 30 days, H100 SXM at 40% MFU: how many GPUs?"


@pytest.mark.parametrize(
    ("follow_up", "days", "gpus"),
    [
        ("what if the deadline slips to 45 days", 45, 104),
        ("and 45 days?", 45, 104),
        ("deadline gets pushed back to 8 weeks", 56, 88),
        ("工期推迟到两个月呢", 60, 80),
    ],
)
def test_a_changed_deadline_recounts_the_gpus(
    assistant: Assistant, follow_up: str, days: int, gpus: int
) -> None:
    """6 x 13e9 x 2e12 = 1.56e23 FLOPs; one H100 at 40% of 989 TFLOPS does 3.956e14 FLOP/s. In 45 days
    (3.888e6 s) that is 101.4 GPUs, 104 in whole 8-GPU servers; 56 days: 81.5 -> 88; 60 days: 76.1 -> 80
    (Kaplan et al. 2020, C = 6ND; NVIDIA H100 datasheet, 989 dense BF16 TFLOPS)."""
    first, changed = talk(assistant, _THIRTEEN_B, follow_up)
    assert output(first, "gpus_for_deadline")["gpus"] == 160
    result = output(changed, "gpus_for_deadline")
    assert changed.tool_calls[0].input["deadline_days"] == days
    assert result["gpus"] == gpus, first_sentence(changed)


def test_a_per_server_quote_beside_a_fleet_count_prices_the_fleet(assistant: Assistant) -> None:
    """$285k per 8-GPU server and 64 GPUs: 8 servers, $2.28M of servers. Reserved cloud for 3 years at
    $2.20 bills every hour: 64 x 8,760 x 3 x 2.20 = $3,700,224; at $1.80 it is $3,027,456."""
    quoted, cheaper = talk(
        assistant,
        "got quoted $285k per 8x h100 server. cloud reserved 3yr is $2.20/gpu-hr. we'd use it ~70% of "
        "the time. 64 gpus, 3 years, which is cheaper",
        "what if cloud drops to 1.80",
    )
    tco = output(quoted, "tco")
    assert quoted.tool_calls[0].input["gpus"] == 64
    assert "$2,280,000" in quoted.answer
    assert tco["totals"]["cloud"]["usd"] == pytest.approx(3_700_224, rel=0.001)
    assert output(cheaper, "tco")["totals"]["cloud"]["usd"] == pytest.approx(3_027_456, rel=0.001)


def test_a_monthly_rent_per_card_is_paid_every_hour(assistant: Assistant) -> None:
    """¥6,000 per card per month, used or not, on 8 cards for 3 years: 8 x 6,000 x 36 = ¥1,728,000."""
    _, monthly = talk(
        assistant,
        "租H800 9.5元每卡时 买一台8卡大概220万 用三年 利用率60% 租还是买",
        "如果是包月 不管用不用 每卡每月6000呢",
    )
    assert "¥1,728,000" in first_sentence(monthly)


def test_an_exchange_rate_before_a_full_stop_is_the_one_used(assistant: Assistant) -> None:
    """$1.5M at the user's 7.2 is ¥10.8M; at ¥2.3M a server that buys 4 (¥9.2M), ¥1.6M left."""
    (answer,) = talk(
        assistant,
        "china supplier quoted ¥2.3M per 8x h20 server. our budget is $1.5M usd, fx 7.2. how many servers can we get?",
    )
    assert output(answer, "budget_fit")["servers"] == 4
    assert "¥10,800,000" in first_sentence(answer), first_sentence(answer)


@pytest.mark.parametrize(
    "message", ["8B 15T token 理论GPU时多少 H100 MFU40%", "8B 训 15T token，H100 MFU 40%，卡时大概多少"]
)
def test_gpu_hours_asked_with_the_number_word_after_them(assistant: Assistant, message: str) -> None:
    """6 x 8e9 x 15e12 = 7.2e23 FLOPs at 40% of 989 TFLOPS = 1.82e9 s, about 506k GPU-hours."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["training_compute"]
    hours = output(answer, "training_compute")["gpu_hours"]
    assert hours["expected"] == pytest.approx(505_600, rel=0.01)
    assert "GPU 小时" in first_sentence(answer)


def test_a_budget_in_the_conversation_does_not_plan_a_run_on_named_gpus(assistant: Assistant) -> None:
    """After "what does ¥8M buy", "40 cards, 13B on 200B tokens at 35% MFU" is timed on those 40 cards:
    6 x 13e9 x 200e9 = 1.56e22 FLOPs at 35% of the 910B's 376 TFLOPS on 40 cards = 34.3 days. No purchase
    plan, and never a cost the catalog cannot price ("约 $-")."""
    _, timed, sft = talk(
        assistant,
        "预算800万 910B 8卡整机报价120万一台 能买几台",
        "40卡 13B 继续预训练 200B token 要多久 MFU 35%",
        "那如果只做sft 数据5亿token呢",
    )
    for answer in (timed, sft):
        assert tools(answer) == ["training_compute"], tools(answer)
        assert "$-" not in answer.answer
    assert "34.3 天" in first_sentence(timed)


def test_a_plan_on_a_card_without_a_price_does_not_claim_the_budget_is_exceeded(assistant: Assistant) -> None:
    """The catalog has no price for the Ascend 910B: the plan times the run and says the budget is not checked."""
    (answer,) = talk(assistant, "预算800万 910B 训13B 200B token 选什么方案")
    assert "cluster_plan" in tools(answer)
    assert "没有方案在预算" not in answer.answer
    assert "$-" not in answer.answer
    assert "无法按预算核对" in first_sentence(answer)


def test_each_gpu_with_its_own_copy_counts_replicas_of_one_card(assistant: Assistant) -> None:
    """Llama 3.1 8B: 128 KiB of KV per token (32 layers x 8 KV heads x 128 x 2 x 2 bytes), 0.403 GB per 3k
    sequence. One H100 keeps 72 GB usable - 16.1 GB of weights - 2 GB runtime = 53.9 GB, 133 sequences: 1,200
    need 10 single-GPU replicas; an FP8 KV cache halves each sequence (267 per card), 5 replicas."""
    _, copies, fp8 = talk(
        assistant,
        "we serve llama 3.1 8b, peak 1200 concurrent chats, avg context 3k tokens. how much kv cache memory at peak",
        "how many h100s is that if each gpu holds its own copy of the weights",
        "and with fp8 kv cache?",
    )
    assert output(copies, "inference_memory")["replicas_for_batch"] == [10, 1, 133]
    assert "10 x NVIDIA H100" in first_sentence(copies)
    assert output(fp8, "inference_memory")["replicas_for_batch"] == [5, 1, 267]


def test_a_family_and_size_name_the_model_and_long_context_is_32k(assistant: Assistant) -> None:
    """ "qwen 72B" is Qwen2.5 72B (80 layers x 8 KV heads x 128 x 2 x 2 bytes = 320 KiB per token, not a size-
    derived shape), and "长上下文" with no length is read as 32k tokens, stated as an assumption."""
    (answer,) = talk(assistant, "推理主要跑qwen 72B 长上下文 H20要几张")
    call = next(c for c in answer.tool_calls if c.name == "inference_memory")
    assert call.input["model"] == "qwen2.5-72b"
    assert call.input["context_tokens"] == 32_768
    assert call.output["kv_kib_per_token"] == 320
    assert "32k" in answer.answer


@pytest.mark.parametrize(("follow_up", "kept"), [("what if every hour", 48), ("那每30分钟呢", 96)])
def test_a_changed_checkpoint_interval_recounts_the_window(
    assistant: Assistant, follow_up: str, kept: int
) -> None:
    """A 48 h window at one checkpoint every 2 h keeps 24 resumable 70B checkpoints (980 GB each: 23.5 TB);
    every hour keeps 48 (47 TB), every 30 minutes 96 (94.1 TB)."""
    first, changed = talk(assistant, "70b, ckpt every 2h kept for the last 48h, how much storage", follow_up)
    assert first.tool_calls[0].input["checkpoints_retained"] == 24
    assert changed.tool_calls[0].input["checkpoints_retained"] == kept


def test_a_follow_up_to_a_catalogued_workstation_card_sizes_that_card(assistant: Assistant) -> None:
    """The RTX A6000 (48 GB GDDR6, NVIDIA's specification) is sized itself, never swapped for the card before:
    QLoRA of Qwen2.5 72B needs 52.8 GB on one card, so two A6000s shard it with ZeRO-3 (32.4 GB each)."""
    _, pair = talk(assistant, "qwen2.5 72b qlora 单张4090够吗", "那换成2张a6000呢")
    call = pair.tool_calls[0]
    assert call.input["gpu"] == "rtx-a6000"
    assert call.input["gpus"] == 2
    assert "不在我的硬件目录" not in pair.answer
    assert "RTX A6000" in first_sentence(pair)


@pytest.mark.parametrize(
    "message", ["32B模型做领域微调 lora和全参显存各要多少", "32B fine-tune: memory for LoRA vs full?"]
)
def test_both_methods_asked_are_both_sized(assistant: Assistant, message: str) -> None:
    """LoRA keeps the BF16 weights (32B x 2 = 64 GB) plus small adapters; a full fine-tune adds BF16 gradients
    (64 GB) and FP32 Adam states with master weights (384 GB): each method's figure, side by side."""
    (answer,) = talk(assistant, message)
    methods = [c.input["finetune"] for c in answer.tool_calls if c.name == "training_memory"]
    assert methods == ["lora", "full"]


def test_a_gpu_count_that_looks_like_a_year_is_a_count(assistant: Assistant) -> None:
    """2,048 B200s at 40% of 2,250 dense BF16 TFLOPS: 6 x 70e9 x 15e12 = 6.3e24 FLOPs / (2,048 x 9e14) = 39.5 days."""
    first, h100 = talk(
        assistant,
        "llama-3-style 70B, 15T tokens, 2048 B200s at 40% MFU. how long",
        "same count and mfu on h100?",
    )
    assert first.tool_calls[0].input["gpus"] == 2048
    assert "39.5 days" in first_sentence(first)
    assert h100.tool_calls[0].input["gpus"] == 2048


@pytest.mark.parametrize(
    ("message", "context", "batch"),
    [
        (
            "serving qwen2.5-7b bf16 on one L40S with vllm, requests are up to 8k tokens. how many at once?",
            8192,
            None,
        ),
        ("kv cache for llama 3 70b, 16 sequences at 32k?", 32768, 16),
    ],
)
def test_a_request_length_written_beside_the_requests_is_the_context(
    assistant: Assistant, message: str, context: int, batch: int | None
) -> None:
    """ "requests are up to 8k tokens", "16 sequences at 32k": the length each request is sized at."""
    (answer,) = talk(assistant, message)
    call = answer.tool_calls[0]
    assert call.input["context_tokens"] == context
    if batch:
        assert call.input["batch"] == batch


def test_only_n_sequences_in_a_follow_up_is_the_new_concurrency(assistant: Assistant) -> None:
    """4 sequences of 128k on Llama 3 70B: 4 x 131,072 x 320 KiB = 172 GB of KV cache (not 16 sequences' 687)."""
    _, fewer = talk(
        assistant, "kv cache for llama 3 70b, 16 sequences at 32k?", "what about 128k context but only 4 seqs"
    )
    assert fewer.tool_calls[0].input["batch"] == 4
    assert "**172 GB**" in first_sentence(fewer)


@pytest.mark.parametrize(
    ("message", "share"),
    [
        ("power bill for a 2x5090 box at home, 8h a day, $0.30/kWh", 8 / 24),
        ("4卡4090 每天跑10小时 电费0.6 每月多少", 10 / 24),
    ],
)
def test_hours_a_day_are_the_share_of_the_day_it_runs(
    assistant: Assistant, message: str, share: float
) -> None:
    """8 h a day is a third of the day: 1.79 kW x 8 h x 365 x $0.30 = $1,568 a year, not 80% of every hour."""
    (answer,) = talk(assistant, message)
    assert answer.tool_calls[0].input["utilization"] == pytest.approx(share)


def test_a_switch_split_into_more_ports_is_the_new_radix(assistant: Assistant) -> None:
    """1,024 ports: 64-port switches need 32 leaves + 16 spines; run as 128 x 400G, 16 + 8 = 24."""
    _, split = talk(
        assistant,
        "1024 gpus, 400G each, non-blocking fat tree, how many 64-port switches?",
        "what if the switches are 64x800G run as 128x400G",
    )
    assert "**24 switches**" in first_sentence(split)


def test_a_memory_size_before_the_card_picks_that_variant(assistant: Assistant) -> None:
    """Mixtral 8x7B holds all 46.7B parameters in memory (93.4 GB in BF16), whatever runs per token: it does
    not fit on one 40 GB A100 (36 GB usable)."""
    (answer,) = talk(
        assistant,
        "mixtral 8x7b in bf16, a colleague says only ~13B are active so the weights are ~26GB and it fits on a 40GB A100?",
    )
    call = answer.tool_calls[0]
    assert call.name == "inference_memory"
    assert call.input["gpu"] == "a100-40gb-sxm"
    assert first_sentence(answer).startswith("No")


def test_sft_data_is_data_and_wall_clock_asks_the_time(assistant: Assistant) -> None:
    """LoRA on Qwen3 8B over 3 x 200M tokens: no weight gradients, so 4 x N x D = 4 x 8.2e9 x 6e8 FLOPs at 40% of
    the A100's 312 TFLOPS on 4 cards: about 11 hours."""
    (answer,) = talk(
        assistant, "LoRA on qwen3-8b, 200M tokens of sft data, 3 epochs, 4x A100 80G. rough wall clock?"
    )
    call = answer.tool_calls[0]
    assert call.name == "training_compute"
    assert call.input["finetune"] == "lora"
    assert "hours" in first_sentence(answer)


def test_the_table_of_a_replicated_plan_shows_the_replicas_not_one_group(assistant: Assistant) -> None:
    """10 single-GPU replicas of Llama 3.1 8B, 133 sequences each: no row or assumption claims one GPU or one
    replica holds all 1,200."""
    _, copies = talk(
        assistant,
        "we serve llama 3.1 8b, peak 1200 concurrent chats, avg context 3k tokens. how much kv cache memory at peak",
        "how many h100s is that if each gpu holds its own copy of the weights",
    )
    assert "| Sequences per replica | 133 |" in copies.answer
    assert "| Per GPU |" not in copies.answer
    assert "x 133 sequences per replica" in copies.answer  # the assumptions say what each replica holds
    assert "x 1200 sequences per replica" not in copies.answer


def test_back_to_the_earlier_switches_is_their_radix(assistant: Assistant) -> None:
    """1,024 ports on 64-port switches: 32 leaves + 16 spines = 48, after a turn at 128 ports."""
    *_, back = talk(
        assistant,
        "switch count: 512 GPUs, one 400G port each, non-blocking 2-tier fat tree, 64-port switches",
        "what if the switches are 64x800G run as 128x400G",
        "ok back to the 64-port ones but 1024 gpus. only the number",
    )
    assert "**48 switches**" in first_sentence(back)


def test_a_higher_mfu_replaces_the_measured_rate(assistant: Assistant) -> None:
    """At 40% of the H800's 989 TFLOPS on 32 cards: 6 x 14.8e9 x 200e9 / (32 x 395.6e12) = 16.2 days (the
    measured 2,900 tokens/s per card gave 24.9)."""
    _, raised = talk(
        assistant,
        "32张H800训Qwen2.5-14B继续预训练 每卡2900 tokens/s 200B token要几天",
        "如果MFU提到40%呢",
    )
    assert raised.tool_calls[0].input["mfu"] == pytest.approx(0.4)
    assert "16.2 天" in first_sentence(raised)


def test_one_server_converted_is_the_server_price_not_the_budget(assistant: Assistant) -> None:
    """A $1M budget buys 2 B200 servers at the catalog's $415,000; one of them at 7.1 is ¥2,946,500."""
    _, one = talk(
        assistant, "budget 100万美元 想买 B200 8卡 server 大概能买几台", "一台折合人民币多少 按7.1算"
    )
    assert tools(one) == ["quote"]
    assert "¥2,946,500" in first_sentence(one)


def test_a_cooling_question_after_a_rack_fit_is_answered_by_the_guidance(assistant: Assistant) -> None:
    _, _, cooling = talk(
        assistant,
        "our racks are capped at 40 kW. how many 8xH100 servers per rack",
        "what about b200 boxes",
        "do we need liquid at that density?",
    )
    assert not cooling.tool_calls
    assert re.search(r"air|liquid", first_sentence(cooling), re.IGNORECASE)


def test_a_context_said_with_de_hua_is_the_request_length(assistant: Assistant) -> None:
    """DeepSeek-V3's latent attention caches 576 values per token and layer: 61 x 576 x 2 bytes = 68.6 KiB per
    token, 9.21 GB for one 128k request."""
    *_, kv = talk(assistant, "DeepSeek-V3 FP8 用H200部署要几台", "KV每个token多大 128k的话一条请求多少")
    assert kv.tool_calls[0].input["context_tokens"] == 131072
    assert "9.21 GB" in first_sentence(kv)


def test_a_nic_model_number_is_no_port_count_and_a_grown_fleet_is_just_a_count(assistant: Assistant) -> None:
    """64 nodes with 8 x ConnectX-7 each: 512 ports on 64-port switches, 16 leaves (32 down, 32 up) + 8 spines =
    24 (the "7" of CX7 read as 7 ports gave 21); then 128 nodes: 1,024 ports, 32 + 16 = 48. Nothing was measured
    on today's 16 nodes, so the follow-up is the fabric again, not a throughput projection."""
    first, grown = talk(
        assistant,
        "We have 16 HGX H100 nodes on NDR IB today (8x CX7 400G per node) and plan to grow to 64 nodes next year. "
        "What has to change on the compute fabric? switches are QM9700.",
        "and if we go 128 nodes later?",
    )
    assert "**24 switches**" in first_sentence(first)
    assert tools(grown) == ["fabric"]
    assert "**48 switches**" in first_sentence(grown)


def test_the_switch_radix_given_beside_the_switch(assistant: Assistant) -> None:
    """1,024 ports on 144-port Quantum-X800 switches: a leaf has 72 down, so ceil(1024 / 72) = 15 leaves, whose
    15 x 72 = 1,080 uplinks take ceil(1080 / 144) = 8 spines: 23 switches. "800G per GPU" is the NIC's speed,
    no card memory."""
    (answer,) = talk(
        assistant,
        "1024 B200 GPUs, one ConnectX-8 800G per GPU, Quantum-X800 switches (144x 800G ports). how many switches "
        "for a non-blocking 2-tier fat tree?",
    )
    call = answer.tool_calls[0]
    assert call.input["switch_ports"] == 144
    assert "**23 switches**" in first_sentence(answer)


def test_a_figure_the_message_replaces_is_not_read(assistant: Assistant) -> None:
    """ "2T tokens not 1T" on the same 7B and 128 H100s: 6 x 7e9 x 2e12 / (128 x 0.4 x 989e12) / 86,400 = 19.2 days;
    the "1T" was read as a 1,000B model (2,742 days)."""
    *_, changed = talk(
        assistant,
        "pretrain a 7b llama-style model on roughly 1T tokens on 64x H100 SXM. ballpark how long?",
        "and with 128 cards?",
        "ok now same 128 gpus but the data team says 2T tokens not 1T",
    )
    call = changed.tool_calls[0]
    assert (call.input["params_b"], call.input["tokens_b"], call.input["gpus"]) == (7, 2000, 128)
    assert "**19.2 days**" in first_sentence(changed)


def test_a_rack_limit_given_is_used_and_the_servers_counted_later_are_billed(assistant: Assistant) -> None:
    """ "单柜只给到12kW": one 10.2 kW 8-GPU H100 server per rack (NVIDIA DGX H100 user guide, 10.2 kW max); then
    16 of them draw 16 x 8 = 128 GPUs' power, not the rack's 12 kW."""
    rack, bill = talk(
        assistant,
        "机房单柜只给到12kW，8卡H100服务器一台多少功耗，一柜能放几台",
        "那16台一年电费多少，电价0.65元/度，PUE 1.3",
    )
    assert tools(rack) == ["rack_fit"]
    assert "**1 台" in first_sentence(rack)
    call = bill.tool_calls[0]
    assert call.input["gpus"] == 128
    assert "it_power_kw" not in call.input


@pytest.mark.parametrize("change", ["KV cache改成FP8呢", "what if we quantize the kv cache to fp8"])
def test_the_kv_cache_changed_to_fp8_halves_the_cache_not_the_weights(
    assistant: Assistant, change: str
) -> None:
    """Qwen2.5 7B caches 2 x 28 layers x 4 KV heads x 128 x 2 bytes = 57,344 bytes (56 KiB) a token in BF16
    (model card: 28 layers, 4 KV heads); in FP8 half, 28 KiB, so about twice the 32k sequences fit; the weights
    stay BF16."""
    first, changed = talk(
        assistant, "qwen2.5-7b推理，单张L40S，每个请求32k上下文拉满，最多扛多少并发", change
    )
    before, after = first.tool_calls[0], changed.tool_calls[0]
    assert after.input["kv_cache_precision"] == "fp8"
    assert after.input["weight_precision"] == "bf16"
    assert after.output["kv_kib_per_token"] == before.output["kv_kib_per_token"] / 2 == 28
    assert after.output["max_concurrent_sequences"] >= 2 * before.output["max_concurrent_sequences"]


def test_a_new_topic_after_a_budget_is_that_topic_not_the_budget_again(assistant: Assistant) -> None:
    """ "what about storage for that?" after what $500k buys states nothing to reprice: storage for the job, a
    fine-tune's (a 1B-token set, not Chinchilla's 1.4T tokens for 70B), instead of the budget answer again."""
    _, storage = talk(
        assistant,
        "We have ~$500k for hardware. Goal: LoRA on 70B models, full fine-tunes of 8B, and serving a 70B "
        "internally. What should we buy?",
        "what about storage for that?",
    )
    assert tools(storage) == ["storage"]
    assert storage.tool_calls[0].input["dataset_tokens_b"] == 1


def test_a_better_mfu_then_a_shorter_deadline(assistant: Assistant) -> None:
    """70B on 2T tokens: 6 x 70e9 x 2e12 = 8.4e23 FLOPs. At 45% of 989 TFLOPS on 128 H100s: 8.4e23 / (128 x
    445e12) / 86,400 = 171 days; in 60 days at 45%: 8.4e23 / (60 x 86,400 x 445e12) = 364 GPUs, 368 in whole
    8-GPU servers ("mfu能优化到45", "要压到60天" were not read)."""
    _, better, sooner = talk(
        assistant, "128张h100 训70B 2T token 要多久 mfu按38%", "mfu能优化到45的话呢", "要压到60天 得多少卡"
    )
    assert better.tool_calls[0].input["mfu"] == 0.45
    assert "**171 天**" in first_sentence(better)
    assert tools(sooner) == ["gpus_for_deadline"]
    assert "**368 张" in first_sentence(sooner)


def test_tokens_changed_in_a_follow_up_are_tokens_not_a_model_size(assistant: Assistant) -> None:
    """'tokens 改成 2.5T' changes the data: 6 x 7e9 x 2.5e12 / (989.4e12 x 40%) / 3,600 = 73,700 GPU-hours, 48 days
    on 64 H800s (not a 2,500B model); the H800 rent then prices those hours: 73,700 x ¥13 = ¥958,100."""
    _, changed, priced = talk(
        assistant,
        "7B 从零预训，1T tokens，64张H800，MFU按40%算，要多久",
        "tokens 改成 2.5T 呢",
        "租卡的话 H800 按 13块/卡时，大概多少钱",
    )
    compute = output(changed, "training_compute")
    assert changed.tool_calls[0].input["params_b"] == 7
    assert compute["days"]["expected"] == pytest.approx(48, rel=0.01)
    assert "¥958,100" in first_sentence(priced), priced.answer[:300]


def test_a_cloud_price_after_a_gpu_count_for_a_deadline_prices_that_run(assistant: Assistant) -> None:
    """13B on 500B tokens at 45% MFU: 6 x 13e9 x 5e11 / (989.4e12 x 0.45) / 3,600 = 24,340 GPU-hours (40 H100s for
    25.4 days); x $2.2 x 7.1 = ¥380,000: the MFU follow-up ('如果 MFU 能做到 45% 呢') and the price both count."""
    _, faster, priced = talk(
        assistant,
        "我们要 train 一个 13B dense model，500B tokens，deadline 30 天，用 H100，MFU 按 35% 算，需要多少卡？",
        "如果 MFU 能做到 45% 呢？",
        "cloud 租 H100 $2.2/GPU-hr，换成人民币，汇率 7.1，大概多少钱（按 45% 那个）",
    )
    assert output(faster, "gpus_for_deadline")["gpus"] == 40
    assert "cloud_cost" in tools(priced), priced.answer[:200]
    assert output(priced, "cloud_cost")["total"]["cny"] == pytest.approx(380_128, rel=0.01)


@pytest.mark.parametrize(
    ("turns", "total"),
    [
        (
            (
                "我们 128 张 H800 训 13B，实测 MFU 38% 左右，计划 2T tokens，大概要多少天？",
                "老板要 25 天内完",
                "外面租 H800 报价 15 块一卡时，租的话总共多少钱",
            ),
            "¥1,729,500",
        ),
        (
            (
                "128 H100s training a 13B model, MFU around 38%, 2T tokens planned. how many days?",
                "boss wants it done in 25 days",
                "a neocloud quotes H100 at $2.10 per GPU-hour, what's the total if we rent?",
            ),
            "$242,130",
        ),
    ],
)
def test_a_cloud_price_after_a_deadline_prices_the_run_not_the_count_times_the_deadline(
    assistant: Assistant, turns: tuple[str, str, str], total: str
) -> None:
    """13B on 2T tokens at 38% MFU: 6 x 13e9 x 2e12 / (989.4e12 x 0.38) / 3,600 = 115,300 GPU-hours, x ¥15 =
    ¥1,729,500 (x $2.10 = $242,130), whatever the GPUs; not the first turn's 128 GPUs x the deadline's 25 days
    (76,800 GPU-hours)."""
    *_, priced = talk(assistant, *turns)
    assert total in first_sentence(priced), priced.answer[:300]


@pytest.mark.parametrize(
    ("turns", "cloud"),
    [
        (
            (
                "quote: 8x H100 SXM server $250k. colo incl power ~$2.5k/month. cloud offers $2.40/gpu-hr pay as you "
                "go. 3 year horizon. buy or cloud?",
                "cloud guy says $1.90 if we commit for a year",
            ),
            399_456,
        ),
        (
            (
                "8卡H100整机报价175万，托管含电每月1.8万，云上每卡时16元，按3年算买还是上云？",
                "云厂商说签一年的话每卡时13元",
            ),
            2_733_120 / 7.02,
        ),
    ],
)
def test_a_commitment_term_is_not_the_comparisons_horizon(
    assistant: Assistant, turns: tuple[str, str], cloud: float
) -> None:
    """A one-year commitment prices the cloud; the comparison stays over its 3 years, every hour paid:
    $1.90 x 8 x 8,760 x 3 = $399,456 (¥13 x 8 x 8,760 x 3 = ¥2,733,120), against buying's 3 years."""
    _, committed = talk(assistant, *turns)
    out = output(committed, "tco")
    assert committed.tool_calls[-1].input["years"] == 3, committed.tool_calls[-1].input
    assert out["totals"]["cloud"]["usd"] == pytest.approx(cloud, rel=0.001), out["totals"]


@pytest.mark.parametrize(
    "turns",
    [
        (
            "benchmarked our 7B llama-style pretrain on 64 H100s: steady ~10k tokens/s per gpu. target 1T tokens. "
            "how long?",
            "need it in 10 days",
        ),
        ("实测 7B 预训练 64 张 H100，每卡每秒 1 万 token，目标 1T token，要多久", "要 10 天内搞完"),
    ],
)
def test_a_deadline_after_a_run_timed_from_a_measured_rate_counts_the_gpus(
    assistant: Assistant, turns: tuple[str, str]
) -> None:
    """1T tokens at 10,000 tokens/s per GPU: 1e12 / 1e4 / 3,600 = 27,780 GPU-hours, 18.1 days on 64; in 10 days
    27,780 / 240 = 115.7 GPUs, 120 in whole 8-GPU servers (the measured rate, no MFU assumed; "1 万" is 10,000
    tokens a second, not 10,000 tokens to train on)."""
    timed, counted = talk(assistant, *turns)
    assert output(timed, "run_time")["gpu_hours"] == pytest.approx(27_778, rel=0.001)
    assert output(counted, "run_time")["gpus"] == 120, counted.answer[:300]
    assert "120" in first_sentence(counted), counted.answer[:300]


@pytest.mark.parametrize(
    ("turns", "first", "then"),
    [
        (
            (
                "机房单柜只能给 12kW，风冷，8 卡 H800 整机一柜能放几台？我们一共 20 个柜",
                "如果改液冷能到 40kW 一柜呢",
            ),
            "20 台",
            "60 台",
        ),
        (
            (
                "our racks only give 12kW each, air cooled. how many 8x H800 servers per rack? we have 20 racks",
                "what if we go liquid and get 40kW a rack?",
            ),
            "20 x",
            "60 x",
        ),
    ],
)
def test_a_racks_budget_and_the_racks_held_are_the_fit_asked(
    assistant: Assistant, turns: tuple[str, str], first: str, then: str
) -> None:
    """An 8x H800 server draws about 10.2 kW (DGX H100's maximum, NVIDIA's user guide): one fits in 12 kW, three in
    40 kW; 20 racks hold 20, then 60. '只能给 12kW' is what a rack may carry, not a draw to bill."""
    fit, liquid = talk(assistant, *turns)
    assert output(fit, "rack_fit")["servers_per_rack"] == 1
    assert first in first_sentence(fit), fit.answer[:300]
    assert output(liquid, "rack_fit")["servers_per_rack"] == 3
    assert then in first_sentence(liquid), liquid.answer[:300]


def test_renting_it_all_after_a_budget_counts_what_the_money_rents(assistant: Assistant) -> None:
    """¥8,000,000 at ¥70,000 a month a server: 114 server-months, 9 servers for a year (¥840,000 each); the H20's
    ¥1.2M quote from the turn before is not the H800's price."""
    *_, rented = talk(
        assistant,
        "预算 800 万人民币，想搭一套能做 70B 以内微调的集群，买什么",
        "H20 整机报价 120 万一台，网络存储大概再加 20%",
        "要是全拿去租呢，8 卡 H800 整机月租 7 万",
    )
    out = output(rented, "budget_fit")
    assert out["servers"] == 9, out
    assert "tco" not in tools(rented)
    assert "9 台" in first_sentence(rented), rented.answer[:300]
    assert "114" in rented.answer, rented.answer


@pytest.mark.parametrize(
    "turns",
    [
        (
            "pretraining a 70B from scratch, bf16 mixed precision + adamw. how much gpu memory just for "
            "weights+grads+optimizer, and whats the minimum number of H100s",
            "we only have a single 8x H200 box. cpu offload?",
        ),
        (
            "从头预训练 70B，bf16 混合精度 + AdamW，最少要几张 H100？",
            "我们只有一台 8 卡 H200，开 CPU offload 行不行",
        ),
    ],
)
def test_the_gpus_one_has_after_a_minimum_count_are_the_fit_checked(
    assistant: Assistant, turns: tuple[str, str]
) -> None:
    """After the minimum count asked, "we only have a single 8x H200 box" is the setup to check, not a new
    minimum (which answered "4 x H200" to a team with eight)."""
    _, offload = talk(assistant, *turns)
    call = next(c for c in offload.tool_calls if c.name == "training_memory")
    assert call.input["gpus"] == 8, call.input
    assert not first_sentence(offload).startswith("**4 x"), offload.answer[:300]


def test_keeping_every_checkpoint_for_a_period_counts_them_all(assistant: Assistant) -> None:
    """A checkpoint every 30 min kept for 3 weeks: 21 x 24 / 0.5 = 1,008 checkpoints of 13B x 14 bytes = 182 GB,
    183 TB (not the earlier plan's three)."""
    _, answer = talk(
        assistant,
        "we've got ~3.5 TB raw jsonl (english + code) for pretraining a 13B model. how much storage do we need in "
        "total including tokenized copies and checkpoints? ballpark is fine",
        "we actually want to checkpoint every 30 min and keep ALL of them for 3 weeks",
    )
    assert output(answer, "storage")["checkpoints_retained"] == 1008
    assert "1,008" in first_sentence(answer), answer.answer[:300]


_H200_QUOTE = (
    "got a quote: 4x 8-GPU H200 servers at $315k each, $120k IB switches/cables, $80k storage. plan to run 4 years. "
    "each server ~11 kW under load, power $0.12/kWh, PUE 1.35. what's the 4-yr TCO and effective $/GPU-hr at 70% "
    "utilization? ignore staff"
)


def test_network_and_storage_quoted_after_their_amounts_are_in_the_tco(assistant: Assistant) -> None:
    """4 x $315k + $120k switches + $80k storage = $1.46M; power 4 x 11 kW x 1.35 x 8,760 h x $0.12 = $62,441 a year;
    4 years: $1,709,765, / (32 x 8,760 x 70% x 4) = $2.18 a GPU-hour; the switches are a priced line, not a
    question about how many."""
    (answer,) = talk(assistant, _H200_QUOTE)
    assert tools(answer) == ["tco"], answer.answer[:200]
    assert "$1,709,765" in first_sentence(answer), answer.answer[:300]


def test_a_new_tariff_after_a_tco_reruns_the_tco(assistant: Assistant) -> None:
    """At $0.08/kWh the power bill is 4 x 11 x 1.35 x 8,760 x 0.08 = $41,628 a year: $1,709,765 - 4 x $20,813 =
    $1,626,510, the whole TCO again rather than the power bill alone."""
    _, answer = talk(assistant, _H200_QUOTE, "what if electricity was 0.08 instead")
    assert tools(answer) == ["tco"], answer.answer[:200]
    assert "$1,626,510" in first_sentence(answer), answer.answer[:300]


def test_a_run_wanted_done_in_a_week_counts_gpus_for_that_deadline(assistant: Assistant) -> None:
    """6 x 34e9 x 20e9 = 4.08e21 FLOPs / (989.4e12 x 40%) / 3,600 = 2,865 GPU-hours; over 7 x 24 h that is 17.1
    GPUs, 24 in whole servers of 8 ('in a week' is the deadline, not memory alone)."""
    _, answer = talk(
        assistant,
        "how many gpus do i need",
        "full-param finetune of a 34B model, ~20B tokens, want it done in a week, H100s",
    )
    assert "gpus_for_deadline" in tools(answer), answer.answer[:200]
    assert output(answer, "gpus_for_deadline")["gpus"] == 24


def test_going_800g_recounts_the_fabric_on_800g_switches(assistant: Assistant) -> None:
    """512 GPU ports at XDR 800 Gb/s on Quantum-X800 Q3400 (144 x 800G): 72 down per leaf, 8 leaves, 576 uplinks,
    4 spines = 12 switches (against 24 of 64-port NDR)."""
    _, answer = talk(
        assistant,
        "planning 64 nodes x 8 H200 = 512 GPUs, IB NDR 400G per GPU, rail-optimized, non-blocking. how many "
        "switches and cables roughly?",
        "would going 800G (XDR / CX-8) change that picture?",
    )
    out = output(answer, "fabric")
    assert answer.tool_calls[0].input["switch_ports"] == 144
    assert out["switches"] == 12


def test_a_new_card_in_a_follow_up_drops_the_earlier_servers_draw(assistant: Assistant) -> None:
    """'8卡 H100 一台 10.2kw' belongs to the H100 server; 8 x L40S at 350 W x (1 + 82%) = 5.1 kW, two per 12 kW."""
    _, answer = talk(
        assistant,
        "机房单柜 12kw，8卡 H100 一台 10.2kw，一个柜子能放几台",
        "那换 8卡 L40S 的机器呢，一台功耗多少，能放几台",
    )
    out = output(answer, "rack_fit")
    assert out["servers_per_rack"] == 2
    assert answer.tool_calls[0].input.get("server_power_kw") is None


def test_a_cheaper_card_in_a_follow_up_is_priced_on_its_own_gpu_hours(assistant: Assistant) -> None:
    """LoRA of 72B on 0.6B tokens: 4 x 72e9 x 6e8 FLOPs; at 148 dense TFLOPS (H20) x 40% that is 811 GPU-hours,
    x ¥8 = ¥6,488, more than on the H100 (121 GPU-hours x ¥18 = ¥2,183): the H20's hours, not the H100's at ¥8."""
    *_, answer = talk(
        assistant,
        "SFT 数据 2 亿 token，72B 全参，3 个 epoch，租 H100 18 块一卡时，大概多少钱 要多少卡",
        "换 LoRA 能省多少",
        "H20 才 8 块一卡时 用 H20 跑是不是更便宜",
    )
    assert "training_compute" in tools(answer), answer.answer[:200]
    assert output(answer, "cloud_cost")["gpu_hours"] == pytest.approx(811, rel=0.01)


@pytest.mark.parametrize(
    ("follow_up", "usd"),
    [("换算成美元大概多少，汇率按 7.1", "$211,268"), ("and in dollars at 7.1 to the dollar?", "$211,268")],
)
def test_a_budget_converted_leads_with_the_budget_in_that_currency(
    assistant: Assistant, follow_up: str, usd: str
) -> None:
    """¥1,500,000 / 7.1 CNY per USD = $211,267.6: the budget itself, converted by the calculator at the rate
    given, leads the answer in the currency asked for (set 32's "换算成美元" after a budget was halved)."""
    first, converted = talk(assistant, "预算 150 万，买什么 GPU 服务器", follow_up)
    assert "¥1,500,000" in first_sentence(first)
    assert output(converted, "budget_fit")["budget"]["usd"] == pytest.approx(211_267.6, abs=1)
    lead = first_sentence(converted)
    assert usd in lead
    assert lead.index(usd) < lead.index("¥1,500,000")


def test_more_data_in_yi_without_the_word_token_retimes_the_run(assistant: Assistant) -> None:
    """ "数据扩到 200 亿" after a 5B-token fine-tune: 200亿 = 20B tokens. 6 x 14e9 x 20e9 = 1.68e21 FLOPs on 8 H800
    at 40% of 989 TFLOPS (3.165e15 FLOP/s) = 5.31e5 s = 6.14 days; 5B tokens took a quarter of it, 1.53 days."""
    first, more = talk(
        assistant, "14B 全参微调，数据 50 亿 token，8 卡 H800，MFU 40%，要几天", "数据扩到 200 亿呢"
    )
    assert first.tool_calls[0].input["tokens_b"] == 5
    assert more.tool_calls[0].input["tokens_b"] == 20
    assert output(more, "training_compute")["days"]["expected"] == pytest.approx(6.14, abs=0.02)
    assert "6.14 天" in first_sentence(more)


@pytest.mark.parametrize("follow_up", ["平均负载只有 70% 呢", "what if average load is only 70%"])
def test_an_average_load_follow_up_is_the_utilisation(assistant: Assistant, follow_up: str) -> None:
    """32 servers x 10.2 kW x PUE 1.25 = 408 kW at the meter; a year at 70% load is 408 x 8,760 x 0.7 =
    2,502 MWh, at ¥0.65 about ¥1.63M (¥2.32M at full load)."""
    full, average = talk(
        assistant, "32 台 8 卡 H100，每台满载 10.2kW，PUE 1.25，电价 0.65 元/度，一年电费多少", follow_up
    )
    assert average.tool_calls[0].input["utilization"] == 0.7
    ratio = (
        output(average, "power_cost")["yearly_energy_cost"]["cny"]
        / output(full, "power_cost")["yearly_energy_cost"]["cny"]
    )
    assert ratio == pytest.approx(0.7, rel=0.001)


@pytest.mark.parametrize(
    ("first", "follow_up", "lead"),
    [
        (
            "训 7B 全参，云上 8 卡 H100 ¥28/卡时 vs 8 卡 A100 ¥12/卡时，同样 100 亿 token 哪个便宜，MFU 都按 40%",
            "A100 降到 ¥9 呢",
            "花费相近",
        ),
        (
            "7B full FT, cloud 8x H100 at $3.2/gpu-hr vs 8x A100 at $1.4/gpu-hr, same 10B tokens, which is cheaper",
            "what if the a100 drops to $1.00",
            "costs about the same",
        ),
    ],
)
def test_one_cards_new_price_reprices_the_comparison_in_the_users_currency(
    assistant: Assistant, first: str, follow_up: str, lead: str
) -> None:
    """7B x 10B tokens = 4.2e20 FLOPs: 295 H100-hours and 935 A100-hours at 40% MFU (989 and 312 dense TFLOPS).
    At ¥28 and ¥12: ¥8,260 against ¥11,220, the H100 cheaper; the A100 at ¥9 costs ¥8,415, about the same. In
    dollars at $3.2 and $1.4: $943 against $1,309; at $1.00, $935."""
    before, after = talk(assistant, first, follow_up)
    assert after.tool_calls[-1].name == "gpu_compare", tools(after)
    prices = after.tool_calls[-1].input["cloud_prices_usd"]
    assert len(prices) == 2  # both cards are still compared
    assert lead in first_sentence(after)
    if first_sentence(before).startswith("7B 全参"):
        # the prices were given in yuan: the costs are in yuan, not converted to dollars
        assert "¥28" in first_sentence(before)
        assert "¥9" in first_sentence(after)
        assert "$" not in first_sentence(before)


def test_power_left_out_then_added_reworks_the_comparison(assistant: Assistant) -> None:
    """Without power the buy side is ¥2.2M of server (+ assumed maintenance); with 10 kW x PUE 1.3 x 8,760 h x
    ¥0.7 = ¥79,716 a year added, three years add ¥239,148 to the server's price."""
    without, added = talk(
        assistant,
        "租 H100 8卡机月租 8 万，买一台 220 万，按 3 年算哪个划算？先不算电费",
        "加上电费，满载 10kW，PUE 1.3，电价 0.7",
    )
    assert without.tool_calls[0].input["electricity_price_per_kwh"] == 0
    assert tools(added) == ["tco"], tools(added)
    assert added.tool_calls[0].input["electricity_price_per_kwh"] == 0.7
    assert "¥2,439,148" in first_sentence(added)  # ¥2,200,000 + 3 x ¥79,716


def test_after_a_scaling_figure_how_to_improve_it_and_the_added_gpus_power(assistant: Assistant) -> None:
    """64 to 256 H100s for 2.9x the throughput: 72% efficiency. "What would it take to get to 90%" asks how (the
    guidance); "those 192 extra gpus" are the 192 added: 24 servers x 10.2 kW (DGX H100 spec) = 245 kW."""
    _, how, power = talk(
        assistant,
        "went from 64 to 256 h100s and throughput went up 2.9x not 4x. is that normal?",
        "what would it take to get to ~90%",
        "also, how much extra power are those 192 extra gpus pulling",
    )
    assert tools(how) == []
    assert how.citations
    assert "90" in how.answer.split("\n\n")[0]
    assert power.tool_calls[0].input["gpus"] == 192
    assert first_sentence(power).startswith("192 x NVIDIA H100 SXM5 80GB draw about **245 kW**")


def test_a_fleet_count_after_one_machine_powers_the_fleet(assistant: Assistant) -> None:
    """40 servers x 10.2 kW x 0.8 x PUE 1.3 x 8,760 h = 3,717 MWh; at ¥0.65 that is ¥2,416,078 a year."""
    _, fleet = talk(
        assistant,
        "机房单柜 12kW，H100 8卡机满载 10.2kW，一个柜放几台",
        "总共 40 台，PUE 1.3，电费 0.65 元/度，一年电费多少，平均按 80% 负载",
    )
    assert "¥2,416,078" in first_sentence(fleet), first_sentence(fleet)


def test_a_small_rent_in_a_follow_up_is_an_hourly_price(assistant: Assistant) -> None:
    """¥14 per card-hour / (5,900 x 3,600 = 21.24M tokens an hour) = ¥0.659 per million tokens."""
    _, h800 = talk(
        assistant,
        "vLLM 单卡 H20 跑 qwen2.5-14b，实测输出 2600 token/s，卡租金 8.2 元/卡时，每百万 token 多少钱",
        "换 H800 实测 5900 token/s，租金 14 元呢",
    )
    assert "¥0.659" in first_sentence(h800), first_sentence(h800)


def test_the_racks_own_kw_said_again_is_the_budget_not_a_servers_draw(assistant: Assistant) -> None:
    """ "each rack tops out at 40 kW … so what fits in 40kW air cooled then? B200 HGX how many per rack": 40 kW is
    the rack's, and an HGX B200 draws about 14.3 kW (NVIDIA DGX B200 user guide, 14.3 kW max), so two fit, not one
    server of 40 kW."""
    _, second = talk(
        assistant,
        "our DC racks are capped at 40kW, chilled water but no liquid-to-chip. can we take a GB200 NVL72?",
        "ok so what fits in 40kW air cooled then? B200 HGX how many per rack",
    )
    call = next(c for c in second.tool_calls if c.name == "rack_fit")
    assert call.output["rack_kw"] == 40, call.output
    assert call.output["servers_per_rack"] == 2, call.output
    assert call.output["server_kw"] == pytest.approx(14.3), call.output


@pytest.mark.parametrize("gpu", ["GB200", "GB300"])
def test_a_part_sold_only_as_a_rack_scale_system_is_counted_as_that_system(
    assistant: Assistant, gpu: str
) -> None:
    """GB200 and GB300 come only in NVL72 racks of about 120 kW and more (NVIDIA GB200 NVL72 specifications), so a
    15 kW air-cooled rack holds none of them; never 'eight GB200 GPUs at 13.3 kW'."""
    _, second = talk(
        assistant,
        "our colo gives us 15 kW per rack, air cooled. how many 8x H100 HGX servers fit in one rack?",
        f"and if we wait for {gpu}?",
    )
    call = next(c for c in second.tool_calls if c.name == "rack_fit")
    assert call.input.get("gpu") == gpu.lower(), call.input
    assert f"{gpu} NVL72" in call.output["server_label"], call.output
    assert call.output["servers_per_rack"] == 0, call.output


def test_the_projects_own_length_is_the_horizon_of_buy_or_rent(assistant: Assistant) -> None:
    """ "项目大概持续两年": the comparison runs over 2 years, not the 3-year default that reverses the verdict."""
    (answer,) = talk(
        assistant, "算力租赁 H100 价格跌得厉害，自建还是租？项目大概持续两年，利用率估计 60% 左右，8 卡"
    )
    call = next(c for c in answer.tool_calls if c.name == "tco")
    assert call.input["years"] == 2, call.input
    assert first_sentence(answer).startswith("2 年"), answer.answer[:200]


@pytest.mark.parametrize(
    "follow_up",
    ["ok and if finance only signs off on 64?", "老板只批 64 张的话呢", "what if procurement caps us at 64"],
)
def test_one_bare_count_in_a_follow_up_worded_any_way_is_the_new_count(
    assistant: Assistant, follow_up: str
) -> None:
    """3T tokens at a measured 9,800 tokens/s per H100 are 85,034 GPU-hours (3e12 / 9,800 / 3,600): 118.1 GPUs for
    30 days, and on the 64 the follow-up allows, 85,034 / 64 / 24 = 55.4 days."""
    first, second = talk(
        assistant,
        "we measure about 9,800 tok/s per H100 on our 8B llama-style pretrain (bf16, fsdp, 4k seq). need 3T tokens "
        "done within 30 days. how many gpus do we actually need",
        follow_up,
    )
    assert "118.1" in first.answer, first.answer[:200]
    call = next(c for c in second.tool_calls if c.name == "run_time")
    assert call.output["gpus"] == 64, call.input
    assert call.output["days"] == pytest.approx(55.4, abs=0.1), call.output


@pytest.mark.parametrize(
    ("turns", "lead"),
    [
        (
            (
                "small lab, ~$60k. want to fine-tune 8b-32b models. option a: workstation with 4x rtx pro 6000 "
                "blackwell. option b: a used 8x A100 80GB server. which one",
                "what psu / electrical do we need for the 4x rtx pro 6000 option? it'd sit in an office",
            ),
            "3.15 kW",
        ),
        (("4 张 RTX PRO 6000 的工作站电源要多大",), "3.15 kW"),
    ],
)
def test_the_power_supply_asked_is_answered_with_the_machines_draw(
    assistant: Assistant, turns: tuple[str, ...], lead: str
) -> None:
    """4 x 600 W (NVIDIA RTX PRO 6000 Blackwell datasheet) + 0.5 kW for the host, through a 92%-efficient supply:
    2.9 / 0.92 = 3.15 kW, what the supply and the circuit must carry; not the memory plan asked before."""
    *_, last = talk(assistant, *turns)
    assert tools(last) == ["power_cost"], tools(last)
    assert lead in first_sentence(last), first_sentence(last)


@pytest.mark.parametrize(
    ("turns", "per_rack"),
    [
        (
            (
                "colo gives us 17 kW per rack, air cooled. how many hgx h200 servers fit per rack?",
                "they say they can bump us to 40 kW with rear-door heat exchangers. redo it",
            ),
            3,
        ),
        (("12kW机柜能放几台H100服务器？", "那换成 30kW 的呢"), 2),
    ],
)
def test_a_bare_kw_after_servers_per_rack_is_the_racks_new_budget(
    assistant: Assistant, turns: tuple[str, ...], per_rack: int
) -> None:
    """An 8-GPU H200 or H100 server draws about 10.2 kW (NVIDIA DGX H100 user guide): a 40 kW rack holds 3, a 30 kW
    rack 2; the new kW is the rack's, never one server's 40 kW that fits nowhere."""
    *_, last = talk(assistant, *turns)
    call = next(c for c in last.tool_calls if c.name == "rack_fit")
    assert call.output["servers_per_rack"] == per_rack, call.output
    assert call.output["server_kw"] == pytest.approx(10.2), call.output


def test_a_bare_count_in_the_years_range_is_a_count_unless_words_make_it_a_year(assistant: Assistant) -> None:
    """ "if finance signs off on 2048?" is 2,048 GPUs: 85,034 GPU-hours (3e12 tokens / 9,800 per second per H100)
    / 2,048 / 24 = 1.73 days; "what if it's 2027?" names a year and changes no count."""
    base = (
        "we measure about 9,800 tok/s per H100 on our 8B llama-style pretrain. need 3T tokens done within 30 days. "
        "how many gpus do we actually need"
    )
    _, second = talk(assistant, base, "ok and if finance signs off on 2048?")
    call = next(c for c in second.tool_calls if c.name == "run_time")
    assert call.output["gpus"] == 2048, call.input
    assert call.output["days"] == pytest.approx(1.73, abs=0.01), call.output
    _, year = talk(assistant, base, "what if it's 2027?")
    assert all(c.output.get("gpus") != 2027 for c in year.tool_calls), [
        c.output.get("gpus") for c in year.tool_calls
    ]
