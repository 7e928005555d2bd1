"""The figure asked leads (issue 11, set 21's classes): sequences that fit in the KV cache, several spec fields
for two cards laid side by side, a card's TDP beside its server's draw, electricity per GPU-hour at the user's
tariff, and a desk-side workstation on an office circuit. Phrasings are our own; expected figures are worked
out in each docstring from the catalog's published figures."""

from __future__ import annotations

import re

import pytest

from assistant.service import Assistant
from tests.integration.conversation import first_sentence, output, talk, tools

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    ("message", "most"),
    [
        ("qwen2.5-7b bf16 单张L20 48G 8k上下文 kv能放几个请求", 55),
        ("llama 3.1 8b on one h100, how many 8k requests fit in the kv cache?", 50),
    ],
)
def test_sequences_that_fit_lead_when_they_are_asked(assistant: Assistant, message: str, most: int) -> None:
    """Qwen2.5-7B: 28 layers x 4 KV heads x 128 x 2 (K, V) x 2 bytes = 56 KiB per token, 0.47 GB per 8k
    sequence; 43.2 GB usable of the L20's 48 GB less 15.2 GB of weights and overhead holds about 55. Llama 3.1
    8B: 32 x 8 x 128 x 2 x 2 = 128 KiB per token, 1.07 GB per 8k; about 50 in an H100's 72 GB usable."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["inference_memory"]
    assert output(answer, "inference_memory")["max_concurrent_sequences"] == most
    assert str(most) in first_sentence(answer), first_sentence(answer)


def test_two_spec_fields_for_two_cards_are_both_shown(assistant: Assistant) -> None:
    """Gaudi 3: 128 GB HBM2e, 1,835 BF16 TFLOPS; H100 SXM: 80 GB HBM3, 989 dense (Intel and NVIDIA datasheets)."""
    (answer,) = talk(assistant, "gaudi 3 memory + bf16 tflops vs h100 sxm? quick table pls")
    assert tools(answer) == ["gpu_spec"]
    for figure in ("128 GB", "80 GB", "1,835", "989"):
        assert figure in answer.answer.split("\n\n")[0], figure


def test_memory_and_power_asked_in_chinese_are_both_given(assistant: Assistant) -> None:
    """MI325X: 256 GB HBM3E, 1,000 W (AMD Instinct MI325X datasheet)."""
    (answer,) = talk(assistant, "MI325X 的 HBM 容量跟 power，只要数字")
    assert tools(answer) == ["gpu_spec"]
    assert "256 GB" in first_sentence(answer)
    assert "1,000 W" in first_sentence(answer)


def test_a_cards_tdp_and_its_servers_draw_are_both_answered(assistant: Assistant) -> None:
    """B200: 1,000 W; DGX B200: 14.3 kW maximum system power (NVIDIA DGX B200 user guide)."""
    (answer,) = talk(assistant, "whats b200 tdp and what does a whole dgx b200 pull")
    assert tools(answer) == ["gpu_spec", "power_cost"]
    lead = answer.answer.split("\n\n")[0]
    assert "1,000 W" in lead
    assert "14.3 kW" in lead


def test_electricity_per_gpu_hour_at_the_users_tariff(assistant: Assistant) -> None:
    """One H800: 0.7 kW x 1.82 (server overhead) = 1.27 kW, x PUE 1.3 = 1.66 kW at the wall; at ¥0.55/kWh
    that is ¥0.911 per GPU-hour. The tariff is read beside "IDC" (a hall), not as a colocation rent."""
    (answer,) = talk(assistant, "我们 IDC 电价 ¥0.55/kWh，一张 H800 满载 per GPU-hour 电费多少？PUE 1.3")
    assert answer.tool_calls[0].input["electricity_price_per_kwh"] == pytest.approx(0.55)
    assert "每卡时电费约 **¥0.911" in first_sentence(answer), first_sentence(answer)


@pytest.mark.parametrize(
    ("message", "verdict"),
    [
        ("办公室放一台4卡4090工作站 普通220V 16A插座够吗", "可以"),
        ("can a 2x 5090 workstation run off a normal 15A 120V outlet?", "No"),
    ],
)
def test_a_workstation_on_an_office_circuit_is_a_workstation(
    assistant: Assistant, message: str, verdict: str
) -> None:
    """4 x 450 W + 0.5 kW host through a 92% supply = 2.5 kW, within 16 A x 220 V x 80% = 2.816 kW; 2 x 575 W
    + 0.5 kW = 1.79 kW, above 15 A x 120 V x 80% = 1.44 kW."""
    (answer,) = talk(assistant, message)
    assert first_sentence(answer).startswith(verdict), first_sentence(answer)
    assert output(answer, "power_cost")["pue"] == 1


@pytest.mark.parametrize(
    "message", ["英伟达股票现在能买吗", "should I buy nvidia stock before their earnings?"]
)
def test_investment_advice_is_out_of_scope(assistant: Assistant, message: str) -> None:
    (answer,) = talk(assistant, message)
    assert not answer.tool_calls
    assert not answer.citations
    assert "出口" not in answer.answer


@pytest.mark.parametrize(
    "message",
    ["need a server for our llm", "we want to buy a gpu server", "what server do I need for an LLM?"],
)
def test_a_server_wanted_with_no_workload_asks_what_it_will_run(assistant: Assistant, message: str) -> None:
    (answer,) = talk(assistant, message)
    assert not answer.tool_calls
    assert "fine-tuning" in first_sentence(answer)
    assert "serving" in first_sentence(answer)


def test_a_cluster_needed_for_a_pretraining_run_is_planned(assistant: Assistant) -> None:
    """A 7B pre-trained on its Chinchilla 140B tokens (20 per parameter): the plan of GPUs and days, with the
    deadline or budget asked for."""
    (answer,) = talk(assistant, "we need a new cluster for pretraining a 7b")
    assert tools(answer) == ["cluster_plan"]
    assert output(answer, "cluster_plan")["tokens_b"] == 140


def test_hourly_quotes_and_mfus_answer_cost_per_training_token(assistant: Assistant) -> None:
    """$4.20 / (459 TFLOPS x 50%) = $18.3 per useful PFLOP-hour on TPU v5p; $3.00 / (989 x 40%) = $7.58 on H100:
    the H100 is 2.41x cheaper per token (a token costs 6N FLOPs on either)."""
    (answer,) = talk(
        assistant,
        "jax team. v5p quoted $4.20/chip-hr, h100 $3.00/gpu-hr from a neocloud. we see ~50% mfu on tpu and "
        "~40% on h100. which is cheaper per training token?",
    )
    assert tools(answer) == ["gpu_compare"]
    assert output(answer, "gpu_compare")["rank_by"] == "cloud_usd_per_useful_pflop_hour"
    assert "2.41x cheaper per training token" in first_sentence(answer)


def test_instance_prices_are_shared_by_the_chips_they_hold(assistant: Assistant) -> None:
    """trn2.48xlarge (16 Trainium2) at $35/h is $2.19 a chip-hour; p5.48xlarge (8 H100) at $55/h is $6.88:
    $3.28 against $6.95 per dense BF16 PFLOP-hour, 2.12x the compute per dollar on Trainium2."""
    (answer,) = talk(
        assistant, "trn2.48xlarge at $35/hr vs p5.48xlarge at $55/hr, cost per unit of compute? same mfu"
    )
    assert tools(answer) == ["gpu_compare"]
    assert output(answer, "gpu_compare")["ranking"][0]["id"] == "trainium2"
    assert "2.12x the compute per dollar" in first_sentence(answer)


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        (
            "training a 70b. ckpt every 2h kept for the last 48h plus one daily ckpt kept for 30 days, full "
            "optimizer state. how much storage total, and per month on s3?",
            54,
        ),
        ("34B 每4小时存一次ckpt 保留最近2天 另外每天一个保留14天 存储要多少", 26),
    ],
)
def test_a_retention_schedule_counts_the_checkpoints_it_keeps(
    assistant: Assistant, message: str, kept: int
) -> None:
    """48 h / 2 h = 24 rolling + 30 daily = 54 checkpoints of 980 GB (70B x 14 bytes: BF16 weights, FP32
    master and Adam moments) = 52.9 TB, about $1,217 a month at S3 Standard's $23 per TB-month; 2 days / 4 h
    = 12 + 14 daily = 26 of 34B's 476 GB = 12.4 TB. Only the storage is sized: no training run."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["storage"]
    assert answer.tool_calls[0].input["checkpoints_retained"] == kept
    if kept == 54:
        assert "52.9 TB" in first_sentence(answer)
        assert "$1,217 a month" in first_sentence(answer)


