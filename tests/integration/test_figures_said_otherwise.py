"""Figures and constraints as set k20's writer put them (issue 11): a count of tokens after the word that says it
changed, an MoE's active size joined by a hyphen, hardware priced for a count of cards, a context "wanted", a
quote said with "报", a network priced per server and storage in all, a resale share or amount said after the
fact, an exchange rate for the budget just sized, "what do we buy", cards in the plural, Chinese parts only,
two generations in one job, one image for two generations, an oversubscribed fabric, and colocation with its
power. Phrasings are our own; expected figures are worked out in each docstring from the inputs."""

from __future__ import annotations

import pytest

from assistant.models import Answer
from assistant.service import Assistant
from tests.integration.conversation import first_sentence, output, talk, tools

pytestmark = pytest.mark.integration


def _call(answer: Answer, name: str) -> dict[str, object]:
    return next(call.input for call in answer.tool_calls if call.name == name)


@pytest.mark.parametrize(
    "follow_up", ["token 翻倍 600B 呢", "数据量翻倍到600B呢", "and if tokens doubled to 600B?"]
)
def test_a_count_after_the_word_that_says_it_changed_is_the_tokens(
    assistant: Assistant, follow_up: str
) -> None:
    """ "token 翻倍 600B": 600B tokens for the same 72B model, twice the first run's 31 days (6 x 72e9 x 600e9 =
    2.59e23 FLOPs on 128 H800s at 38% of 989 TFLOPS: about 62 days), not a 600B-parameter model."""
    first, second = talk(assistant, "在 128 张 H800 上继续预训练 72B，300B token，MFU 38%，要多久", follow_up)
    call = _call(second, "training_compute")
    assert (call["params_b"], call["tokens_b"]) == (72, 600), call
    days = [output(a, "training_compute")["days"]["expected"] for a in (first, second)]  # type: ignore[index]
    assert days[1] == pytest.approx(2 * days[0], rel=1e-2)


def test_an_active_size_joined_by_a_hyphen_is_the_active_size(assistant: Assistant) -> None:
    """ "400B-total / ~40B-active": 6 x 40e9 x 10e12 = 2.4e24 FLOPs, a tenth of what 400B dense would need."""
    (answer,) = talk(
        assistant, "planning a 400B-total / ~40B-active MoE pretrain on 10T tokens on 288 B200. how long?"
    )
    workload = output(answer, "training_compute")["workload"]
    assert workload["training_flops"] == pytest.approx(2.4e24, rel=1e-3)  # type: ignore[index]


def test_hardware_priced_for_a_count_of_cards_is_those_cards_machines(assistant: Assistant) -> None:
    """ "自建 64 卡硬件 2000 万": ¥20M for the 64 cards' eight machines (¥2.5M each), not ¥20M each."""
    (answer,) = talk(
        assistant,
        "云上 H800 每卡时 12 块，自建 64 卡硬件 2000 万，电费 0.8 元/度，PUE 1.3，用 3 年， 哪个划算",
    )
    assert _call(answer, "tco")["capex_per_server"] == pytest.approx(2_500_000)
    assert _call(answer, "tco")["gpus"] == 64


@pytest.mark.parametrize(
    "message",
    [
        "H20 96G 部署 DeepSeek-V3 671B FP8，要几台 8卡 机器？context 想开到 64k",
        "serve DeepSeek-V3 FP8 on H20 96GB with 64k context: how many 8-GPU servers?",
    ],
)
def test_machines_of_a_shape_asked_at_the_context_wanted(assistant: Assistant, message: str) -> None:
    """ "要几台 8卡 机器", "how many 8-GPU servers": machines of 8 are counted, at the 65,536-token context
    wanted. 671B FP8 weights (671 GB) and one 64k sequence do not fit 8 x 86.4 GB usable, so 16 cards, 2 machines."""
    (answer,) = talk(assistant, message)
    call = _call(answer, "inference_memory")
    assert call["context_tokens"] == 65536, call
    assert output(answer, "inference_memory")["gpus_needed"] == 16
    assert "2 台" in first_sentence(answer) or "2 8-GPU servers" in first_sentence(answer), first_sentence(
        answer
    )


