"""Does the right section lead? The first turns of the knowledge-only held-out sets, each asked through
``Assistant.ask``, against the sections that helpers who read only the knowledge articles chose to lead it.

    python benchmarks/leads.py [--limit N] [--rows rows.json]

The labels are tests/data/fresh/leads.yaml: for each first turn of k1-k8, up to three sections a reader
would accept as the answer's lead, named by article and English heading (a Chinese answer's section counts
as its English twin, which stands at the same place in the article). An answer's lead is its first citation.

It reports, for the turns answered from the guidance alone (no calculator ran), how often the lead is one
of the accepted sections and how often one of them is among the six passages retrieved, for all of them
and for k1-k5 (the sets earlier sessions fixed classes from) against k6-k8 (written after): a change that
helps only the first group fits the questions rather than the users. Turns a calculator answered are
counted apart: their labels name text, while a spec table or a sizing may answer them as well.

Not a test, and not a score to tune to: a measure of one stage (which passage leads), read beside the
scored held-out sets. Uses ADVISOR_DATA_DIR's index when set, else builds one in a scratch folder.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import yaml

from assistant.settings import ConversationSettings, Settings
from assistant.wiring import build_assistant, ingest, open_index

REPO = Path(__file__).resolve().parents[1]
FRESH = REPO / "tests" / "data" / "fresh"
CORPUS = REPO / "knowledge" / "corpus"
EARLIER = {"k1", "k2", "k3", "k4", "k5"}  # the sets whose classes earlier sessions fixed


@dataclass
class Row:
    id: str
    language: str
    user: str
    accepted: list[str]
    lead: str  # the answer's first citation as "<article>: <English heading>", or "catalog", or "" for none
    tools: list[str]
    retrieved: list[str]  # the six passages the question's route retrieves, named the same way

    @property
    def right(self) -> bool:
        return self.lead in self.accepted

    @property
    def found(self) -> bool:
        return bool(set(self.retrieved) & set(self.accepted))


def section_names() -> dict[tuple[str, str], str]:
    """(doc id, heading) of every section in both languages -> its name in the labels: the English
    article and heading at the same place ("zh/faq", "华为昇腾集群的网络怎么搭？" -> "faq: How are…")."""
    english: dict[tuple[str, int], str] = {}
    places: dict[tuple[str, str], tuple[str, int]] = {}
    for language in ("en", "zh"):
        for path in sorted((CORPUS / language).glob("*.md")):
            place = 0
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.startswith("# ") and place == 0:
                    heading = line[2:].strip()
                elif line.startswith("## "):
                    place += 1
                    heading = line[3:].strip()
                else:
                    continue
                places[(f"{language}/{path.stem}", heading)] = (path.stem, place)
                if language == "en":
                    english[(path.stem, place)] = f"{path.stem}: {heading}"
    return {key: english.get(place, f"{key[0]}: {key[1]}") for key, place in places.items()}


def labelled_turns() -> list[tuple[str, str, str, list[str]]]:
    """(id, language, message, accepted sections) of every labelled first turn that text answers."""
    labels = yaml.safe_load((FRESH / "leads.yaml").read_text(encoding="utf-8"))["questions"]
    messages: dict[str, tuple[str, str]] = {}
    for path in sorted(FRESH.glob("k*.yaml")):
        if ".scored." in path.name:
            continue
        for conversation in yaml.safe_load(path.read_text(encoding="utf-8"))["conversations"]:
            first = conversation["turns"][0]["user"]
            messages[f"{path.stem}/{conversation['id']}"] = (
                conversation["language"],
                " ".join(first.split()),
            )
    turns = []
    for label in labels:
        if label["lead"] in (["calc"], ["none"]):
            continue
        language, message = messages[label["id"]]
        turns.append((label["id"], language, message, label["lead"]))
    return turns


def measure(limit: int | None) -> list[Row]:
    data_dir = os.environ.get("ADVISOR_DATA_DIR")
    scratch = Path(tempfile.mkdtemp(prefix="advisor-leads-"))
    settings = Settings(
        _env_file=None,
        data_dir=Path(data_dir) if data_dir else scratch / "data",
        conversations=ConversationSettings(path=scratch / "conversations.db"),
    )
    if open_index(settings).count() == 0:
        print(f"indexing knowledge/ into {settings.data_dir} ...", file=sys.stderr)
        ingest(settings)
    assistant = build_assistant(settings)
    names = section_names()

    def name(doc_id: str, section: str) -> str:
        return (
            "catalog"
            if doc_id.startswith("catalog/")
            else names.get((doc_id, section), f"{doc_id}: {section}")
        )

    accepted_names = set(names.values())
    rows = []
    for number, (turn_id, language, message, accepted) in enumerate(labelled_turns()[:limit], 1):
        unknown = [a for a in accepted if a not in accepted_names]
        if unknown:
            print(
                f"{turn_id}: the labels name sections no longer in the articles: {unknown}", file=sys.stderr
            )
        answer = assistant.ask(message)
        route = assistant.router.route(message)
        retrieved = assistant.retriever.search(route.query, k=6, prefer_language=route.language)
        rows.append(
            Row(
                id=turn_id,
                language=language,
                user=message,
                accepted=accepted,
                lead=name(answer.citations[0].doc_id, answer.citations[0].section)
                if answer.citations
                else "",
                tools=[call.name for call in answer.tool_calls],
                retrieved=[name(p.doc_id, p.section) for p in retrieved],
            )
        )
        if number % 50 == 0:
            print(f"{number} questions asked", file=sys.stderr)
    return rows


def share(rows: list[Row], test: str) -> str:
    hits = sum(getattr(row, test) for row in rows)
    return f"{hits}/{len(rows)} ({hits / len(rows):.1%})" if rows else "-"


def report(rows: list[Row]) -> str:
    lines = [
        "| turns | answered from the guidance | right section leads | an accepted section retrieved (top 6) "
        "| a calculator answered | of those, an accepted section leads | a catalog entry leads |",
        "|---|---|---|---|---|---|---|",
    ]
    groups = {
        "all": rows,
        "k1-k5 (earlier)": [r for r in rows if r.id.split("/")[0] in EARLIER],
        "k6-k8 (later)": [r for r in rows if r.id.split("/")[0] not in EARLIER],
        **{f"language {lang}": [r for r in rows if r.language == lang] for lang in ("en", "zh", "mixed")},
    }
    for label, group in groups.items():
        text = [r for r in group if not r.tools]
        tools = [r for r in group if r.tools]
        catalog = sum(r.lead == "catalog" for r in tools)
        lines.append(
            f"| {label} | {len(text)} | {share(text, 'right')} | {share(text, 'found')} | {len(tools)} "
            f"| {share(tools, 'right')} | {catalog} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, default=None, help="ask only the first N labelled turns")
    parser.add_argument(
        "--rows", type=Path, default=None, help="write every turn's lead and labels to this JSON"
    )
    args = parser.parse_args()
    rows = measure(args.limit)
    if args.rows:
        body = [{**asdict(r), "right": r.right, "found": r.found} for r in rows]
        args.rows.write_text(json.dumps(body, ensure_ascii=False, indent=1), encoding="utf-8")
    print(report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