@pytest.mark.parametrize(
    ("message", "rate"),
    [
        (
            "96 gpus, ~10k tokens/s per gpu. what read bw does the data loader need? do we need a parallel fs?",
            3.84,
        ),
        ("64卡 每卡每秒9000 token 数据读带宽要多少", 2.3),
    ],
)
def test_a_read_rate_is_computed_from_the_rate_given(assistant: Assistant, message: str, rate: float) -> None:
    """96 GPUs x 10,000 tokens/s x 4 bytes per id = 3.84 MB/s; 64 x 9,000 x 4 = 2.3 MB/s: the figure leads, and
    a judgement asked beside it ("do we need a parallel fs?") does not replace it."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["data_volume"]
    assert output(answer, "data_volume")["read_mb_s"] == pytest.approx(rate, rel=0.01)
    assert f"{rate:g} MB/s" in first_sentence(answer)


@pytest.mark.parametrize(
    ("message", "verdict"),
    [
        (
            "is 1TB of RAM per 8xH100 box too much for plain pretraining? no offload",
            "Enough for training without offload, and not overkill",
        ),
        ("8卡H100每台配1T内存是不是太多了 不开offload", "不开 offload 够用，也不算多"),
        ("our 8x h100 servers have 512GB ram, enough?", "No"),
    ],
)
def test_host_ram_quoted_is_judged_against_the_floor_and_the_plan(
    assistant: Assistant, message: str, verdict: str
) -> None:
    """640 GB of HBM: 1 TB clears the ~615 GiB floor (enough without offload) though short of the 2x plan;
    512 GB is below the floor."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["host_ram"]
    assert first_sentence(answer).startswith(verdict), first_sentence(answer)


