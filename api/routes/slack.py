"""Slack's Request URL: events, the slash command and interactivity, verified and answered by the Bolt app."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request, Response
from slack_bolt import App, BoltResponse
from slack_bolt.adapter.starlette.handler import to_bolt_request, to_starlette_response
from slack_sdk.signature import SignatureVerifier
from starlette.concurrency import run_in_threadpool

from api.errors import INTERNAL_MESSAGE, error_response
from api.schemas import ErrorBody
from api.slack.bot import NOT_CONFIGURED
from assistant.settings import Settings

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
    400: {
        "model": ErrorBody,
        "description": "Signed, but not a request Slack sends (not UTF-8, not JSON, ...).",
    },
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
        text = body.decode("utf-8")
    except UnicodeDecodeError:  # not from Slack, which sends UTF-8; refused before Bolt looks at it
        return error_response(400, "bad_request", "the body is not UTF-8")
    settings: Settings = request.app.state.settings
    secret = settings.slack.signing_secret
    if secret is not None and not _signed_by_slack(request, text, secret.get_secret_value()):
        return error_response(401, "invalid_signature", BAD_SIGNATURE)
    if (problem := _not_a_slack_request(request.headers.get("content-type", ""), text)) is not None:
        return error_response(400, "bad_request", problem)
    # the FastAPI adapter's own handle() would run dispatch on the event loop, where Bolt sleeps while
    # it waits (up to 3 s) for the listener's ack; a worker thread keeps the loop free for other requests
    response: BoltResponse = await run_in_threadpool(bolt.dispatch, to_bolt_request(request, body))
    return _house_errors(response) or to_starlette_response(response)


def _signed_by_slack(request: Request, body: str, secret: str) -> bool:
    """Slack's signature over the body, made within five minutes; checked here as well as in Bolt, so a
    request with a malformed timestamp or signature is a 401, never an exception in Bolt's middleware."""
    timestamp = request.headers.get("x-slack-request-timestamp", "")
    signature = request.headers.get("x-slack-signature", "")
    if not timestamp.isascii() or not timestamp.isdigit() or len(timestamp) > 12 or not signature:
        return False
    return SignatureVerifier(secret).is_valid(body=body, timestamp=timestamp, signature=signature)


def _not_a_slack_request(content_type: str, body: str) -> str | None:
    """Why a signed body is not one of the shapes Slack sends (None when it is one): a JSON object
    (events), a form with a JSON-object ``payload`` (interactivity) or a form with ``command``."""
    if content_type.startswith("application/json"):
        try:
            parsed = json.loads(body)
        except ValueError:
            return "the body is not valid JSON"
        if not isinstance(parsed, dict) or not isinstance(parsed.get("event", {}), dict):
            return "the body is not a Slack event (a JSON object)"
        return None
    form = parse_qs(body, keep_blank_values=True)
    if "payload" in form:
        try:
            payload = json.loads(form["payload"][0])
        except ValueError:
            return "the interactive payload is not valid JSON"
        if not isinstance(payload, dict):
            return "the interactive payload is not a JSON object"
        return None
    if "command" not in form:
        return "the body is neither a Slack event, an interactive payload nor a slash command"
    return None


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
