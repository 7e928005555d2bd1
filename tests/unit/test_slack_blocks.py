"""Answers as Slack Block Kit messages (api/slack/blocks.py), their mrkdwn (mrkdwn.py) and the sizing form (form.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.slack.blocks import (
    ACTION_FEEDBACK_DOWN,
    ACTION_FEEDBACK_UP,
    SlackMessage,
    answer_messages,
    feedback_value,
    friendly_error,
    parse_feedback_value,
    source_url,
)
from api.slack.form import (
    BUDGET_BLOCK,
    DEADLINE_BLOCK,
    GPU_BLOCK,
    GPU_COUNT_BLOCK,
    MODEL_SIZE_BLOCK,
    SIZING_CALLBACK_ID,
    TOKENS_BLOCK,
    sizing_modal,
    sizing_request,
)
from api.slack.mrkdwn import to_mrkdwn
from assistant.composer.template import TemplateComposer
from assistant.models import Answer, Calculation, CalculationRow, Citation, ToolCall
from assistant.router import Router
from assistant.slots import SlotExtractor
from assistant.toolbox import ToolBox
from knowledge.catalog import default_catalog
from knowledge.names import NameIndex
from tests.helpers import REPO

FIXTURES = REPO / "tests" / "data" / "slack"
ZWSP = "\u200b"
# the links to_mrkdwn produces; everything else must be inert text
OUR_LINK = re.compile(r"<(?:https?://|mailto:)[^<>|\s]+(?:\|[^<>]*)?>")


def fixture(name: str) -> Answer:
    """A real answer of `advisor ask --json` (template composer, packaged knowledge base).

    Regenerate after the composer changes, e.g.
    ``advisor ask --json "What is the memory bandwidth of MI300X?" > tests/data/slack/spec_lookup_en.json``
    (the other two: "How many H100s to train a 70B model on 2T tokens in 30 days?" and
    "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？").
    """
    return Answer.model_validate_json((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def all_blocks(messages: list[SlackMessage]) -> list[dict[str, Any]]:
    return [block for message in messages for block in message["blocks"]]


def section_texts(messages: list[SlackMessage]) -> list[str]:
    return [b["text"]["text"] for b in all_blocks(messages) if b["type"] == "section" and "text" in b]


def field_texts(messages: list[SlackMessage]) -> list[str]:
    return [f["text"] for b in all_blocks(messages) for f in b.get("fields", [])]


def context_texts(messages: list[SlackMessage]) -> list[str]:
    return [e["text"] for b in all_blocks(messages) if b["type"] == "context" for e in b["elements"]]


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text.replace(ZWSP, ""))


def assert_within_slack_limits(messages: list[SlackMessage]) -> None:
    assert messages
    for message in messages:
        assert 0 < len(message["text"]) <= 3000
        assert 0 < len(message["blocks"]) <= 50
        for block in message["blocks"]:
            if block["type"] == "section":
                assert "text" in block or block.get("fields")
                if "text" in block:
                    assert len(block["text"]["text"].strip()) > 0
                    assert len(block["text"]["text"]) <= 3000
                assert len(block.get("fields", [])) <= 10
                assert all(
                    len(f["text"].strip()) > 0 and len(f["text"]) <= 2000 for f in block.get("fields", [])
                )
            elif block["type"] == "context":
                assert 0 < len(block["elements"]) <= 10
                assert all(0 < len(e["text"].strip()) <= 3000 for e in block["elements"])
    json.dumps(messages)  # plain JSON, ready for chat.postMessage


# --- mrkdwn ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("a **bold** word", "a *bold* word"),
        ("a __bold__ word", "a *bold* word"),
        ("an *emphasised* word", "an _emphasised_ word"),
        ("an _emphasised_ word", "an _emphasised_ word"),
        ("a ~~struck~~ word", "a ~struck~ word"),
        (
            "see [the docs](https://example.com/a?b=1&c=2) now",
            "see <https://example.com/a?b=1&amp;c=2|the docs> now",
        ),
        ("see <https://example.com/x> now", "see <https://example.com/x> now"),
        ("see https://example.com/x.", "see <https://example.com/x>."),
        ("# Title with **bold**", "*Title with bold*"),
        ("### Storage", "*Storage*"),
        ("Title\n===", "*Title*"),
        ("- one\n* two\n+ three", "• one\n• two\n• three"),
        ("- outer\n  - inner", "• outer\n  • inner"),
        ("1. first\n2. second\n10) tenth", "1. first\n2. second\n10) tenth"),
        ("run `a < b && c`", "run `a &lt; b &amp;&amp; c`"),
        ("```python\nx = '**no** <b>'\n\ny = 1\n```", "```\nx = '**no** &lt;b&gt;'\n\ny = 1\n```"),
        ("figures [1] and [2, 3] stay", "figures [1] and [2, 3] stay"),
        ("> quoted **x**", "> quoted *x*"),
        ("snake_case_name and 6 * 70B * 2T", "snake_case_name and 6 * 70B * 2T"),
        ("a\\*literal\\* star", "a*literal* star"),
        ("R&D <costs> > 5", "R&amp;D &lt;costs&gt; &gt; 5"),
    ],
)
def test_markdown_becomes_mrkdwn(markdown: str, expected: str) -> None:
    assert to_mrkdwn(markdown) == expected


@pytest.mark.parametrize(
    "payload",
    [
        "<script>alert(1)</script>",
        "<!channel>",
        "<!here|here>",
        "<@U024BE7LH>",
        "<#C024BE7LR>",
        "<https://evil.example|click me>",
        "[click](javascript:alert(1))",
        "[ping everyone](!channel)",
        "`<!channel>`",
        "\n```\n<!everyone>\n```\n",
    ],
)
def test_injected_markup_stays_inert(payload: str) -> None:
    out = to_mrkdwn(f"Answer with {payload} inside.")
    assert "<!" not in out
    assert "<@" not in out
    assert "<#" not in out
    assert "<script" not in out
    assert "javascript:" not in "".join(OUR_LINK.findall(out))
    assert "evil.example|" not in out  # a raw Slack link in the text is shown, not followed
    assert "inside." in out


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*"ab 中文*_~`[]()<>&|#-!@\n:/.\\", "http://x.y", "**", "```", "&amp;"])).map(
        "".join
    )
)
def test_only_our_links_reach_slack_unescaped(text: str) -> None:
    out = OUR_LINK.sub("", to_mrkdwn(text))
    out = re.sub(r"(?m)^> ", "", out)  # block quotes are the one '>' Slack must see
    assert "<" not in out
    assert ">" not in out
    assert not re.search(r"&(?!amp;|lt;|gt;)", out)


def test_chinese_text_is_kept_intact() -> None:
    text = "在 256 张 H100 上训练 34B 模型约需 31.1 天（区间 28-40 天），共 190,900 GPU 小时。"
    assert to_mrkdwn(text) == text
    bold = to_mrkdwn("约需 **31.1 天**（区间）和中文**强调**文字")
    # Slack only sees * next to a boundary, so an invisible one separates it from CJK characters
    assert bold == f"约需 *31.1 天*{ZWSP}（区间）和中文{ZWSP}*强调*{ZWSP}文字"
    assert bold.replace(ZWSP, "").replace("*", "") == "约需 31.1 天（区间）和中文强调文字"


def test_two_column_tables_become_label_lines() -> None:
    markdown = "Before.\n\n| Item | Value |\n|---|---|\n| Model | 70B |\n| Price | $1 \\| $2 |\n\nAfter."
    assert to_mrkdwn(markdown) == "Before.\n\n*Model*: 70B\n*Price*: $1 | $2\n\nAfter."
    headed = to_mrkdwn("| GPU | Memory |\n|:--|--:|\n| H100 | 80 GB |")
    assert headed == "*GPU*: *Memory*\n*H100*: 80 GB"


def test_wide_tables_become_aligned_code_blocks() -> None:
    out = to_mrkdwn(
        "| GPU | Memory | Note |\n|---|---|---|\n| H100 | 80 GB | **fast** <b> |\n| 中文卡 | 96 GB | x |\n"
        "| <A&B> | 1 GB | y |"
    )
    lines = out.split("\n")
    assert lines[0] == lines[-1] == "```"
    assert lines[1] == "GPU     Memory  Note"
    assert lines[3] == "H100    80 GB   fast &lt;b&gt;"
    assert lines[4] == "中文卡  96 GB   x"  # two columns per CJK character
    assert lines[5] == "&lt;A&amp;B&gt;   1 GB    y"  # aligned as Slack shows it: '&lt;' is one character


# --- answers --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["gpus_for_deadline_en", "training_compute_zh", "spec_lookup_en"])
def test_real_answers_fit_slack(name: str) -> None:
    answer = fixture(name)
    messages = answer_messages(answer, sources_base_url="http://127.0.0.1:8000")
    assert_within_slack_limits(messages)
    assert len(messages) == 1
    blocks = messages[0]["blocks"]
    assert blocks[-1]["type"] == "actions"
    assert [c["type"] for c in blocks[-1]["elements"]] == ["button", "button"]
    # every citation is linked, in order
    links = [t for t in context_texts(messages) if t.startswith("<http")]
    assert [re.search(r"\|\[(\d+)\]", t).group(1) for t in links] == [str(c.id) for c in answer.citations]  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["gpus_for_deadline_en", "training_compute_zh"])
def test_calculations_are_fields_and_never_shown_twice(name: str) -> None:
    answer = fixture(name)
    assert answer.calculations
    for calculation in answer.calculations:  # the fixture is what the composer writes today
        assert calculation.table
        assert calculation.table in answer.answer
    messages = answer_messages(answer)
    body = "\n".join(section_texts(messages))
    fields = field_texts(messages)
    assert "|---|" not in body
    assert "| " not in body
    rows = [row for c in answer.calculations for row in c.rows]
    assert fields == [f"*{row.label}*\n{row.value}" for row in rows]
    for row in rows:
        assert f"*{row.label}*:" not in body
    # the answer's first sentence leads; each calculation's title and fields stand where its table stood
    blocks = all_blocks(messages)
    lead = to_mrkdwn(answer.answer.split("\n\n")[0])
    assert blocks[0]["text"]["text"] == lead
    assert body.count(lead) == 1
    titled = [b for b in blocks if b.get("fields") and "text" in b]
    assert [b["text"]["text"] for b in titled] == [f"*{c.title}*" for c in answer.calculations]
    assumptions = "*Assumptions*" if answer.language == "en" else "*假设*"
    assert assumptions in body
    assert body.index(lead) < body.index(assumptions)


def test_chinese_answers_label_their_fields_in_chinese() -> None:
    answer = fixture("training_compute_zh")
    messages = answer_messages(answer)
    titles = [b["text"]["text"] for b in all_blocks(messages) if b.get("fields") and "text" in b]
    assert titles == ["*训练算力与时间*"]
    labels = [text.split("\n")[0] for text in field_texts(messages)]
    assert "*训练天数*" in labels
    assert "*GPU 小时*" in labels
    # words in the reader's language, never a field name such as days.expected or gpu_hours
    assert not [label for label in labels if re.search(r"[a-z]+[._][a-z]+", label)]


@pytest.mark.parametrize(
    "question",
    [
        "How much storage does training a 70B model on 2T tokens need?",
        "8卡H100一年电费多少？",
        "What is the 3-year TCO of 64 H100s?",
        "Does a 13B full fine-tune fit on 8x A100 80GB with ZeRO-2?",
        "Compare H100 vs MI300X",
        "Which GPUs for a 34B model in 30 days with a $2M budget?",
        "How much host RAM does an 8-GPU H100 server need?",
        "How long does one all-reduce take for a 70B model on 128 H100s?",
        "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？",
        "部署Llama 3 70B，32路并发，8张H100显存够吗？",
        "How long does it take to train a 70B model on 2T tokens with 256 H100 GPUs within 30 days, and what "
        "will it cost with a budget of $2,000,000?",
        "用1024张H100训练一个70B模型、2T token，要多少天？要求30天内完成，预算500万美元，要花多少钱？",
        "70B要多少显存",  # one table of every job's memory: the cards follow the first paragraph
    ],
)
def test_every_calculator_table_moves_into_fields(question: str) -> None:
    catalog = default_catalog()
    route = Router(extractor=SlotExtractor(NameIndex(catalog))).route(question)
    run = ToolBox(catalog=catalog).run_for(route.tools, route.slots)
    assert run.calls, route
    draft = TemplateComposer().compose(route, [], run)
    answer = Answer(
        conversation_id="c1",
        message_id="m1",
        language=route.language,
        answer=draft.answer,
        tool_calls=draft.tool_calls,
        follow_ups=draft.follow_ups,
        calculations=draft.calculations,
    )
    assert len(answer.calculations) == len(answer.tool_calls)
    messages = answer_messages(answer)
    assert_within_slack_limits(messages)
    body = "\n".join(section_texts(messages))
    fields = field_texts(messages)
    titles = [b["text"]["text"] for b in all_blocks(messages) if b.get("fields") and "text" in b]
    assert titles == [f"*{c.title}*" for c in answer.calculations if c.rows]
    for calculation in answer.calculations:
        for row in calculation.rows:
            assert fields.count(f"*{row.label}*\n{row.value}") >= 1
        if calculation.table:
            assert calculation.table in draft.answer
    assert "|---|" not in body or any(c.table is None for c in answer.calculations)
    # the answer's first sentence (the headlines and verdicts) leads, in the body
    assert all_blocks(messages)[0]["text"]["text"] == to_mrkdwn(draft.answer.split("\n\n")[0])


def test_llm_answers_keep_their_prose_first() -> None:
    # the LLM composer writes its own prose, then appends the template's tables (composer/llm.py)
    template = fixture("gpus_for_deadline_en")
    prose = "You need about **824 H100 GPUs** for this run [1]; plan for 103 servers."
    tabled = [c.table for c in template.calculations if c.table]
    answer = template.model_copy(update={"answer": "\n\n".join([prose, *tabled])})
    messages = answer_messages(answer)
    first, second = all_blocks(messages)[:2]
    assert first["text"]["text"] == "You need about *824 H100 GPUs* for this run [1]; plan for 103 servers."
    assert "fields" not in first
    assert second["text"]["text"] == f"*{template.calculations[0].title}*"
    assert len(second["fields"]) == len(template.calculations[0].rows)
    assert "|" not in "".join(section_texts(messages))


def test_other_tables_stay_readable() -> None:
    call = ToolCall(name="unknown_tool", input={}, output={"verdict": "It fits."})
    markdown = "It fits.\n\n| GPU | Memory | Bandwidth |\n|---|---|---|\n| H100 | 80 GB | 3.35 TB/s |"
    answer = Answer(conversation_id="c", message_id="m", language="en", answer=markdown, tool_calls=[call])
    body = "\n".join(section_texts(answer_messages(answer)))
    assert body.count("It fits.") == 1
    assert "H100  80 GB   3.35 TB/s" in body


def test_a_long_answer_becomes_several_messages_with_nothing_lost() -> None:
    zh = "大模型训练需要大量显存与高速互联，检查点写入带宽决定了恢复时间。"
    en = "Training large models needs plenty of GPU memory & fast links; checkpoints set <recovery> time. "
    paragraphs = [f"{n}: " + (zh * (n % 7 + 1) + en * (n % 5)) for n in range(80)]
    paragraphs[10] = zh * 150  # one paragraph of 4,800 characters with no space at all
    paragraphs[20] = "- " + "\n- ".join(en.strip() for _ in range(60))  # a long list
    markdown = "\n\n".join(paragraphs)
    assert len(markdown) > 20_000
    answer = Answer(
        conversation_id="c", message_id="m", language="zh", answer=markdown, follow_ups=["下一步？"]
    )
    messages = answer_messages(answer)
    assert_within_slack_limits(messages)
    assert len(messages) >= 2
    assert squash("".join(section_texts(messages))) == squash(to_mrkdwn(markdown))
    buttons = [b for b in all_blocks(messages) if b["type"] == "actions"]
    assert len(buttons) == 1
    assert messages[-1]["blocks"][-1] is buttons[0]
    assert messages[0]["text"].startswith("0: 大模型训练")


def test_a_long_code_block_is_closed_and_reopened() -> None:
    code = "\n".join(f"step {n}: loss = {n / 7:.6f}  # <ok> & fine" for n in range(400))
    answer = Answer(
        conversation_id="c", message_id="m", language="en", answer=f"Log:\n\n```\n{code}\n```\n\nDone."
    )
    messages = answer_messages(answer)
    assert_within_slack_limits(messages)
    texts = section_texts(messages)
    assert len(texts) > 3
    for text in texts:
        assert sum(line.startswith("```") for line in text.split("\n")) % 2 == 0
    assert squash("".join(texts).replace("```", "")) == squash(to_mrkdwn(answer.answer).replace("```", ""))


def test_citations_link_to_the_source_or_its_page() -> None:
    citations = [
        Citation(
            id=n, title=f"Doc <{n}> & co", source="s", url="", section="", snippet="", doc_id=f"en/doc {n}"
        )
        for n in range(1, 24)
    ]
    citations[0] = citations[0].model_copy(update={"url": "https://arxiv.org/abs/2001.08361"})
    answer = Answer(
        conversation_id="c", message_id="m", language="en", answer="See [1].", citations=citations
    )
    messages = answer_messages(answer, sources_base_url="https://advisor.example/")
    assert_within_slack_limits(messages)
    contexts = [b for b in all_blocks(messages) if b["type"] == "context"]
    assert [len(b["elements"]) for b in contexts] == [10, 10, 3]
    texts = context_texts(messages)
    assert texts[0] == "<https://arxiv.org/abs/2001.08361|[1] Doc &lt;1&gt; &amp; co>"
    assert texts[1] == "<https://advisor.example/v1/sources/en/doc%202|[2] Doc &lt;2&gt; &amp; co>"
    assert len(texts) == 23
    without_base = context_texts(answer_messages(answer))
    assert without_base[1] == "[2] Doc &lt;2&gt; &amp; co"


def test_source_url() -> None:
    assert source_url("http://127.0.0.1:8000/", "catalog/accelerators/mi300x") == (
        "http://127.0.0.1:8000/v1/sources/catalog/accelerators/mi300x"
    )
    assert (
        source_url("https://a.example", "uploads/my file?.md")
        == "https://a.example/v1/sources/uploads/my%20file%3F.md"
    )
    assert source_url(None, "en/storage") == ""


def test_follow_ups_and_feedback_follow_the_language() -> None:
    zh = answer_messages(fixture("training_compute_zh"))
    assert "*可以接着问：* 换成H200呢？ · 每张卡需要多少显存？ · 上云要花多少钱？" in context_texts(zh)
    actions = all_blocks(zh)[-1]
    assert [e["text"]["text"] for e in actions["elements"]] == ["👍 有帮助", "👎 没帮助"]
    assert [e["action_id"] for e in actions["elements"]] == [ACTION_FEEDBACK_UP, ACTION_FEEDBACK_DOWN]
    assert all(e["accessibility_label"] for e in actions["elements"])
    en = fixture("gpus_for_deadline_en")
    actions = all_blocks(answer_messages(en))[-1]
    assert [e["text"]["text"] for e in actions["elements"]] == ["👍 Helpful", "👎 Not helpful"]
    assert {parse_feedback_value(e["value"]) for e in actions["elements"]} == {
        (en.conversation_id, en.message_id)
    }
    assert not [b for b in all_blocks(answer_messages(en, feedback=False)) if b["type"] == "actions"]


def test_many_calculation_rows_split_into_sections_of_ten() -> None:
    rows = [
        CalculationRow(label=f"GPU {n}", value="80 GB HBM3" + "e" * (3000 if n == 4 else 0), kind="result")
        for n in range(23)
    ]
    compared = Calculation(tool="gpu_compare", title="GPU comparison", headline="Compared.", rows=rows)
    answer = Answer(
        conversation_id="c", message_id="m", language="en", answer="Compared.", calculations=[compared]
    )
    messages = answer_messages(answer)
    assert_within_slack_limits(messages)
    fields = field_texts(messages)
    assert sum(text.startswith("*GPU ") for text in fields) == 23
    assert squash("".join(fields)).count("HBM3" + "e" * 3000) == 1  # the long value is split, not cut
    sections = [b for b in all_blocks(messages) if b.get("fields")]
    assert all(len(b["fields"]) <= 10 for b in sections)
    assert len(sections) >= 3


def test_a_message_never_holds_more_than_fifty_blocks() -> None:
    calculations = [
        Calculation(
            tool="custom",
            title=f"Result {n}",
            headline=f"Result {n}.",
            rows=[CalculationRow(label="n", value=str(n), kind="result")],
        )
        for n in range(120)
    ]
    answer = Answer(
        conversation_id="c", message_id="m", language="en", answer="Results.", calculations=calculations
    )
    messages = answer_messages(answer)
    assert_within_slack_limits(messages)
    assert [len(m["blocks"]) for m in messages] == [50, 50, 22]  # 121 sections and the buttons
    assert section_texts(messages) == ["Results.", *(f"*Result {n}*" for n in range(120))]
    assert messages[-1]["blocks"][-1]["type"] == "actions"


def test_an_empty_answer_still_renders() -> None:
    messages = answer_messages(Answer(conversation_id="c", message_id="m", language="en", answer="  "))
    assert_within_slack_limits(messages)
    assert messages[0]["blocks"][0]["type"] == "section"


# --- feedback values and errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("conversation_id", "message_id"),
    [("slack:T1:C1:1712345678.000100", "b06784b39d9c4e789f96798cf8d794e5"), ('会话|"}', "消息")],
)
def test_feedback_value_round_trips(conversation_id: str, message_id: str) -> None:
    value = feedback_value(conversation_id, message_id)
    assert len(value) <= 2000
    assert parse_feedback_value(value) == (conversation_id, message_id)


@pytest.mark.parametrize(
    "value",
    ["", "not json", "[]", "null", '{"c":"a"}', '{"c":"a","m":1}', '{"c":"","m":"x"}', '{"c":"a","m":"b","x":1}',
     "[" * 1999, '{"c":"' + "a" * 2000 + '","m":"b"}'],
)  # fmt: skip
def test_malformed_feedback_values_raise(value: str) -> None:
    with pytest.raises(ValueError, match="feedback value"):
        parse_feedback_value(value)


def test_feedback_value_refuses_what_slack_cannot_carry() -> None:
    with pytest.raises(ValueError, match="button value"):
        feedback_value("c" * 2000, "m")
    with pytest.raises(ValueError, match="non-empty"):
        feedback_value("", "m")


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Sorry, something went wrong answering that; please try again in a minute."),
        ("zh", "抱歉，回答这个问题时出了点问题，请过一会儿再试。"),
    ],
)
def test_friendly_error(language: Any, sentence: str) -> None:
    message = friendly_error(language)
    assert message["text"] == sentence
    assert message["blocks"] == [
        {"type": "section", "text": {"type": "mrkdwn", "text": sentence, "verbatim": True}}
    ]


# --- the sizing form ------------------------------------------------------------------------------

INPUTS = [MODEL_SIZE_BLOCK, TOKENS_BLOCK, GPU_BLOCK, GPU_COUNT_BLOCK, DEADLINE_BLOCK, BUDGET_BLOCK]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_sizing_modal_structure(language: Any) -> None:
    view = sizing_modal(language, private_metadata='{"channel":"C1"}')
    assert view["type"] == "modal"
    assert view["callback_id"] == SIZING_CALLBACK_ID
    assert view["private_metadata"] == '{"channel":"C1"}'
    for key in ("title", "submit", "close"):
        assert view[key]["type"] == "plain_text"
        assert 0 < len(view[key]["text"]) <= 24
    inputs = [b for b in view["blocks"] if b["type"] == "input"]
    assert [b["block_id"] for b in inputs] == INPUTS
    for block in inputs:
        assert block["label"]["type"] == "plain_text"
        assert 0 < len(block["label"]["text"]) <= 2000
        assert block["element"]["action_id"] == block["block_id"]
        placeholder = block["element"].get("placeholder", {}).get("text", "")
        assert len(placeholder) <= 150
    assert [b["optional"] for b in inputs] == [False, False, True, True, True, True]
    options = [o for g in inputs[2]["element"]["option_groups"] for o in g["options"]]
    assert {o["value"] for o in options} == {a.id for a in default_catalog().accelerators}
    assert all(len(o["text"]["text"]) <= 75 for o in options)
    assert len(options) <= 100
    assert options[0] == {
        "text": {"type": "plain_text", "text": "NVIDIA H100 SXM5 80GB", "emoji": True},
        "value": "h100-sxm",
    }
    json.dumps(view)


def test_sizing_modal_is_fully_translated() -> None:
    def texts(view: dict[str, Any]) -> list[str]:
        for block in view["blocks"]:
            block.get("element", {}).pop("option_groups", None)  # catalog names are not translated
        return re.findall(r'"text": "([^"]*)"', json.dumps(view, ensure_ascii=False))

    en, zh = texts(sizing_modal("en")), texts(sizing_modal("zh"))
    assert len(en) == len(zh) > 10
    assert all(a != b for a, b in zip(en, zh, strict=True))
    assert all(re.search(r"[\u4e00-\u9fff]", t) for t in zh)
    with pytest.raises(ValueError, match="3,000"):
        sizing_modal(private_metadata="x" * 3001)


def form(
    model: str | None = "70B",
    tokens: str | None = "2T",
    gpu: str | None = None,
    count: str | None = None,
    deadline: str | None = None,
    budget: str | None = None,
) -> dict[str, dict[str, dict[str, Any]]]:
    """view["state"]["values"] as Slack sends it (empty optional inputs have a None value)."""

    def text(block_id: str, kind: str, value: str | None) -> dict[str, dict[str, Any]]:
        return {block_id: {"type": kind, "value": value}}

    option = {"text": {"type": "plain_text", "text": gpu or ""}, "value": gpu} if gpu else None
    return {
        MODEL_SIZE_BLOCK: text(MODEL_SIZE_BLOCK, "plain_text_input", model),
        TOKENS_BLOCK: text(TOKENS_BLOCK, "plain_text_input", tokens),
        GPU_BLOCK: {GPU_BLOCK: {"type": "static_select", "selected_option": option}},
        GPU_COUNT_BLOCK: text(GPU_COUNT_BLOCK, "number_input", count),
        DEADLINE_BLOCK: text(DEADLINE_BLOCK, "number_input", deadline),
        BUDGET_BLOCK: text(BUDGET_BLOCK, "plain_text_input", budget),
    }


@pytest.fixture(scope="module")
def router() -> Router:
    return Router(extractor=SlotExtractor(NameIndex(default_catalog())))


def test_sizing_request_with_every_field(router: Router) -> None:
    message, errors = sizing_request(
        form("70B", "2T", "h100-sxm", "256", "30", "$2,000,000"),
    )
    assert errors == {}
    assert message == (
        "How long does it take to train a 70B model on 2T tokens with 256 NVIDIA H100 SXM5 80GB GPUs "
        "within 30 days, and what will it cost with a budget of $2,000,000?"
    )
    route = router.route(message)
    assert route.stated == {
        "params_b": 70.0, "tokens_b": 2000.0, "gpu": "h100-sxm", "gpu_count": 256, "deadline_days": 30.0,
        "budget": 2_000_000.0, "budget_currency": "USD",
    }  # fmt: skip
    assert route.tools == ["training_compute", "cloud_cost"]


@pytest.mark.parametrize(
    ("fields", "stated", "tools"),
    [
        ({}, {}, ["cluster_plan"]),
        ({"budget": "2M"}, {"budget": 2e6}, ["cluster_plan"]),
        ({"deadline": "30"}, {"deadline_days": 30.0}, ["training_compute", "cluster_plan"]),
        (
            {"gpu": "mi300x", "deadline": "7.5"},
            {"gpu": "mi300x", "deadline_days": 7.5},
            ["gpus_for_deadline"],
        ),
        ({"gpu": "a100-80gb-sxm"}, {"gpu": "a100-80gb-sxm"}, ["training_compute"]),
        (
            {"gpu": "b200", "budget": "500k"},
            {"gpu": "b200", "budget": 5e5},
            ["training_compute", "cloud_cost"],
        ),
        ({"count": "64"}, {"gpu_count": 64}, ["training_compute"]),
        ({"gpu": "h100-sxm", "count": "1"}, {"gpu": "h100-sxm", "gpu_count": 1}, ["training_compute"]),
        ({"model": "Llama 3 70B"}, {"model": "llama-3-70b"}, ["cluster_plan"]),
        ({"model": "34"}, {"params_b": 34.0}, ["cluster_plan"]),  # a bare number is billions
        (
            {"model": "700亿参数", "tokens": "1.5万亿"},
            {"params_b": 70.0, "tokens_b": 1500.0},
            ["cluster_plan"],
        ),
        (
            {"model": "7.5 billion", "tokens": "300B tokens"},
            {"params_b": 7.5, "tokens_b": 300.0},
            ["cluster_plan"],
        ),
        ({"model": "500M", "tokens": "20000000000"}, {"params_b": 0.5, "tokens_b": 20.0}, ["cluster_plan"]),
        (
            {"model": "1.8T", "tokens": "20 trillion"},
            {"params_b": 1800.0, "tokens_b": 20000.0},
            ["cluster_plan"],
        ),
    ],
)
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_router_understands_every_sizing_question(
    router: Router, fields: dict[str, str], stated: dict[str, object], tools: list[str], language: Any
) -> None:
    message, errors = sizing_request(form(**fields), language=language)
    assert errors == {}
    route = router.route(message)
    assert route.language == language  # a Chinese form gets its answer in Chinese
    expected: dict[str, object] = {"params_b": 70.0, "tokens_b": 2000.0}  # the form's defaults
    if "model" in fields:
        expected.pop("params_b")
    if "budget" in stated:
        expected["budget_currency"] = "USD"
    assert {k: v for k, v in route.stated.items() if k != "other_gpus"} == {**expected, **stated}
    assert route.tools == tools
    run = ToolBox(catalog=default_catalog()).run_for(route.tools, route.slots)
    assert not run.errors
    assert [c.name for c in run.calls][: len(tools)] == tools


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("accelerator", [a.id for a in default_catalog().accelerators])
def test_every_gpu_of_the_form_is_understood(router: Router, accelerator: str, language: Any) -> None:
    for count in ("8", None):
        message, errors = sizing_request(form(gpu=accelerator, count=count), language=language)
        assert errors == {}
        route = router.route(message)
        assert route.language == language
        assert route.stated["gpu"] == accelerator
        assert route.stated.get("gpu_count") == (int(count) if count else None)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("model", [m.name for m in default_catalog().models])
def test_every_model_preset_is_understood(router: Router, model: str, language: Any) -> None:
    message, errors = sizing_request(form(model=model, count="256"), language=language)
    assert router.route(message).language == language
    assert errors == {}
    assert router.route(message).stated["model"] == default_catalog().model(model).id


@pytest.mark.parametrize(
    ("fields", "block_id", "error"),
    [
        ({"model": None}, MODEL_SIZE_BLOCK, "Required."),
        ({"model": "seventy"}, MODEL_SIZE_BLOCK, "Enter a size such as 70B"),
        ({"model": "-5B"}, MODEL_SIZE_BLOCK, "Enter a size such as 70B"),
        ({"model": "0"}, MODEL_SIZE_BLOCK, "Enter a size such as 70B"),
        ({"model": "500T"}, MODEL_SIZE_BLOCK, "Enter a size such as 70B"),
        ({"tokens": ""}, TOKENS_BLOCK, "Required."),
        ({"tokens": "2"}, TOKENS_BLOCK, "with a unit"),
        ({"tokens": "lots"}, TOKENS_BLOCK, "with a unit"),
        ({"gpu": "h100-turbo"}, GPU_BLOCK, "Choose a GPU"),
        ({"count": "abc"}, GPU_COUNT_BLOCK, "whole number"),
        ({"count": "2.5"}, GPU_COUNT_BLOCK, "whole number"),
        ({"count": "0"}, GPU_COUNT_BLOCK, "whole number"),
        ({"deadline": "-3"}, DEADLINE_BLOCK, "greater than 0"),
        ({"deadline": "0"}, DEADLINE_BLOCK, "greater than 0"),
        ({"deadline": "4000"}, DEADLINE_BLOCK, "greater than 0"),
        ({"deadline": "soon"}, DEADLINE_BLOCK, "greater than 0"),
        ({"budget": "-1"}, BUDGET_BLOCK, "US dollars"),
        ({"budget": "two million"}, BUDGET_BLOCK, "US dollars"),
        ({"budget": "¥300万"}, BUDGET_BLOCK, "US dollars"),
    ],
)
def test_sizing_request_reports_invalid_inputs(
    fields: dict[str, str | None], block_id: str, error: str
) -> None:
    message, errors = sizing_request(form(**fields))
    assert message == ""
    assert list(errors) == [block_id]
    assert error in errors[block_id]


def test_sizing_errors_follow_the_form_language() -> None:
    _, errors = sizing_request(form(model="", tokens="2", count="x"), language="zh")
    assert errors == {
        MODEL_SIZE_BLOCK: "必填。",
        TOKENS_BLOCK: "请填写带单位的 token 数，如 2T、500B 或 1.5万亿。",
        GPU_COUNT_BLOCK: "请填写 1 到 1,000,000 之间的整数。",
    }