@pytest.mark.parametrize(
    "message",
    [
        "vllm 部署 llama3 70b bf16，4×H100：TP=4 一个 instance vs 两个 TP=2 instance，throughput 哪个好",
        "llama 3 70b in bf16 on 4 h100s with vllm: tp=4 or two tp=2 instances?",
    ],
)
def test_tensor_parallel_layouts_on_the_same_gpus_are_weighed(assistant: Assistant, message: str) -> None:
    """Llama 3 70B in BF16 is 141 GB of weights: TP=4 puts 35.3 GB on each H100 and leaves room for about 51
    sequences of 8k tokens (320 KiB of KV per token, 2.68 GB each); TP=2 puts 70.6 GB on each, more than the
    72 GB usable once runtime and activations are added, so two TP=2 instances do not fit in BF16."""
    (answer,) = talk(assistant, message)
    runs = [c for c in answer.tool_calls if c.name == "inference_memory"]
    assert [c.input["tensor_parallel"] for c in runs] == [4, 2]
    assert [c.output["fits"] for c in runs] == [True, False]
    assert "TP=4" in first_sentence(answer)
    assert "TP=2" in first_sentence(answer)


def test_mfu_from_a_measured_rate_written_after_its_unit(assistant: Assistant) -> None:
    """820 tokens/s per H100 on 70B: 820 x 6 x 70e9 / 989e12 = 34.8% MFU."""
    (answer,) = talk(assistant, "128张H100训70B 每卡tokens/s实测820 MFU多少 正常吗")
    assert answer.tool_calls[0].input["tokens_per_second_per_gpu"] == 820
    assert "35%" in first_sentence(answer)