def test_a_quote_said_with_bao_and_a_residual_share_after_it(assistant: Assistant) -> None:
    """ "买的报价 230 万": the machine's ¥2.3M, not a budget; then "按 30% 残值卖掉" takes ¥690k off buying."""
    first, second = talk(
        assistant,
        "8卡 H200 整机，买的报价 230 万，租的话 9 万一个月。我们要用 3 年，租还是买划算",
        "3 年后按 30% 残值卖掉呢",
    )
    assert _call(first, "tco")["capex_per_server"] == pytest.approx(2_300_000)
    assert _call(second, "tco")["residual_share"] == pytest.approx(0.3)
    buy = [output(a, "tco")["totals"]["buy"]["cny"] for a in (first, second)]  # type: ignore[index]
    assert buy[0] - buy[1] == pytest.approx(690_000, rel=1e-3)


def test_a_resale_amount_said_after_the_comparison_is_taken_off_buying(assistant: Assistant) -> None:
    """ "3 年后机器还能卖 500 万": ¥5M back at the end of the ¥20M of hardware."""
    _, second = talk(
        assistant,
        "云上 H800 每卡时 12 块，自建 64 卡硬件 2000 万，电费 0.8 元/度，PUE 1.3，用 3 年， 哪个划算",
        "3 年后机器还能卖 500 万",
    )
    assert _call(second, "tco")["resale_value"] == pytest.approx(5_000_000)


@pytest.mark.parametrize(
    ("message", "servers"),
    [
        # (30M - 2M) / (2.6M + 0.3M) = 9.66: 9 machines
        ("预算 3000 万，一台 8卡 H200 报 260 万，IB 网络按每台 30 万，存储整体 200 万， 能买几台", 9),
        # (4M - 0.3M) / (330k + 35k) = 10.1: 10 machines
        ("budget $4M. one 8x H200 server quoted at $330k, networking $35k per server, storage $300k in total. how many servers?", 10),
    ],
)  # fmt: skip
def test_a_network_per_server_and_storage_in_all_come_out_of_the_budget(
    assistant: Assistant, message: str, servers: int
) -> None:
    """The quote per machine, its network per machine and the storage bought once: the storage comes off the
    budget first, each machine costs its price plus its network."""
    (answer,) = talk(assistant, message)
    assert output(answer, "budget_fit")["servers_with_fabric"] == servers
    assert f"**{servers} " in first_sentence(answer), first_sentence(answer)


def test_a_rate_to_convert_the_budget_just_sized_converts_it(assistant: Assistant) -> None:
    """ "按 7.1 的汇率折成美元": ¥5,000,000 / 7.1 = $704,225, the budget sized again at the user's rate (the word
    "报价" names what it is compared with, not a card's price asked)."""
    _, second = talk(
        assistant,
        "预算 500 万人民币，主要做 7B-13B 全参微调加内部推理，国内采购，能怎么配",
        "按 7.1 的汇率折成美元大概多少，方便跟海外报价比",
    )
    assert tools(second)[0] == "budget_fit", tools(second)
    assert "704,225" in first_sentence(second), first_sentence(second)


def test_what_do_we_buy_with_a_budget_is_what_the_budget_buys(assistant: Assistant) -> None:
    """ "$500k all-in … what do we buy?": the servers the money buys lead, not a one-GPU memory check."""
    (answer,) = talk(
        assistant,
        "we have $500k all-in for hardware. goal: full fine-tune up to ~13B, LoRA on 70B, some internal "
        "inference. what do we buy?",
    )
    assert tools(answer)[0] == "budget_fit", tools(answer)


@pytest.mark.parametrize(
    ("message", "least"),
    [
        # 70B full fine-tune: 1,239 GB unsharded; ZeRO-3 + TP 8 over 24 x 80 GB holds it at 63.4 GB each
        ("can I fine-tune llama 3 70b on H100s?", 24),
        # Trainium2 is rented as 16-chip instances: ZeRO-3 + full recomputation over 16 x 103 GB (82.3 GB each)
        ("is trainium2 usable for fine-tuning llama 3 70b or is it a pain? we live in AWS already", 16),
    ],
)
def test_cards_in_the_plural_are_answered_on_as_many_as_the_job_needs(
    assistant: Assistant, message: str, least: int
) -> None:
    """No count given, cards in the plural or rented only in pods: whether it can be done is answered on the
    fewest that hold the job, not "no" for one card."""
    (answer,) = talk(assistant, message)
    lead = first_sentence(answer)
    assert lead.startswith("Yes"), lead
    assert f"**{least} x" in lead, lead


