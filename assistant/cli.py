"""The ``advisor`` command: serve, ask, ingest, eval, slack, user-token."""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from pydantic import ValidationError
from pydantic_settings import SettingsError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from assistant.errors import AdvisorError, InvalidInput
from assistant.settings import ConversationSettings, DatabaseSettings, Settings, get_settings
from assistant.version import VERSION
from knowledge.indexing import IndexStats

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings

    from assistant.service import Assistant

app = typer.Typer(
    name="advisor",
    help="Choose servers for training large language models: ask questions, index documents, serve the API.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
eval_app = typer.Typer(
    help="Measure the assistant on labelled question sets; with no subcommand, the answer set.",
    invoke_without_command=True,
)
app.add_typer(eval_app, name="eval")

out = Console()
err = Console(stderr=True)


def _quiet_libraries() -> None:
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    for name in ("chromadb", "httpx", "jieba", "sentence_transformers"):
        logging.getLogger(name).setLevel(logging.WARNING)
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # a damaged PDF is reported once, as a file error


def _run_ingest(
    settings: Settings, paths: list[Path] | None, *, rebuild: bool, embeddings: Embeddings | None = None
) -> IndexStats:
    """Index with a progress bar on a terminal, or a line per batch in logs."""
    from assistant.wiring import ingest

    if err.is_terminal:
        with Progress(
            TextColumn("embedding"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err
        ) as progress:
            task = progress.add_task("embed", total=None)
            return ingest(
                settings,
                paths,
                rebuild=rebuild,
                embeddings=embeddings,
                on_start=lambda total: progress.update(task, total=total),
                on_progress=lambda done, total: progress.update(task, completed=done),
                on_sentences=_announce_sentences,
            )
    return ingest(
        settings,
        paths,
        rebuild=rebuild,
        embeddings=embeddings,
        on_start=lambda total: err.print(f"embedding {total} passages"),
        on_progress=lambda done, total: err.print(f"embedded {done}/{total}"),
        on_sentences=_announce_sentences,
    )


def _announce_sentences(count: int) -> None:
    err.print(f"embedding {count:,} sentences that answers are picked from (once; later runs reuse them)")


def _report(stats: IndexStats, console: Console = out) -> None:
    console.print(
        f"indexed {stats.files} files: {stats.added} added, {stats.updated} updated, "
        f"{stats.removed} removed, {stats.unchanged} unchanged"
    )
    for error in stats.errors:
        # one line per file, however long, so logs and scripts can grep it
        err.print(
            f"[red]error[/red]: {escape(f'{error.path}: {error.reason}')}",
            highlight=False,
            markup=True,
            soft_wrap=True,
        )


def _ensure_index(settings: Settings) -> Embeddings | None:
    """Build the index on first use, or complete one that a stopped build left half-made, so no command
    answers from a partial index; the embedding model it loaded, for reuse, or None when there was
    nothing to do. The progress and the summary go to stderr: stdout is the answer."""
    from assistant.providers import load_embeddings
    from assistant.wiring import stored_index_state

    state = stored_index_state(settings)
    if state == "complete":
        return None
    if state == "empty":
        err.print("no index yet: building it from the knowledge base (once; later runs reuse it)")
    else:
        err.print("the index is incomplete (an earlier build stopped): completing it")
    embeddings = load_embeddings(settings.embedding.model, threads=settings.embedding.threads)
    _report(_run_ingest(settings, None, rebuild=False, embeddings=embeddings), console=err)
    return embeddings


def _assistant(settings: Settings) -> Assistant:
    """The assistant over a complete index. The conversation store is opened first, so a bad one fails
    at once rather than after the index is built."""
    from assistant.wiring import build_assistant, limit_blas_threads, open_memory

    limit_blas_threads(settings)
    memory = open_memory(settings)
    return build_assistant(settings, _ensure_index(settings), memory=memory)


def _show_version(value: bool) -> None:
    if value:
        out.print(f"advisor {VERSION}", highlight=False)
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    pass  # the help text is the Typer app's; this callback only adds --version


@app.command()
def ingest(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Extra files or folders to index (Markdown, text, HTML, PDF).", show_default=False
        ),
    ] = None,
    rebuild: Annotated[
        bool, typer.Option("--rebuild", help="Drop the index and embed everything again.")
    ] = False,
) -> None:
    """Index the knowledge base plus any extra files; re-running re-embeds only what changed."""
    stats = _run_ingest(get_settings(), paths, rebuild=rebuild)
    _report(stats)
    if stats.errors:
        raise typer.Exit(1)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, in English or Chinese.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer object as JSON.")] = False,
    conversation: Annotated[
        str | None, typer.Option("--conversation", help="Continue this conversation id.")
    ] = None,
) -> None:
    """Answer one question and print the answer with its citations."""
    answer = _assistant(get_settings()).ask(question, conversation_id=conversation)
    if as_json:
        sys.stdout.write(json.dumps(answer.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n")
        return
    out.print(answer.answer, highlight=False, markup=False)
    if answer.citations:
        out.print()
        for c in answer.citations:
            link = f" <{c.url}>" if c.url else ""
            out.print(f"[{c.id}] {c.title} · {c.section} · {c.source}{link}", highlight=False, markup=False)
    out.print(f"\nconversation: {answer.conversation_id}", style="dim", highlight=False)


def _settings_problems(error: ValidationError) -> str:
    """``ADVISOR_API_KEYS: key 1 of 1 is empty ...``: each problem under its environment variable."""
    problems = []
    for problem in error.errors():
        variable = "ADVISOR_" + "__".join(
            str(part).upper() for part in problem["loc"] if isinstance(part, str)
        )
        problems.append(f"{variable}: {problem['msg'].removeprefix('Value error, ')}")
    return "; ".join(problems)


def _is_loopback(host: str) -> bool:
    """Only this machine can reach ``host`` (an API without keys may listen nowhere else)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@app.command()
def serve(
    host: Annotated[
        str | None, typer.Option(help="Interface to bind (default from settings: 127.0.0.1).")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on (default from settings: 8000).")] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=64,
            help="Processes to answer with, one per core to use (default from settings: 1); each loads the "
            "model and the index (about 0.5 GB).",
        ),
    ] = None,
) -> None:
    """Start the HTTP service, building the index first if there is none."""
    import uvicorn

    from api.app import create_app

    if workers is not None:  # the worker processes read their settings from the environment, as this one
        os.environ["ADVISOR_SERVER__WORKERS"] = str(workers)
        get_settings.cache_clear()
    settings = get_settings()
    host = host or settings.server.host
    if not settings.api_keys and not _is_loopback(host):
        err.print(f"refusing to bind {host}: set ADVISOR_API_KEYS first, or serve on 127.0.0.1")
        raise typer.Exit(2)
    if not settings.api_keys:
        err.print(
            "[bold yellow]warning[/bold yellow]: no API keys (ADVISOR_API_KEYS): the API is open to every "
            f"program on this machine that can reach {host}, document administration included",
            highlight=False,
        )
    if settings.server.workers > 1:
        _serve_workers(settings, host, port or settings.server.port)
        return
    assistant = _assistant(settings)
    served = create_app(settings=settings, assistant=assistant)
    served.state.shared.check()  # a configured Redis that cannot be reached: one line, before uvicorn starts
    uvicorn.run(
        served,
        host=host,
        port=port or settings.server.port,
        log_level="info",
    )


def _serve_workers(settings: Settings, host: str, port: int) -> None:
    """Several processes on one port, each building its own assistant in the app's lifespan (a model and
    an index each; nothing heavy is shared across a fork). What would fail them all fails here first,
    once: a conversation store or Redis that cannot be reached, and a missing index is built here, not
    by each worker at once."""
    import uvicorn

    from api.coordination import Shared
    from assistant.wiring import open_memory

    open_memory(settings).close()
    shared = Shared(settings.redis)
    shared.check()
    shared.close()
    _ensure_index(settings)
    err.print(f"serving with {settings.server.workers} worker processes", highlight=False)
    uvicorn.run(
        "api.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=settings.server.workers,
        log_level="info",
    )


@app.command()
def slack() -> None:
    """Run the Slack bot over Socket Mode, for workspaces that cannot reach this machine (no public URL).

    Needs ADVISOR_SLACK__BOT_TOKEN (xoxb-...) and ADVISOR_SLACK__APP_TOKEN (xapp-..., with the
    connections:write scope) and Socket Mode turned on in the app's settings.
    """
    settings = get_settings()
    missing = [
        name
        for name, value in (
            ("ADVISOR_SLACK__BOT_TOKEN", settings.slack.bot_token),
            ("ADVISOR_SLACK__APP_TOKEN", settings.slack.app_token),
        )
        if value is None
    ]
    if missing:
        err.print(
            f"Socket Mode needs {' and '.join(missing)}; see the Slack section of the README "
            "(or serve HTTP mode with `advisor serve` and ADVISOR_SLACK__SIGNING_SECRET)",
            highlight=False,
            markup=False,
        )
        raise typer.Exit(2)
    from api.slack.bot import run_socket_mode

    assistant = _assistant(settings)
    # the bot's own log (connections, answers that failed) goes to stderr
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    run_socket_mode(settings, assistant)


@app.command("user-token")
def user_token(
    user: Annotated[str, typer.Argument(help="The portal's id for the user (the token's 'sub').")],
    ttl: Annotated[int, typer.Option(help="Seconds the token is valid.", min=60)] = 3600,
) -> None:
    """Print a signed user token for USER, as a portal's server would mint one (for trying the widget).

    Needs ADVISOR_SERVER__USER_TOKEN_SECRET. Portals mint the same HS256 JWT with any JWT library:
    claims sub (the user), aud "advisor", exp.
    """
    from api import user_tokens

    settings = get_settings()
    secret = settings.server.user_token_secret
    if secret is None:
        err.print("user tokens are off: set ADVISOR_SERVER__USER_TOKEN_SECRET (32+ characters) first")
        raise typer.Exit(2)
    if ttl > settings.server.user_token_max_ttl_s:
        err.print(
            f"--ttl {ttl} is longer than the service accepts (server.user_token_max_ttl_s = "
            f"{settings.server.user_token_max_ttl_s})"
        )
        raise typer.Exit(2)
    try:
        token = user_tokens.mint(secret.get_secret_value(), user, ttl_s=ttl)
    except ValueError as e:
        err.print(f"cannot mint a token: {e}")
        raise typer.Exit(2) from e
    out.print(token, soft_wrap=True, highlight=False)


@eval_app.callback()
def eval_default(ctx: typer.Context) -> None:
    """Measure the assistant on labelled question sets; with no subcommand, the answer set."""
    if ctx.invoked_subcommand is None:
        eval_answers(items=None, show_failures=False)


@eval_app.command("answers")
def eval_answers(
    items: Annotated[
        Path | None,
        typer.Option("--set", help="An evaluation YAML file or folder (default: tests/data/eval)."),
    ] = None,
    show_failures: Annotated[
        bool, typer.Option("--failures", help="List what each failed item got wrong.")
    ] = False,
) -> None:
    """Print answer pass rates by language and kind (calculations with expected numbers, citations, ...)."""
    from assistant.evaluation import DEFAULT_ANSWER_SET, evaluate_answers, load_eval_items
    from assistant.wiring import build_assistant

    settings = get_settings()
    loaded = load_eval_items(items or DEFAULT_ANSWER_SET)
    embeddings = _ensure_index(settings)
    with tempfile.TemporaryDirectory() as scratch:
        # evaluation conversations go to a scratch SQLite file, never into the users' history (even when
        # the service keeps it in PostgreSQL)
        settings = settings.model_copy(
            update={
                "conversations": ConversationSettings(path=Path(scratch) / "eval.db"),
                "database": DatabaseSettings(),
            }
        )
        report = evaluate_answers(build_assistant(settings, embeddings), loaded)
    table = Table(title="answers: pass rate")
    for column in ("group", "passed", "total", "rate"):
        table.add_column(column)
    for group, (passed, total) in report.by_group.items():
        table.add_row(group, str(passed), str(total), f"{passed / total:.1%}")
    out.print(table)
    if show_failures:
        for result in report.results:
            if not result.passed:
                out.print(f"FAIL {result.id}: " + "; ".join(result.failures), highlight=False, markup=False)


@eval_app.command("retrieval")
def eval_retrieval(
    questions: Annotated[
        Path | None,
        typer.Option("--set", help="A labelled YAML file or folder (default: tests/data/retrieval)."),
    ] = None,
    k: Annotated[int, typer.Option(min=1, max=50, help="Cut-off for recall@k.")] = 5,
    show_misses: Annotated[bool, typer.Option("--misses", help="List the questions that missed.")] = False,
) -> None:
    """Print recall@k and MRR per language for the hybrid retriever."""
    from assistant.evaluation import DEFAULT_RETRIEVAL_SET, evaluate, load_questions
    from assistant.wiring import build_retriever

    labelled = load_questions(questions or DEFAULT_RETRIEVAL_SET)
    settings = get_settings()
    report = evaluate(build_retriever(settings, _ensure_index(settings)), labelled, k=k)
    table = Table(title=f"retrieval: recall@{k} and MRR")
    for column in ("group", "questions", f"recall@{k}", "MRR"):
        table.add_column(column)
    for group, score in report.by_group.items():
        table.add_row(group, str(score.questions), f"{score.recall:.3f}", f"{score.mrr:.3f}")
    out.print(table)
    if show_misses:
        for q, expected, got in report.misses:
            out.print(f"miss: {q}\n  expected {expected}\n  got      {got}", highlight=False, markup=False)


def main() -> None:
    """Entry point: one line and a non-zero exit for every error a user can cause."""
    _quiet_libraries()
    try:
        app()
    except ValidationError as exc:  # the settings, read from the environment or .env
        err.print(
            f"error: invalid settings: {_settings_problems(exc)}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
        sys.exit(2)
    except SettingsError as exc:  # a value that is not even JSON where a list is expected
        err.print(
            f'error: invalid settings: {exc} (lists are JSON, e.g. ADVISOR_API_KEYS=\'["k1", "k2:admin"]\')',
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
        sys.exit(2)
    except InvalidInput as exc:
        err.print(f"error: {exc}", highlight=False, markup=False, soft_wrap=True)
        sys.exit(2)
    except AdvisorError as exc:
        err.print(f"error: {exc}", highlight=False, markup=False, soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