def test_a_rack_in_kilowatts_written_in_chinese_is_fitted(assistant: Assistant) -> None:
    """20 kW a rack, one 8 x H20 server at about 6.5 kW: 3 servers (19.5 kW)."""
    (answer,) = talk(assistant, "机房单柜20千瓦 能放几台8卡H20服务器")
    assert tools(answer) == ["rack_fit"]
    assert "**3 台" in first_sentence(answer)


def test_mfu_implied_by_reported_gpu_hours(assistant: Assistant) -> None:
    """DeepSeek-V3 (arXiv 2412.19437): 2.788M H800 GPU-hours for 14.8T tokens is 1,475 tokens/s per GPU; with
    37B active parameters, 6 x 37e9 x 1,475 / 989e12 = 33% MFU."""
    (answer,) = talk(
        assistant,
        "deepseek reported V3 at 2.788M H800 hours for 14.8T tokens. what mfu is that?",
    )
    assert tools(answer) == ["throughput_calibration"]
    assert "**33%**" in first_sentence(answer)


def test_a_model_too_big_for_one_consumer_card_suggests_4_bit_first(assistant: Assistant) -> None:
    """Qwen3-30B-A3B keeps all 30.5B parameters resident: 61 GB in BF16, 30.5 GB in FP8, both above a 4090's
    21.6 GB usable; a 4-bit build (about 16 GB with its scales) fits before any second card is bought."""
    (answer,) = talk(assistant, "Qwen3-30B-A3B推理 只激活3B 是不是一张4090就够了")
    assert first_sentence(answer).startswith("放不下")
    lead = answer.answer.split("\n\n")[0]
    assert "4 比特" in lead
    assert "4-bit" not in lead  # the suggestion is written in the reader's language


@pytest.mark.parametrize(
    ("message", "seconds", "says"),
    [
        (
            "each node has 2x200G to the storage fabric. how long to push a 1TB checkpoint shard off one node?",
            20,
            "**20 s**",
        ),
        ("ckpt 每次 1.1TB 要传 S3, 出口带宽 25Gbps 要多久", 352, "**5.87 分钟**"),
    ],
)
def test_a_copy_over_a_given_link_is_timed(
    assistant: Assistant, message: str, seconds: float, says: str
) -> None:
    """1 TB over 2 x 200 Gbit/s: 8e12 bits / 4e11 = 20 s at line rate; 1.1 TB over 25 Gbit/s: 8.8e12 / 2.5e10 =
    352 s, 5.87 minutes; nothing asked about switches."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["data_volume"]
    assert output(answer, "data_volume")["transfer_seconds"] == pytest.approx(seconds, rel=0.01)
    assert says in first_sentence(answer)


@pytest.mark.parametrize(
    ("message", "weights", "states"),
    [
        ("70B要多少显存", "140", "1,120"),
        ("how much GPU memory does a 7B model need", "14", "112"),
        ("does 7b fit on a 4090", "14", "112"),
    ],
)
def test_a_model_memory_asked_with_no_job_shows_every_job(
    assistant: Assistant, message: str, weights: str, states: str
) -> None:
    """No job named, and the jobs differ tenfold: serving holds the BF16 weights (70e9 x 2 bytes = 140 GB) and a
    KV cache; full training with mixed-precision AdamW holds 16 bytes per parameter (ZeRO paper, Rajbhandari et
    al. 2020, section 3.1: 70e9 x 16 = 1,120 GB) plus activations; LoRA keeps the BF16 weights and QLoRA a 4-bit
    copy. The first sentence gives each, smallest to largest in the order QLoRA < serving < LoRA < full, and
    asks which job it is."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["inference_memory", *["training_memory"] * 3]
    lead = answer.answer.split("\n\n")[0]
    serving = output(answer, "inference_memory")["total"]
    assert f"{weights} GB" in lead, lead
    trained = {c.input["finetune"]: c.output["per_gpu"]["total_gb"] for c in answer.tool_calls[1:]}
    assert trained["qlora"] < serving["total_gb"] < trained["lora"] < trained["full"]
    full = next(c for c in answer.tool_calls if c.input.get("finetune") == "full")
    kept = full.output["per_gpu"]
    assert f"{kept['weights_gb'] + kept['gradients_gb'] + kept['optimizer_states_gb']:,.0f}" == states
    assert lead.rstrip().endswith(("?", "？")), lead