def test_one_card_asked_in_chinese_is_still_one_card(assistant: Assistant) -> None:
    """ "4090能不能做7B全参微调": one 4090 (24 GB) cannot hold 7B's ~135 GB; the lead says so."""
    (answer,) = talk(assistant, "4090能不能做7B全参微调")
    assert first_sentence(answer).startswith("放不下"), first_sentence(answer)


def test_chinese_parts_only_sizes_on_an_ascend_card(assistant: Assistant) -> None:
    """ "只能用国产卡": the GPU count for the deadline is of Huawei Ascend 910B, not of the H100 default."""
    (answer,) = talk(assistant, "7B 从头训，1T token，三个月内，只能用国产卡")
    assert _call(answer, "gpus_for_deadline")["gpu"] == "ascend-910b2"


def test_two_generations_in_one_job_asked_in_chinese_is_the_mixing_question(assistant: Assistant) -> None:
    """ "16 台 H100 + 16 台 B200 … 一起跑一个大训练任务": whether one synchronous job should span both, which the
    guidance answers (it runs at the slower card's pace), not a spec comparison of H100 and H200."""
    (answer,) = talk(assistant, "明年会有 16 台 H100 + 16 台 B200，能不能直接 256 卡一起跑一个大训练任务")
    assert not tools(answer), tools(answer)
    assert "最慢" in first_sentence(answer) or "混" in first_sentence(answer), first_sentence(answer)


def test_one_image_for_two_generations_is_checked_for_the_newer(assistant: Assistant) -> None:
    """H100 nodes on 535 / CUDA 12.2 with B200 nodes coming: Blackwell needs CUDA 12.8 and driver 570.26, so the
    B200 decides the image, and 12.2 is too old for it."""
    (answer,) = talk(
        assistant,
        "our H100 nodes are on driver 535 / CUDA 12.2. new B200 nodes arrive next month. we want one container "
        "image for both. what do we need to change?",
    )
    assert _call(answer, "driver_check")["gpu"] == "b200"
    assert "12.8" in first_sentence(answer), first_sentence(answer)


def test_an_oversubscribed_fabric_asked_after_the_switch_count(assistant: Assistant) -> None:
    """512 ports non-blocking on 64-port switches: 16 leaves (32 down, 32 up) + 8 spines = 24. At 2:1 each leaf
    takes 42 down and 22 up: 13 leaves and 5 spines, 18 switches, said to be oversubscribed."""
    first, second = talk(
        assistant,
        "64 nodes of 8 H100, one 400G NDR port per GPU, how many QM9700 switches non-blocking?",
        "can we save money by going 2:1 oversubscribed?",
    )
    assert output(first, "fabric")["switches"] == 24
    assert output(second, "fabric")["switches"] == 18
    assert "2:1 oversubscribed" in first_sentence(second), first_sentence(second)


def test_colocation_with_its_power_and_a_reserved_price_are_the_users(assistant: Assistant) -> None:
    """8 x $260k + $400k + 36 x $12k of colocation (power in it) = $2.912M to buy; 64 x $2.10 x 26,280 h =
    $3.532M reserved (paid for every hour), so buying is cheaper."""
    (answer,) = talk(
        assistant,
        "64 H100s for 3 years. buy: 8 servers at $260k each, $400k for networking+storage, colo incl. power "
        "$12k/month. cloud: 3-year reserved at $2.10/GPU-hr. we expect ~70% utilization. which is cheaper?",
    )
    totals = output(answer, "tco")["totals"]
    assert totals["buy"]["usd"] == pytest.approx(2_912_000, rel=1e-3)  # type: ignore[index]
    assert totals["cloud"]["usd"] == pytest.approx(3_532_032, rel=1e-3)  # type: ignore[index]
    assert "buying is cheapest" in first_sentence(answer), first_sentence(answer)


