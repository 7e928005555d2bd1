"""Follow-ups that add something the last answer did not have (issue 11, set 36's largest class): a deadline
stated after a run's time asks for the GPUs that meet it; a follow-up whose words reach no calculator never
gets the last answer again word for word; a checkpoint schedule with the run's length counts what the run
writes before the capacity, and the capacity asked leads even after a write-time answer. Phrasings are our
own; figures are worked out in each docstring from the inputs and published constants."""

from __future__ import annotations

import re

import pytest

from assistant.service import Assistant
from tests.integration.conversation import first_sentence, output, talk, tools

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    ("follow_up", "gpus"),
    [
        ("management needs it finished within 10 days", 48),
        ("领导要求10天内训完", 48),
    ],
)
def test_a_deadline_after_a_run_time_asks_for_the_gpus_that_meet_it(
    assistant: Assistant, follow_up: str, gpus: int
) -> None:
    """6 x 7e9 x 500e9 = 2.1e22 FLOPs; one H100 at 40% of 989 TFLOPS does 3.956e14 FLOP/s, so 16 of them
    take 2.1e22 / 6.33e15 = 3.32e6 s = 38.4 days; within 10 days (864,000 s) it needs 61.4 GPUs, 64 in whole
    8-GPU servers (Kaplan et al. 2020, C = 6ND; NVIDIA H100 datasheet, 989 dense BF16 TFLOPS)."""
    first, then = talk(
        assistant, "a 7B model on 500B tokens with 16 H100 SXM: how long to pretrain?", follow_up
    )
    assert tools(first) == ["training_compute"]
    assert round(output(first, "training_compute")["days"]["expected"], 1) == 38.4  # type: ignore[index]
    assert "gpus_for_deadline" in tools(then), then.answer[:300]
    assert output(then, "gpus_for_deadline")["gpus"] == 64
    assert "64" in first_sentence(then)


def test_a_follow_up_no_calculator_reads_is_answered_from_the_guidance_not_repeated(
    assistant: Assistant,
) -> None:
    """The host-RAM answer once; a follow-up about moving the weights to NVMe changes none of the RAM
    calculator's inputs, so the same figures again would answer nothing: the guidance answers instead."""
    first, then = talk(
        assistant,
        "13B model, ZeRO-3 with the optimizer offloaded to CPU, one 8x A100 80GB server: how much host RAM?",
        "what changes if the parameters also go to NVMe?",
    )
    assert tools(first) == ["host_ram"]
    assert then.answer != first.answer
    assert then.tool_calls == []
    assert then.citations


def test_asking_the_same_again_may_repeat_it(assistant: Assistant) -> None:
    first, again = talk(assistant, "13B on 1T tokens with 64 H100s: how many days?", "say that again please")
    assert tools(again) == tools(first) == ["training_compute"]


@pytest.mark.parametrize(
    ("messages", "written", "everything_tb"),
    [
        (
            ("34B model, a checkpoint every 4 hours over a 45 day run: how much storage do we need?",),
            270,
            "129",
        ),
        (
            (
                "34B 模型的检查点多大",
                "写入带宽只有 3 GB/s，存一次要多久",
                "每4小时存一次，训45天，盘要留多大",
            ),
            270,
            "129",
        ),
    ],
)
def test_a_checkpoint_schedule_with_the_runs_length_counts_what_it_writes_first(
    assistant: Assistant, messages: tuple[str, ...], written: int, everything_tb: str
) -> None:
    """45 days x 24 h / 4 h = 270 checkpoints; a resumable 34B checkpoint is 34e9 x 14 bytes = 476 GB
    (BF16 weights 2 + FP32 master 4 + Adam moments 8 bytes per parameter, Rajbhandari et al. 2020, ZeRO),
    so all of them take 270 x 476 GB = 128.5 TB, shown as 129 TB."""
    answers = talk(assistant, *messages)
    last = answers[-1]
    assert output(last, "storage")["checkpoints_written"] == written
    assert everything_tb in first_sentence(last), last.answer[:400]


