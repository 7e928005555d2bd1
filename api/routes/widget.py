"""The embeddable chat widget (``GET /widget.js``) and a demo page that embeds it (``GET /``).

Both are static files read once, at import; neither needs an API key (the widget's own calls to
``/v1/*`` carry whatever auth the deployment requires).
"""

from __future__ import annotations

import hashlib
from importlib.resources import files

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

router = APIRouter(tags=["widget"])

_STATIC = files("api").joinpath("static")
WIDGET_JS = _STATIC.joinpath("widget.js").read_text(encoding="utf-8")
DEMO_HTML = _STATIC.joinpath("index.html").read_text(encoding="utf-8")
_WIDGET_ETAG = '"' + hashlib.sha256(WIDGET_JS.encode()).hexdigest()[:16] + '"'
# short max-age so a deploy reaches pages within minutes; the ETag makes revalidation cheap
_WIDGET_HEADERS = {
    "Cache-Control": "public, max-age=300, stale-while-revalidate=86400",
    "ETag": _WIDGET_ETAG,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "cross-origin",
}


@router.get(
    "/widget.js", response_class=Response, responses={200: {"content": {"application/javascript": {}}}}
)
def widget_js(request: Request) -> Response:
    """The chat widget: embed it with ``<script src="https://HOST/widget.js" data-title="..."></script>``."""
    if _WIDGET_ETAG in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=_WIDGET_HEADERS)
    return Response(WIDGET_JS, media_type="application/javascript; charset=utf-8", headers=_WIDGET_HEADERS)


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def demo_page() -> HTMLResponse:
    """A plain page about choosing training servers that embeds the widget as a customer page would."""
    return HTMLResponse(DEMO_HTML, headers={"Cache-Control": "no-cache"})