@pytest.mark.parametrize(
    ("message", "cheaper", "flexible", "committed", "even"),
    [
        # on demand 32 x 8,760 h x 60% x $3.60 = $605,491; take-or-pay 32 x 8,760 x $2.40 = $672,768; 2.40 / 3.60
        (
            "neocloud offers a 12-month lease on 32 H200s at $2.40/GPU-hr, take-or-pay. or on-demand at $3.60. we "
            "think we'll use them ~60% of the time. which?",
            "on_demand", 605_491.2, 672_768, 0.6667,
        ),
        # on demand 64 x 8,760 x 50% x ¥25 = ¥7,008,000; a year reserved 64 x 8,760 x ¥16 = ¥8,970,240; 16 / 25
        ("H100 按需每卡时 25 元，包年每卡时 16 元，64 卡用一年，利用率大概 50%，哪个划算", "on_demand", 7_008_000, 8_970_240, 0.64),
        # on demand 128 x 8,760 x 80% x $3.20 = $2,870,477; reserved 128 x 8,760 x $2.10 = $2,354,688; 2.10 / 3.20
        (
            "reserved 1-year H100 at $2.10/GPU-hr vs on-demand $3.20, 128 GPUs, ~80% busy. which one?",
            "committed", 2_870_476.8, 2_354_688, 0.6562,
        ),
    ],
)  # fmt: skip
def test_a_committed_price_beside_an_on_demand_one_is_compared_at_the_utilisation(
    assistant: Assistant, message: str, cheaper: str, flexible: float, committed: float, even: float
) -> None:
    """The commitment pays every hour of its term; on demand only the hours used: which is cheaper at the
    utilisation given leads, with the utilisation above which the commitment pays off (their price ratio)."""
    (answer,) = talk(assistant, message)
    on_demand = output(answer, "tco")["on_demand"]
    currency = "cny" if "元" in message else "usd"
    assert on_demand["cheaper"] == cheaper  # type: ignore[index]
    assert on_demand["total"][currency] == pytest.approx(flexible, rel=1e-4)  # type: ignore[index]
    assert on_demand["committed_total"][currency] == pytest.approx(committed, rel=1e-4)  # type: ignore[index]
    assert on_demand["break_even_utilization"] == pytest.approx(even, abs=1e-3)  # type: ignore[index]
    lead = first_sentence(answer)
    assert ("on-demand is cheaper" if cheaper == "on_demand" else "commitment is cheaper") in lead or (
        ("按需更便宜" if cheaper == "on_demand" else "包期承诺更便宜") in lead
    ), lead


def test_a_period_and_a_currency_asked_of_the_comparison_reprice_it(assistant: Assistant) -> None:
    """ "give me the 3 year buy total in RMB, use 7.1" after an 18-month look: the comparison over 3 years again,
    in yuan at 7.1 ($2.912M x 7.1 = ¥20,675,200 to buy), not a straight-line quote of the servers."""
    *_, last = talk(
        assistant,
        "64 H100s for 3 years. buy: 8 servers at $260k each, $400k for networking+storage, colo incl. power "
        "$12k/month. cloud: 3-year reserved at $2.10/GPU-hr. we expect ~70% utilization. which is cheaper?",
        "hmm and if we only need it for 18 months?",
        "give me the 3 year buy total in RMB, use 7.1",
    )
    assert tools(last) == ["tco"], tools(last)
    assert output(last, "tco")["totals"]["buy"]["cny"] == pytest.approx(20_675_200, rel=1e-4)  # type: ignore[index]
    assert "¥20,675,200" in first_sentence(last), first_sentence(last)


def test_eight_of_each_card_after_a_full_stop_and_long_contexts(assistant: Assistant) -> None:
    """ "…long contexts. 8x H200 or 8x MI325X?": eight of each (a full stop before the 8 is no decimal point),
    at the 32k tokens "long contexts" is read as: 405B FP8 on 8 cards, and the MI325X's 256 GB hold more
    sequences than the H200's 141 GB."""
    (answer,) = talk(assistant, "inference box for a 405B model in FP8, long contexts. 8x H200 or 8x MI325X?")
    calls = [c for c in answer.tool_calls if c.name == "inference_memory"]
    assert [c.input["gpus"] for c in calls] == [8, 8], [c.input for c in calls]
    assert {c.input["context_tokens"] for c in calls} == {32768}
    fits = {c.input["gpu"]: c.output["max_concurrent_sequences"] for c in calls}
    assert fits["mi325x"] > fits["h200"] > 0, fits


def test_a_card_beside_a_server_that_does_not_hold_it_is_fitted_too(assistant: Assistant) -> None:
    """ "how many DGX B200 … how about HGX H200 boxes instead?" in 40 kW racks: a DGX B200 draws 14.3 kW (2 per
    rack, 20 in 10 racks), an 8-GPU H200 server about 10.2 kW (3 per rack, 30): both, not the DGX alone."""
    (answer,) = talk(
        assistant,
        "colo gives us 10 racks at 40 kW each, air cooled. how many DGX B200 can we put in? how about HGX H200 "
        "boxes instead?",
    )
    per_rack = [c.output["servers_per_rack"] for c in answer.tool_calls if c.name == "rack_fit"]
    assert per_rack == [2, 3], per_rack