def test_a_daily_volume_counts_the_cards_and_a_peak_follow_up_counts_more(assistant: Assistant) -> None:
    """200M output tokens a day are 2,315 tokens/s on average, 7.7 requests/s of 300 tokens; at a peak 4x the
    average, 9,259 tokens/s: the count of cards grows with it (the serving estimate's roofline per card)."""
    first, peak = talk(
        assistant, "每天要推理2亿个输出token，模型是Qwen2.5-7B，要几张卡？", "峰值是平均的4倍的话呢？"
    )
    assert tools(first) == tools(peak) == ["serving_estimate"]
    assert first.tool_calls[0].input["requests_per_second"] == pytest.approx(200e6 / 86_400 / 300, rel=1e-3)
    assert peak.tool_calls[0].input["requests_per_second"] == pytest.approx(
        4 * 200e6 / 86_400 / 300, rel=1e-3
    )
    assert output(peak, "serving_estimate")["gpus"] >= output(first, "serving_estimate")["gpus"]  # type: ignore[operator]


def test_why_after_a_guidance_answer_is_not_the_same_answer_again(assistant: Assistant) -> None:
    first, why = talk(
        assistant,
        "why does everyone size full fine-tuning memory at 16 bytes per parameter?",
        "then why do some blog posts say 18 or even 20 bytes?",
    )
    assert why.answer != first.answer
    assert why.citations


@pytest.mark.parametrize(
    ("first", "then", "added", "compared"),
    [
        ("MI300X 和 H100 训练用哪个好", "那 MI325X 呢", "mi325x", {"mi300x", "h100-sxm"}),
        ("L40S or A100 80GB for fine-tuning?", "what about the H200?", "h200", {"l40s", "a100-80gb-sxm"}),
    ],
)
def test_another_card_after_a_comparison_joins_the_cards_compared(
    assistant: Assistant, first: str, then: str, added: str, compared: set[str]
) -> None:
    """ "那 MI325X 呢" after two cards were weighed asks how the new card stands against them: the new card is
    compared with both, not answered from a passage about its maker."""
    earlier, answer = talk(assistant, first, then)
    assert "gpu_compare" in tools(earlier), earlier.answer[:200]
    call = next(c for c in answer.tool_calls if c.name == "gpu_compare")
    assert call.input["gpus"][0] == added, call.input
    assert set(call.input["gpus"][1:]) >= compared, call.input


def test_a_follow_up_carrying_on_in_plain_words_stays_on_the_topic(assistant: Assistant) -> None:
    """ "那一般隔多久存一次比较好" after a question on checkpoints names nothing of the domain: it carries on from
    the last answer (its first word says so), so it is the checkpoint interval, not out of scope."""
    _, then = talk(assistant, "训练 checkpoint 为什么比最后导出的权重大这么多？", "那一般隔多久存一次比较好")
    assert then.citations, then.answer[:200]
    assert re.search(r"间隔|Young|Daly|小时", first_sentence(then)), then.answer[:300]


def test_a_new_question_in_a_conversation_is_not_answered_by_the_last_lead(assistant: Assistant) -> None:
    """ "那 RoCE 要调哪些参数" after "IB 还是 RoCE" is a question of its own: the passage that weighed the two
    fabrics answered the last one and does not lead again."""
    first, then = talk(assistant, "集群不大，上 IB 有必要吗，还是 RoCE 够用", "RoCE 具体要调哪些参数，坑多吗")
    assert tools(first) == [], first.answer[:200]
    assert then.citations[0].section != first.citations[0].section, then.citations[0]


def test_a_message_carrying_on_about_something_else_is_still_out_of_scope(assistant: Assistant) -> None:
    """ "那…" carries on from the last answer only when what follows is about the domain: "那明天会下雨吗" after
    a question on checkpoints is the weather, declined, not the checkpoint guidance again."""
    first, then = talk(assistant, "训练 checkpoint 为什么比最后导出的权重大这么多？", "那明天会下雨吗")
    assert then.citations == [], then.answer[:200]
    assert then.answer != first.answer


