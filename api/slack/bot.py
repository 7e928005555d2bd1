"""The Slack bot's Bolt app: built once from settings, served at ``POST /slack/events`` or over Socket Mode."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

from slack_bolt import App, BoltRequest, BoltResponse
from slack_bolt.middleware import Middleware
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler

from api.coordination import LocalSeen, Seen, Shared
from api.slack.listeners import register
from assistant.errors import InvalidInput, ProviderError
from assistant.service import Assistant
from assistant.settings import Settings, SlackSettings

logger = logging.getLogger(__name__)

NOT_CONFIGURED = (
    "the Slack bot is not configured: set ADVISOR_SLACK__BOT_TOKEN and ADVISOR_SLACK__SIGNING_SECRET "
    "(see the Slack section of the README)"
)


class ListenerPool(ThreadPoolExecutor):
    """The threads Bolt answers on after acknowledging Slack, with a way to wait until every answer begun
    has finished: at shutdown an answer in flight still reaches Slack, and a test knows that nothing more
    can be posted (rather than sleeping and hoping)."""

    def __init__(self, max_workers: int = 5) -> None:
        super().__init__(max_workers=max_workers, thread_name_prefix="slack-listener")
        self._pending: set[Future[Any]] = set()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future = super().submit(fn, *args, **kwargs)
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._finished)
        return future

    def _finished(self, future: Future[Any]) -> None:
        with self._lock:
            self._pending.discard(future)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no listener is running or queued (one may start another); False on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                pending = set(self._pending)
            if not pending:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            wait(pending, timeout=left, return_when=FIRST_COMPLETED)


class DropRepeatedRetries(Middleware):
    """Acknowledge and drop Slack's retries (``X-Slack-Retry-Num``) of events already received.

    Keyed by ``event_id`` in ``seen``: this process's memory by default, so a retry of an event never
    seen here (say, after a restart) is answered; Redis when several replicas share one Request URL, so a
    retry delivered to another replica is dropped there too (``api.coordination``).
    """

    def __init__(self, seen: Seen | None = None) -> None:
        self._seen = seen or LocalSeen()

    def process(
        self, *, req: BoltRequest, resp: BoltResponse, next: Callable[[], BoltResponse]
    ) -> BoltResponse | None:
        event_id = req.body.get("event_id")
        # slash commands and interactivity carry no event_id: Slack never retries them
        if not isinstance(event_id, str) or self._seen.first(event_id):
            return next()
        retry = req.headers.get("x-slack-retry-num", ["-"])[0]
        reason = req.headers.get("x-slack-retry-reason", ["-"])[0]
        logger.info(
            "dropping a repeat of event %s (retry %s, reason %s): already received", event_id, retry, reason
        )
        return BoltResponse(status=200, body="")


def web_client(slack: SlackSettings) -> WebClient:
    """The Web API client: ``api_base_url`` from settings, retrying connection errors and 429 (Retry-After)."""
    base_url = slack.api_base_url if slack.api_base_url.endswith("/") else slack.api_base_url + "/"
    return WebClient(
        token=slack.bot_token.get_secret_value() if slack.bot_token else None,
        base_url=base_url,
        timeout=30,
        retry_handlers=[ConnectionErrorRetryHandler(), RateLimitErrorRetryHandler(max_retry_count=3)],
    )


def build_slack_app(
    settings: Settings,
    assistant: Assistant,
    *,
    client: WebClient | None = None,
    socket_mode: bool = False,
    listeners: ListenerPool | None = None,
    shared: Shared | None = None,
) -> App | None:
    """The Bolt app answering with ``assistant``, or None when Slack is not configured.

    HTTP mode needs the bot token and the signing secret; Socket Mode needs the bot token (the app
    token is the socket handler's business). Nothing here calls Slack: ``auth.test`` runs on the first
    request, so the service starts even while Slack is unreachable.
    """
    slack = settings.slack
    if slack.bot_token is None or (slack.signing_secret is None and not socket_mode):
        return None
    if os.environ.get("SLACK_CLIENT_ID") and os.environ.get("SLACK_CLIENT_SECRET"):
        # Bolt would silently switch to multi-workspace OAuth installs and ignore the bot token
        raise InvalidInput(
            "SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are set in the environment, which turns Bolt's OAuth "
            "installs on and ignores ADVISOR_SLACK__BOT_TOKEN; unset them for this service"
        )
    app = App(
        name="advisor",
        client=client or web_client(slack),
        signing_secret=slack.signing_secret.get_secret_value() if slack.signing_secret else "",
        token_verification_enabled=False,
        # acknowledge first and answer afterwards, so a slow answer never makes Slack retry
        process_before_response=False,
        listener_executor=listeners or ListenerPool(),
    )
    shared = shared or Shared(settings.redis)
    app.use(DropRepeatedRetries(shared.seen("slack-events")))
    app.error(_log_error)
    register(
        app, assistant, sources_base_url=settings.server.public_url, answered=shared.seen("slack-messages")
    )
    return app


def _log_error(error: Exception) -> None:
    # the listeners tell the user themselves; whatever escapes them is a bug, logged with its traceback
    logger.error("the Slack bot failed: %s", error, exc_info=error)


def run_socket_mode(settings: Settings, assistant: Assistant) -> None:
    """Connect to Slack over Socket Mode (no public URL needed) and answer until interrupted."""
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    app = build_slack_app(settings, assistant, socket_mode=True)
    app_token = settings.slack.app_token
    if app is None or app_token is None:
        raise InvalidInput("Socket Mode needs ADVISOR_SLACK__BOT_TOKEN and ADVISOR_SLACK__APP_TOKEN")
    try:
        # blocks until interrupted; Bolt leaves start() unannotated
        SocketModeHandler(app, app_token.get_secret_value()).start()  # type: ignore[no-untyped-call]
    except SlackApiError as e:
        raise ProviderError(
            f"Slack refused the Socket Mode connection ({e.response.get('error')}): check "
            "ADVISOR_SLACK__APP_TOKEN (xapp-..., scope connections:write) and that Socket Mode is on"
        ) from e