def test_what_configuration_for_training_a_big_model_is_asked_back(assistant: Assistant) -> None:
    """ "训大模型要啥配置": which job, model and budget decide the configuration; asked, with a starting point."""
    (answer,) = talk(assistant, "训大模型要啥配置")
    assert not tools(answer), tools(answer)
    assert "预算" in answer.answer[:200], answer.answer[:200]
    assert "模型" in answer.answer[:200], answer.answer[:200]


def test_two_stammered_words_are_noise(assistant: Assistant) -> None:
    """ "卡卡卡 显存 啊啊啊 ？？？ 1234": noise to ask about again, not a passage on host RAM."""
    (answer,) = talk(assistant, "卡卡卡 显存 啊啊啊 ？？？ 1234")
    assert not tools(answer), tools(answer)
    assert answer.answer.startswith("没看懂"), answer.answer[:120]


@pytest.mark.parametrize(
    ("message", "least"),
    [
        # 13B full fine-tune: 241 GB on one card; ZeRO-3 + TP 2 over 4 x 80 GB holds it at 69.9 GB each
        ("what server do we need to fully fine-tune a 13B model?", "**4 x"),
        # 7B: 135 GB on one card; ZeRO-3 + TP 2 over 2 x 80 GB at 69.2 GB each
        ("做7B全参微调需要什么配置的服务器", "**2 张"),
    ],
)
def test_a_server_asked_for_a_fine_tune_leads_with_the_cards_it_needs(
    assistant: Assistant, message: str, least: str
) -> None:
    """A server asked for holds as many cards as the job needs: the count leads, not "no" for one card."""
    (answer,) = talk(assistant, message)
    assert least in first_sentence(answer), first_sentence(answer)


def test_worth_jumping_asks_for_a_judgement(assistant: Assistant) -> None:
    """ "H100-class for half the price. worth jumping?": the guidance on Gaudi 3 judges it; no memory plan."""
    (answer,) = talk(assistant, "Gaudi 3 sales rep says it's H100-class for half the price. worth jumping?")
    assert "training_memory" not in tools(answer), tools(answer)


def test_the_count_of_tokens_said_again_is_not_a_model(assistant: Assistant) -> None:
    """ "老板说必须一个月内搞完 600B" after 72B on 600B tokens: the same 600B tokens within 30 days, 272 H800s at
    38% MFU (6 x 72e9 x 600e9 = 2.59e23 FLOPs / (989 TFLOPS x 0.38 x 30 x 86,400 s) = 266, whole servers: 272),
    not a 600B-parameter model (2,224)."""
    *_, last = talk(
        assistant,
        "在 128 张 H800 上继续预训练 72B，300B token，MFU 38%，要多久",
        "token 翻倍 600B 呢",
        "老板说必须一个月内搞完 600B，要加到多少卡",
    )
    call = _call(last, "gpus_for_deadline")
    assert (call["params_b"], call["tokens_b"]) == (72, 600), call
    assert output(last, "gpus_for_deadline")["gpus"] == 272


def test_a_deadline_said_as_when_results_are_due(assistant: Assistant) -> None:
    """ "老板要30天出结果": a 30-day deadline. 6 x 70e9 x 1.4e12 = 5.88e23 FLOPs at 40% of 989 TFLOPS in 30 days:
    573.6 H200s, whole servers: 576."""
    (answer,) = talk(assistant, "70B dense，1.4T tokens，老板要30天出结果，用H200，MFU按40%算，要多少卡")
    assert _call(answer, "gpus_for_deadline")["deadline_days"] == 30
    assert output(answer, "gpus_for_deadline")["gpus"] == 576


@pytest.mark.parametrize(
    ("first", "follow_up", "gpus"),
    [
        (
            "70B dense，1.4T tokens，老板要30天出结果，用H200，MFU按40%算，要多少卡",
            "要是只批下来一半的卡呢",
            288,
        ),
        ("how many H100 to train 13B on 2T tokens in 30 days?", "what if we only get half the GPUs?", 80),
    ],
)
def test_half_of_the_count_just_computed_is_timed(
    assistant: Assistant, first: str, follow_up: str, gpus: int
) -> None:
    """ "只批下来一半的卡", "half the GPUs" after the count a deadline needs (576, 160): how long on half of it, about
    twice the deadline."""
    _, second = talk(assistant, first, follow_up)
    assert _call(second, "training_compute")["gpus"] == gpus