@pytest.mark.parametrize("then", ["would multi-query attention help with that?", "does GQA fix that?"])
def test_a_yes_or_no_question_about_what_was_just_said_is_a_follow_up(
    assistant: Assistant, then: str
) -> None:
    """ "would MQA help with that?" after the KV cache was explained asks about that cache: a follow-up (not a
    greeting for its "help", not out of scope for naming no card), answered from the guidance, not the last lead."""
    first, answer = talk(
        assistant,
        "for long-context serving, why is the KV cache the memory bottleneck rather than the weights?",
        then,
    )
    assert answer.citations, answer.answer[:200]
    assert answer.citations[0].section != first.citations[0].section


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("Lustre or WEKA for 32 nodes of 8x H100?", "is either of them fine for a team of two?"),
        (
            "Slurm or Kubernetes for a 64-GPU cluster that trains and serves?",
            "is it possible to have both?",
        ),
        ("Slurm 和 K8s 怎么选 我们三个团队共用128卡", "两者能装在同一批机器上吗"),
        ("风冷还是液冷？32 台 H200 八卡", "这两个能混着用吗"),
    ],
)
def test_a_yes_or_no_question_pointing_back_at_both_options_is_a_follow_up(
    assistant: Assistant, first: str, then: str
) -> None:
    """ "is either of them OK…?", "两者能装在同一批机器上吗" after a choice between two things names neither: it
    asks about the two just weighed, answered from the guidance, not declined as out of scope."""
    _, answer = talk(assistant, first, then)
    assert answer.citations, answer.answer[:200]


def test_a_question_pointing_back_at_nothing_of_ours_is_still_out_of_scope(assistant: Assistant) -> None:
    """ "这两个明天会下雨吗" points back ("这两个…吗") but means the weather: its meaning does not confirm it."""
    _, answer = talk(assistant, "训练 checkpoint 为什么比最后导出的权重大这么多？", "这两个明天会下雨吗")
    assert answer.citations == [], answer.answer[:200]


def test_whether_gqa_shrinks_the_kv_cache_is_answered_by_the_ratio_of_heads(assistant: Assistant) -> None:
    """Llama 3 70B: 64 query heads share 8 KV heads, so 2 x 80 x 8 x 128 x 2 bytes = 320 KiB a token in BF16
    against 2.5 MiB with full multi-head attention (Ainslie et al. 2023, GQA, arXiv:2305.13245)."""
    _, answer = talk(
        assistant,
        "for long-context serving, why is the KV cache the memory bottleneck rather than the weights?",
        "does GQA fix that?",
    )
    assert re.search(r"(?i)query heads|KV heads|key-value head", first_sentence(answer)), answer.answer[:300]
    assert "320 KiB" in answer.answer.split("\n\n")[0]


def test_a_follow_up_the_calculators_read_nothing_new_in_is_not_led_by_the_last_passage(
    assistant: Assistant,
) -> None:
    """ "and what about the software side?" after a comparison of two cards repeats that comparison's inputs:
    the guidance answers it instead, and not with the passage that stood beside the figures just shown."""
    first, then = talk(
        assistant,
        "MI300X or H100 for fine-tuning 70B models on 16 GPUs: is the AMD card a real option?",
        "and what would break on the software side if we switch?",
    )
    assert tools(then) == [], then.answer[:200]
    said = {(c.doc_id, c.section) for c in first.citations if not c.doc_id.startswith("catalog/")}
    assert then.citations, then.answer[:200]
    assert (then.citations[0].doc_id, then.citations[0].section) not in said or not said, then.citations[0]