def test_a_fit_with_room_for_one_sequence_is_only_just_a_fit(assistant: Assistant) -> None:
    """DeepSeek-V3 in FP8 on 8 x H20: 671B x 1 byte = 671 GB of weights over 8 x 86.4 GB usable (96 GB at vLLM's
    0.9) leaves room for about one 4,096-token sequence: the lead says the fit is only just, not a plain yes."""
    (answer,) = talk(assistant, "DeepSeek-V3 671B FP8 部署 8卡H20 放得下吗")
    assert output(answer, "inference_memory")["max_concurrent_sequences"] <= 2
    assert first_sentence(answer).startswith("只是勉强放下")


@pytest.mark.parametrize(
    ("message", "lead"),
    [
        (
            "full fine-tuning Mixtral 8x7B — do I size GPU memory by the 47B total or 13B active params?",
            "By the total",
        ),
        ("DeepSeek-V3推理 显存按总参数还是激活参数算", "按总参数算"),
    ],
)
def test_a_moe_model_is_sized_by_its_total_parameters(assistant: Assistant, message: str, lead: str) -> None:
    """Mixtral 8x7B: 46.7B total, 12.9B active (Mistral AI, "Mixtral of experts", 2024); all experts sit in memory,
    so 16 bytes x 46.7e9 = 747 GB of model states for full fine-tuning. DeepSeek-V3: 671B total, 37B active
    (arXiv:2412.19437), served as released in FP8: 671 GB of weights. The answer says which, first."""
    (answer,) = talk(assistant, message)
    assert first_sentence(answer).startswith(lead), answer.answer[:300]


def test_a_model_released_in_fp8_is_served_in_fp8_unless_told_otherwise(assistant: Assistant) -> None:
    """DeepSeek-R1 and V3 ship FP8 weights (DeepSeek-V3 README_WEIGHTS): 671e9 x 1 byte = 671 GB, more than one
    8 x 80 GB H100 server holds (8 x 72 GB usable = 576 GB), so the least is 16 H100s in two servers; in BF16 it
    would be 1,342 GB and 32 of them."""
    (answer,) = talk(assistant, "满血deepseek r1 本地部署 最少得什么配置 别说量化版")
    call = answer.tool_calls[0]
    assert call.input["weight_precision"] == "fp8"
    assert call.output["total"]["weights_gb"] == pytest.approx(671, rel=0.01)
    assert "**16 张" in first_sentence(answer)


def test_a_message_about_the_kv_cache_leads_with_its_size(assistant: Assistant) -> None:
    """Qwen2.5-32B: 64 layers x 8 KV heads x 128 dims x 2 (K and V) x 2 bytes = 262,144 bytes (256 KiB) a
    token; 64 sequences x 16,384 tokens x 256 KiB = 2.75e11 bytes = 275 GB (Qwen2.5 config.json)."""
    (answer,) = talk(
        assistant, "kv cache for qwen2.5-32b, 64 concurrent users at 16k ctx, fp16 kv. how many GB"
    )
    assert first_sentence(answer).startswith("The KV cache of 64 sequences of 16,384 tokens is **275 GB**")