def test_a_step_time_said_with_the_new_count_is_measured_on_it(assistant: Assistant) -> None:
    """13B, 1,024 x 4,096 tokens a step: 6 x 13e9 x 4,194,304 = 3.27e17 FLOPs a step. On 128 H100s at 6.8 s that
    is 376 TFLOPS each, 38% MFU, and 300B tokens take 71,526 steps x 6.8 s = 5.63 days (not 6.8 s on 64 GPUs
    scaled to 3.4 s on 128)."""
    _, second = talk(
        assistant,
        "13B llama-style, global batch 1024 x 4096 tokens, 64 H100s, step time is 12.0 s steady state. what's our "
        "MFU, and how long for 300B tokens?",
        "if we double to 128 GPUs and step time drops to 6.8 s?",
    )
    result = output(second, "throughput_calibration")
    assert result["implied_mfu"] == pytest.approx(0.38, abs=0.01)
    assert result["run_gpus"] == 128


def test_a_global_throughput_is_the_whole_clusters(assistant: Assistant) -> None:
    """ "256张H100, global throughput 大概 200k tokens/s": 781 tokens/s per GPU; 6 x 70e9 x 781 / 989e12 = 33% MFU
    and 2T tokens take 2e12 / 200,000 s = 116 days."""
    (answer,) = talk(
        assistant,
        "Megatron 跑 Llama 70B, TP8 PP4, 256张H100, global throughput 大概 200k tokens/s, MFU多少？ 要训2T tokens多久",
    )
    assert _call(answer, "throughput_calibration")["tokens_per_second_per_gpu"] == pytest.approx(781.25)
    assert output(answer, "throughput_calibration")["implied_mfu"] == pytest.approx(0.33, abs=0.01)


def test_a_reserve_for_the_room_and_a_site_abroad(assistant: Assistant) -> None:
    """ "网络存储机房 先留25%": a quarter of ¥150M kept, ¥112.5M / 7.1 = $15.85M for servers at $390k: 40 of them;
    a Singapore subsidiary's machines need no note on Chinese export licences, in this turn or the next."""
    first, second = talk(
        assistant,
        "我们新加坡子公司 budget 1.5亿人民币，汇率按7.1算，HGX B200 quote 是 $390k 一台，网络存储机房 先留25%，能上多少台？",
        "if we go B300 instead at $520k each?",
    )
    assert output(first, "budget_fit")["servers_with_fabric"] == 40
    assert output(second, "budget_fit")["servers_with_fabric"] == 30
    for answer in (first, second):
        assert "中国大陆" not in answer.answer
        assert "mainland China" not in answer.answer


def test_an_eight_hundred_gig_fabric_for_blackwell_ultra(assistant: Assistant) -> None:
    """1,024 B300s, each with an 800G ConnectX-8, on 144-port Quantum-X800 switches: 72 down and 72 up per leaf,
    15 leaves and 8 spines, 23 switches (not 400G links split from 800G ports)."""
    (answer,) = talk(
        assistant,
        "下一期 1024张 B300，想直接上800G，CX8 + Quantum-X800 还是 Spectrum-X800？roughly 要多少交换机",
    )
    assert _call(answer, "fabric")["switch_ports"] == 144
    assert output(answer, "fabric")["switches"] == 23


@pytest.mark.parametrize(
    ("message", "support"),
    [
        (
            "3-year horizon. option A: buy HGX H200 8-GPU server at $285k, colo $2,500/month for the rack incl power, "
            "vendor support $15k/yr. option B: 3-yr reserved cloud at $3.50 per GPU-hour. which is cheaper and by how much?",
            15_000,
        ),
        ("自建一台8卡H100 220万，维保每年8万，托管每月1.5万含电，3年，云上每卡时20元，利用率70%，哪个划算", 80_000),
        ("buy 2 HGX H100 at $280k each, support $2,000/month, 3 years, cloud $2.50/GPU-hr, 60% busy. cheaper?", 24_000),
    ],
)  # fmt: skip
def test_support_quoted_by_the_year_or_month_is_the_maintenance(
    assistant: Assistant, message: str, support: float
) -> None:
    """ "vendor support $15k/yr", "维保每年8万", "support $2,000/month": the amount quoted each year, not a budget
    and not a share of capex (the first: $285k + 3 x ($30k colo + $15k) = $420k to buy)."""
    (answer,) = talk(assistant, message)
    assert _call(answer, "tco")["support_per_year"] == pytest.approx(support)
    if "$285k" in message:
        assert output(answer, "tco")["totals"]["buy"]["usd"] == pytest.approx(420_000)  # type: ignore[index]