@pytest.mark.parametrize(
    "turns",
    [
        (
            "3-year TCO for 32 H100s: buy, lease or cloud? we'd run them around the clock",
            "and at 35% utilisation?",
            "which one would you go with?",
        ),
        ("32张H100用3年 买 租 还是上云 7x24跑", "如果利用率只有35%呢", "那你会选哪个"),
    ],
)
def test_which_to_pick_after_the_figures_is_answered_by_their_verdict(
    assistant: Assistant, turns: tuple[str, ...]
) -> None:
    """ "which one would you go with?" after buy, lease and cloud were costed: the figures just computed
    decide it, so their verdict answers (the cheapest option at the utilisation last asked), not a passage
    on something else."""
    *_, last, answer = talk(assistant, *turns)
    assert tools(answer) == ["tco"], answer.answer[:200]
    assert answer.tool_calls[0].input == last.tool_calls[0].input
    assert re.search(r"cheapest|最(?:便宜|省|划算)", first_sentence(answer)), answer.answer[:300]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        (
            "where should 80TB of tokenized shards live for our 8 GPU nodes: NFS, Lustre or local NVMe?",
            "would a plain s3 bucket do then?",
        ),
        # (these two are near enough to the index alone, and stay answered)
        (
            "buy 16 H100s or rent them in the cloud for a 2-year program?",
            "could we mix the two, owning some and renting the peaks?",
        ),
        ("我们 32 卡跑两年 自建还是租云", "能不能两者结合 平时自己的 高峰再租"),
    ],
)
def test_a_follow_up_in_plain_words_is_read_by_its_meaning_and_the_question_before_it(
    assistant: Assistant, first: str, then: str
) -> None:
    """A follow-up naming nothing of the domain and not near enough to the index alone ("would a plain s3 bucket
    do then?") is near it and the question it follows together: about that question, answered from the guidance."""
    _, answer = talk(assistant, first, then)
    assert answer.citations, answer.answer[:200]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("Slurm or Kubernetes for a 64-GPU cluster?", "what's a good pasta recipe?"),
        ("训练 checkpoint 为什么比最后导出的权重大这么多？", "那明天会下雨吗"),
    ],
)
def test_a_message_near_neither_the_index_nor_the_last_question_stays_out_of_scope(
    assistant: Assistant, first: str, then: str
) -> None:
    _, answer = talk(assistant, first, then)
    assert answer.citations == [], answer.answer[:200]


def test_a_choice_that_names_its_own_subject_after_figures_is_a_question_of_its_own(
    assistant: Assistant,
) -> None:
    """ "那 Slurm 和 K8s 怎么选" after buy, lease and cloud were costed asks about schedulers: not the costs again."""
    *_, answer = talk(assistant, "32张H100用3年 买 租 还是上云 7x24跑", "那 Slurm 和 K8s 怎么选")
    assert "tco" not in tools(answer), answer.answer[:200]