@pytest.mark.parametrize(
    ("message", "lead"),
    [
        (
            "Llama3-8B seq 8192 micro batch 1，开了 activation checkpointing，激活大概占多少显存",
            "激活约占 **每卡 3.46 GB**",
        ),
        ("ckpt 写入要在 60s 内完成，70B full state，存储 write bandwidth 要多少 GB/s？", "要在 60 秒内写完"),
    ],
)
def test_the_setting_the_user_gave_decides_the_figure_asked(
    assistant: Assistant, message: str, lead: str
) -> None:
    """Full recomputation keeps each layer's input: 2 bytes x 8,192 x 4,096 per layer plus what a recomputed
    layer holds, 3.46 GB over 32 layers (Korthikanti et al. 2022). A 70B resumable checkpoint is 14 bytes a
    parameter, 980 GB: in 60 s that is 16.3 GB/s."""
    (answer,) = talk(assistant, message)
    assert first_sentence(answer).startswith(lead), answer.answer[:200]
    if "60s" in message:
        assert "16.3 GB/s" in first_sentence(answer)


def test_a_kv_cache_precision_follow_up_changes_the_cache_not_the_weights(assistant: Assistant) -> None:
    """Llama 3.1 70B: 80 layers x 8 KV heads x 128 x 2 = 163,840 values a token: 320 KiB in BF16, 160 KiB in
    FP8; a 131,072-token sequence holds 42.9 GB and 21.5 GB."""
    first, fp8 = talk(
        assistant, "我们要 serve Llama-3.1-70B，context 要 128k，bf16，H200 几张够？", "KV cache 改 fp8 呢"
    )
    assert fp8.tool_calls[0].input.get("kv_cache_precision") == "fp8"
    assert fp8.tool_calls[0].input.get("weight_precision", "bf16") == first.tool_calls[0].input.get(
        "weight_precision", "bf16"
    )
    assert "21.5 GB" in first_sentence(fp8)


def test_raw_text_and_its_tokenized_copy_are_sized_together(assistant: Assistant) -> None:
    """12 TB of English text at about 4 bytes a token is 3T tokens; as uint32 ids (a 128k vocabulary needs more
    than 16 bits) that is 12 TB again, 24 TB with the raw text kept (Llama 3 tokenizer: 128,256 tokens)."""
    (answer,) = talk(
        assistant,
        "raw corpus is 12TB of english jsonl. llama3 tokenizer (128k vocab). how much disk do i need for raw + tokenized?",
    )
    assert tools(answer) == ["data_volume"]
    lead = answer.answer.split("\n\n")[0]
    assert "**12 TB**" in lead
    assert "24 TB in all" in lead


@pytest.mark.parametrize(
    ("messages", "lead"),
    [
        (
            (
                "现在 4 台 8卡 H100 跑 13B 预训练，实测每卡 2400 token/s。扩到 16 台如果线性，一天能训多少 token",
            ),
            "一天约训 **265 亿 token**",
        ),
        (
            (
                "现在 4 台 8卡 H100 跑 13B 预训练，实测每卡 2400 token/s。扩到 16 台如果线性，一天能训多少 token",
                "扩展效率按 85% 算呢",
            ),
            "一天约训 **226 亿 token**",
        ),
        (
            (
                "we get 2400 tokens/s per h100 on 32 gpus training 13b. if we go to 128 gpus with linear scaling, how "
                "many tokens a day?",
            ),
            "about **26.5B tokens a day**",
        ),
    ],
)
def test_tokens_a_day_on_the_grown_fleet(assistant: Assistant, messages: tuple[str, ...], lead: str) -> None:
    """128 GPUs x 2,400 tokens/s x 86,400 s = 26.5B tokens a day; at 85% scaling efficiency 22.6B."""
    *_, answer = talk(assistant, *messages)
    assert lead in first_sentence(answer), answer.answer[:200]


def test_a_daily_token_volume_and_a_measured_rate_count_the_serving_gpus(assistant: Assistant) -> None:
    """500M output tokens a day = 5,787 tokens/s on average; at a measured 2,800 tokens/s per H100 that is 2.07
    GPUs, so 3."""
    (answer,) = talk(
        assistant, "vLLM 跑 Qwen2.5-14B，单张 H100 实测 decode 2800 tok/s，每天 5 亿 output token 要几张卡"
    )
    assert "**3 张卡**" in first_sentence(answer)


