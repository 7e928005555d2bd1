"""Slack's Request URL: events, the slash command and interactivity, verified and answered by the Bolt app."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from slack_bolt import App, BoltResponse
from slack_bolt.adapter.starlette.handler import to_bolt_request, to_starlette_response
from starlette.concurrency import run_in_threadpool

from api.errors import INTERNAL_MESSAGE, error_response
from api.schemas import ErrorBody
from api.slack.bot import NOT_CONFIGURED

router = APIRouter(tags=["slack"])

BAD_SIGNATURE = (
    "not signed by Slack: X-Slack-Signature does not match the signing secret, or "
    "X-Slack-Request-Timestamp is more than five minutes away"
)
UNHANDLED = "the bot does not handle this kind of Slack request (the app manifest lists the ones it does)"

_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Acknowledged: an empty body, or the JSON Slack expects (the URL check's "
        "challenge, the sizing form's field errors).",
        "content": {"application/json": {"schema": {"type": "object"}}, "text/plain": {}},
    },
    400: {"model": ErrorBody, "description": "The body is not UTF-8, so it is not from Slack."},
    401: {"model": ErrorBody, "description": "Not signed by Slack, or signed more than five minutes ago."},
    404: {"model": ErrorBody, "description": "Slack is not configured here, or the request is unhandled."},
    413: {"model": ErrorBody, "description": "The request body is larger than the limit."},
    500: {"model": ErrorBody, "description": "Our bug, logged; the message carries no internals."},
}


@router.post("/slack/events", response_model=None, responses=_RESPONSES)
async def slack_events(request: Request) -> Response:
    """Events, slash commands and interactive payloads from Slack (the app manifest's Request URL).

    Open without API keys: Slack signs every request instead, and the Bolt app refuses a wrong
    signature or a timestamp more than five minutes away. Answers come later, in Slack.
    """
    bolt: App | None = getattr(request.app.state, "slack", None)
    if bolt is None:
        return error_response(404, "slack_not_configured", NOT_CONFIGURED)
    body = await request.body()
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:  # not from Slack, which sends UTF-8; refused before Bolt looks at it
        return error_response(400, "bad_request", "the body is not UTF-8")
    # the FastAPI adapter's own handle() would run dispatch on the event loop, where Bolt sleeps while
    # it waits (up to 3 s) for the listener's ack; a worker thread keeps the loop free for other requests
    response: BoltResponse = await run_in_threadpool(bolt.dispatch, to_bolt_request(request, body))
    return _house_errors(response) or to_starlette_response(response)


def _house_errors(response: BoltResponse) -> Response | None:
    """Bolt's own error bodies (``{"error": "invalid request"}``) in this API's error shape."""
    match response.status:
        case 401:
            return error_response(401, "invalid_signature", BAD_SIGNATURE)
        case 404:
            return error_response(404, "unhandled", UNHANDLED)
        case 500:
            return error_response(500, "internal", INTERNAL_MESSAGE)
        case _:
            return None