def test_payback_against_the_users_rent(assistant: Assistant) -> None:
    """ "租的话7万/台/月，买的话220万/台，自己托管每台每月1.5万（含电），多久回本": owning saves ¥70,000 - ¥15,000 =
    ¥55,000 a month against renting (the rent's hosting is the provider's), so ¥2.2M pays back in 40 months, not
    in the 19 months a catalog cloud price would give."""
    (answer,) = talk(
        assistant, "8卡H100整机，租的话7万/台/月，买的话220万/台，自己托管每台每月1.5万（含电），多久回本？"
    )
    assert "**40 个月**" in first_sentence(answer), first_sentence(answer)


def test_a_liquid_cooled_rack_in_an_air_cooled_hall_fits_none(assistant: Assistant) -> None:
    """Two GB200 NVL72 racks (about 120 kW each) in a 250 kW hall that is air-cooled only: the power would do, the
    cooling would not; GB200 NVL72 is sold liquid-cooled only, so the answer is no."""
    (answer,) = talk(
        assistant,
        "leadership saw GB200 NVL72 at GTC and wants two racks. our hall has 250 kW total IT power and it's "
        "air-cooled only, raised floor. can we do it?",
    )
    assert output(answer, "rack_fit")["servers_per_rack"] == 0
    assert first_sentence(answer).startswith("**No**"), first_sentence(answer)


@pytest.mark.parametrize(
    ("message", "opening"),
    [
        ("在吗", "你好"),
        ("cool. can you recommend a laptop for my kid's school, budget $600?", "I help teams"),
        ("给孩子买个上网课的笔记本电脑，预算 4000", "我专门帮助"),
        ("把H100放冰箱里能不能快两倍 lol，还有显存能不能 download 更多？", "没看懂"),
    ],
)
def test_greetings_errands_and_jokes_get_no_passage(assistant: Assistant, message: str, opening: str) -> None:
    """ "在吗" is a greeting; a school laptop is not a server; a GPU in the fridge and downloaded memory are a
    joke: none of them is answered with a passage on power prices or upgrades."""
    (answer,) = talk(assistant, message)
    assert answer.answer.startswith(opening), answer.answer[:120]
    assert not answer.citations, answer.answer[:120]


def test_a_measured_aggregate_rate_on_one_card_sizes_the_serving_fleet(assistant: Assistant) -> None:
    """ "~2,500 output tok/s aggregate" on one H100, 60 req/s x 350 output tokens = 21,000 tokens/s at peak:
    21,000 / 2,500 = 8.4, so 9 GPUs lead (2 servers of 8 in whole machines), not a roofline estimate."""
    (answer,) = talk(
        assistant,
        "benchmarked vLLM with Llama 3.1 8B on one H100: ~2,500 output tok/s aggregate while still meeting our p95 "
        "latency SLO. launch traffic estimate is 60 req/s at peak, avg 350 output tokens per request. how many H100s?",
    )
    assert _call(answer, "serving_capacity")["tokens_per_second_per_gpu"] == 2500
    assert first_sentence(answer).startswith("**9 GPUs**"), first_sentence(answer)


def test_two_cloud_prices_are_not_followed_by_a_purchase_nobody_priced(assistant: Assistant) -> None:
    """Only a take-or-pay and an on-demand price given: the headline weighs those two; buying, priced from the
    catalog, stays in the table and is not listed item by item after them."""
    (answer,) = talk(
        assistant,
        "neocloud offers a 12-month lease on 32 H200s at $2.40/GPU-hr, take-or-pay. or on-demand at $3.60. we "
        "think we'll use them ~60% of the time. which?",
    )
    headline = answer.answer.split("\n\n", 1)[0]
    assert "on-demand is cheaper" in headline, headline
    assert "Buying is" not in headline, headline