@pytest.mark.parametrize(
    ("message", "saved"),
    [
        ("13b on 8 gpus with zero-3: how much vram does turning on cpu offload save?", "19.5"),
        ("ZeRO-3 加 CPU offload 能省多少显存？13B 模型，8 张卡", "19.5"),
    ],
)
def test_what_offloading_saves_leads_when_it_is_asked(assistant: Assistant, message: str, saved: str) -> None:
    """13B with Adam: the FP32 master copy and two moments are 12 bytes per parameter, 156 GB, sharded over 8 GPUs
    by ZeRO-3: 19.5 GB per GPU that offloading moves to host RAM (Rajbhandari et al. 2020, ZeRO; Ren et al. 2021,
    ZeRO-Offload). The saving leads, then each figure."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["training_memory", "training_memory"]
    assert saved in first_sentence(answer)


@pytest.mark.parametrize(
    "message",
    ["how much gpu memory to lora a 34b model? what about qlora", "LoRA 微调 34B 要多少显存？QLoRA 呢"],
)
def test_two_methods_asked_in_turn_each_get_their_figure(assistant: Assistant, message: str) -> None:
    """LoRA keeps the 34B base in BF16 (68 GB of weights), QLoRA in 4 bits (about 17-18 GB): two figures, each
    labelled, never one of them standing for both (Dettmers et al. 2023, QLoRA)."""
    (answer,) = talk(assistant, message)
    methods = [call.input.get("finetune") for call in answer.tool_calls]
    assert methods == ["lora", "qlora"]
    assert "QLoRA" in answer.answer
    assert "LoRA" in answer.answer.replace("QLoRA", "")


@pytest.mark.parametrize(
    ("message", "native"),
    [
        ("llama 3.1 8b in bf16 on one L40S: how long a context can it fit?", "131,072"),
        ("Qwen2.5-7B bf16 单张 4090，最长能跑多长的上下文", "32,768"),
    ],
)
def test_the_longest_context_that_fits_leads_when_it_is_asked(
    assistant: Assistant, message: str, native: str
) -> None:
    """The KV cache left after the weights, as one sequence's length: Llama 3.1 8B keeps 32 layers x 8 KV heads
    x 128 x 2 (K, V) x 2 bytes = 128 KiB per token (Meta's model card: GQA, 8 KV heads); Qwen2.5-7B 28 x 4 x
    128 x 2 x 2 = 56 KiB. Where the cache holds more than the model's own window (128k, 32k), that is said."""
    (answer,) = talk(assistant, message)
    assert tools(answer) == ["inference_memory"]
    result = output(answer, "inference_memory")
    room = result["max_kv_tokens_per_replica"]
    assert isinstance(room, int)
    assert f"{room:,}" in first_sentence(answer)
    assert native in answer.answer.split("\n")[0]


def test_a_measured_rate_asked_is_it_normal_is_judged_by_the_mfu_it_implies(assistant: Assistant) -> None:
    """2,800 tokens/s per H100 on a 13B model: 6 x 13e9 x 2,800 = 2.18e14 FLOP/s, 22% of the 989 dense BF16
    TFLOPS (Kaplan et al. 2020, C = 6ND; NVIDIA H100 datasheet): the MFU leads, then whether that is normal."""
    (answer,) = talk(
        assistant, "our 13b pretraining run does about 2,800 tokens/s per h100. is that normal or slow?"
    )
    assert "22%" in first_sentence(answer)


def test_tokens_per_second_asked_with_a_slash_reaches_the_serving_estimate(assistant: Assistant) -> None:
    (answer,) = talk(
        assistant, "how many tokens/s will one request get decoding an 8B model in bf16 on an L40S?"
    )
    assert tools(answer) == ["serving_estimate"]


@pytest.mark.parametrize(
    ("message", "gpu", "least"),
    [
        ("aws gave us trn2 credits. can we realistically pretrain a 30b llama-style model on trainium2?", "trainium2", 8),
        ("can H100 pretrain 70B?", "h100-sxm", 24),
        ("H100 能预训练 70B 吗", "h100-sxm", 24),
    ],
)  # fmt: skip
def test_whether_a_pretraining_run_can_be_done_is_judged_on_the_chips_it_needs(
    assistant: Assistant, message: str, gpu: str, least: int
) -> None:
    """A pre-training run is never one chip's: mixed-precision Adam keeps 16 bytes a parameter (ZeRO paper,
    Rajbhandari et al. 2020), 480 GB for 30B and 1,120 GB for 70B, so one Trainium2 (96 GiB, 103 GB) or 80 GB H100 holds
    neither, and the question asked with no count is answered "yes" on the fewest that hold it sharded, never "no"
    for one."""
    (answer,) = talk(assistant, message)
    call = next(c for c in answer.tool_calls if c.name == "training_memory")
    assert call.input["gpu"] == gpu, call.input
    lead = first_sentence(answer)
    assert lead.startswith(("Yes", "可以")), lead
    assert str(least) in lead, lead


def test_a_single_card_named_is_still_judged_as_one(assistant: Assistant) -> None:
    """ "a single H100": one card was asked about, so the verdict is for one (112 GB of model states for 7B at 16
    bytes a parameter is more than its 80 GB)."""
    (answer,) = talk(assistant, "can a single H100 pretrain a 7B?")
    assert first_sentence(answer).startswith("No"), first_sentence(answer)


@pytest.mark.parametrize(
    "message",
    ["qwen2.5-14b 全参微调 要几张 H20？zero3", "how many H20s to fully fine-tune qwen2.5-14b with zero3?"],
)
def test_a_count_asked_is_the_count_on_gpus_not_one_card_with_offload(
    assistant: Assistant, message: str
) -> None:
    """Qwen2.5-14B's 14.77B parameters at 16 bytes (mixed-precision Adam, ZeRO paper) are 236 GB of model states:
    sharded with ZeRO-3 they need 4 x 96 GB H20s at least, not one card with the optimizer in host RAM (ZeRO-3 on one
    card shards nothing, and offloading is a slower job the user did not ask for)."""
    (answer,) = talk(assistant, message)
    call = next(c for c in answer.tool_calls if c.name == "training_memory")
    assert call.input["gpu"] == "h20", call.input
    lead = first_sentence(answer)
    assert re.search(r"\*\*4 (?:x|张)", lead), lead


@pytest.mark.parametrize(
    ("message", "mfu"),
    [
        # 6 x 7e9 x 3,500 = 1.47e14 FLOP/s per A800 (312 dense BF16 TFLOPS): 47%
        ("A800 64卡 训7B，实测每卡 3500 tokens/s，1T token 要多少天？这速度正常吗", 0.471),
        # 6 x 13e9 x 2,900 = 2.26e14 FLOP/s per H100 SXM (989): 23%
        (
            "2,900 tokens/s per H100 measured on our 13B run, 256 GPUs, 1T tokens: how many days, and is that any good?",
            0.229,
        ),
    ],
)
def test_days_asked_with_a_measured_rate_judged_give_the_mfu_it_implies(
    assistant: Assistant, message: str, mfu: float
) -> None:
    """The days from their rate, and whether the rate is normal: the MFU it implies, against the 35-50% tuned
    dense runs reach (Llama 3 405B: 38-43%, Meta's paper), in the same answer."""
    (answer,) = talk(assistant, message)
    calibration = output(answer, "throughput_calibration")
    assert calibration["implied_mfu"] == pytest.approx(mfu, abs=0.002)  # type: ignore[index]
    assert re.search(r"35%?\s*(?:-|–|到)\s*50%", answer.answer.split("\n\n")[0]), answer.answer[:300]