@pytest.mark.parametrize(
    ("first", "then", "says"),
    [
        (
            "we pretrain a 7B on 32 H100s and measure about 22% MFU. is that normal or should we worry?",
            "ok, how do we find out where the time is going?",
            r"(?i)profil",
        ),
        (
            "32 张 A100 训 7B，MFU 只有 22% 左右，这正常吗？",
            "具体怎么排查，用什么工具",
            r"profil|Nsight|瓶颈|剖析|分析",
        ),
    ],
)
def test_how_to_find_the_cause_after_a_judgement_is_a_follow_up(
    assistant: Assistant, first: str, then: str, says: str
) -> None:
    """How to find the cause, asked with none of the domain's words right after a measured figure was judged, is
    about that figure: answered from the guidance on finding where the time goes, never refused as off-topic
    (k12: "how do we actually find where the time is going?" after a 25% MFU was judged got the scope refusal)."""
    _, second = talk(assistant, first, then)
    assert second.citations, second.answer[:300]
    assert re.search(says, second.answer), second.answer[:600]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("910B 和 H20 二选一，主要做 70B 全参微调，怎么看？", "那迁到昇腾的坑主要在哪，多久能跑起来"),
        ("thinking about moving our training to Ascend 910B, is that realistic?", "how long would it take us to port our code and get it running?"),
    ],
)  # fmt: skip
def test_how_long_a_port_takes_is_not_a_training_time(assistant: Assistant, first: str, then: str) -> None:
    """ "多久能跑起来" after a question on Ascend asks how long the migration takes people, not a run's hours: no
    question back about the samples and epochs to fine-tune on (k12)."""
    _, second = talk(assistant, first, then)
    assert not second.tool_calls, [c.name for c in second.tool_calls]
    assert second.citations, second.answer[:300]
    assert not re.search(r"epoch|样本条数|多少数据", second.answer[:300]), second.answer[:300]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        (
            "we pretrain a 34B on 128 H100s and checkpoint every 2 hours. how big are the checkpoints and what storage do we need?",
            "could we get by with one big NFS box instead? we have one already",
        ),
        ("34B 预训练 128 张 H100，每两小时存一次 checkpoint，要多大存储、什么样的存储？", "用现有的 NFS 代替行不行"),
    ],
)  # fmt: skip
def test_another_way_proposed_instead_is_judged_for_the_question_before(
    assistant: Assistant, first: str, then: str
) -> None:
    """ "could we get away with X instead?" after storage was sized proposes another storage for the same job: the
    guidance on shared storage answers, not a passage that merely shares the word "server" (k12)."""
    _, second = talk(assistant, first, then)
    lead = second.answer.split("\n\n")[0]
    assert re.search(r"(?i)parallel file system|Lustre|NFS|NAS|并行文件系统|对象存储", lead), lead[:300]


@pytest.mark.parametrize(
    "message",
    [
        "we run 4 A100 nodes today and will add 4 H200 nodes next year. could we run one big training job across all 8 nodes?",
        "有 4 台 A100，明年再加 4 台 H200，能不能一个训练任务同时用上这 8 台？",
    ],
)
def test_one_job_across_two_generations_is_the_guidance_on_mixing(assistant: Assistant, message: str) -> None:
    """One synchronous job across two GPU generations runs at the slower one's pace: the section on mixing
    generations leads ("one big training job across all 8 nodes" was read as a question on scalability, k12)."""
    (answer,) = talk(assistant, message)
    lead = answer.answer.split("\n\n")[0]
    assert re.search(r"(?i)slowest|slower|最慢|同步", lead), lead[:300]


def test_a_failure_rate_judged_is_answered_by_failure_rates_not_by_what_else_is_normal(
    assistant: Assistant,
) -> None:
    """'千卡集群一两天坏一次，正常吗' is answered by how often large runs fail (Llama 3: 419 unexpected interruptions
    in 54 days on 16,384 H100s), not by the section on GPU temperatures that once said what is 'normal'."""
    (answer,) = talk(
        assistant, "刚上了一个千卡左右的 H800 集群，大概一两天就有一次任务因为硬件挂掉，这正常吗？"
    )
    lead = answer.answer.split("\n\n")[0]
    assert "温度" not in lead[:80], lead[:300]
    assert re.search(r"中断|故障|坏", lead), lead[:300]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("what's the practical difference between InfiniBand and RoCE for a training cluster?", "ok which would you pick then?"),
        ("训练集群用 InfiniBand 和 RoCE 实际差别在哪？", "那你会选哪个"),
    ],
)  # fmt: skip
def test_which_would_you_pick_after_the_guidance_weighed_options_is_answered(
    assistant: Assistant, first: str, then: str
) -> None:
    """ "which would you pick then?" after the guidance weighed two options (no figures computed) asks for the
    choice between them: answered from that guidance, never refused as off-topic (k13)."""
    _, second = talk(assistant, first, then)
    assert "out_of_scope" not in second.notes, second.answer[:200]
    assert second.citations, second.answer[:200]
    assert re.search(r"InfiniBand|RoCE", second.answer.split("\n\n")[0]), second.answer[:300]
