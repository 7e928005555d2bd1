"""The contract check used by the API tests catches what it is there to catch."""

from __future__ import annotations

import pytest
from fastapi import APIRouter, FastAPI, HTTPException
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from tests.helpers import ContractClient


class Item(BaseModel):
    name: str
    count: int


class Missing(BaseModel):
    detail: str


def make_app() -> FastAPI:
    app = FastAPI()

    @app.get("/items/{item_id}", response_model=Item, responses={404: {"model": Missing}})
    def get_item(item_id: str) -> JSONResponse | Item:
        if item_id == "drifted":  # bypasses the response model, as a hand-written JSONResponse can
            return JSONResponse({"name": "x", "count": "three"})
        if item_id == "teapot":
            raise HTTPException(status_code=418, detail="undeclared")
        if item_id == "missing":
            raise HTTPException(status_code=404, detail="declared")
        return Item(name=item_id, count=1)

    return app


def test_a_conforming_response_passes() -> None:
    with ContractClient(make_app()) as client:
        assert client.get("/items/a").json() == {"name": "a", "count": 1}
        assert client.get("/items/missing").status_code == 404
        assert client.get("/no/such/route").status_code == 404  # not an operation: nothing to check


def test_a_body_that_drifts_from_its_schema_fails() -> None:
    with ContractClient(make_app()) as client, pytest.raises(AssertionError, match="count"):
        client.get("/items/drifted")


def test_an_undeclared_status_fails() -> None:
    with ContractClient(make_app()) as client, pytest.raises(AssertionError, match="does not declare"):
        client.get("/items/teapot")


def test_json_the_operation_does_not_declare_fails() -> None:
    app = FastAPI()

    @app.get("/bare", responses={409: {"description": "conflict, but no body declared"}})
    def bare() -> None:
        raise HTTPException(status_code=409, detail="a JSON body nobody documented")

    with ContractClient(app) as client, pytest.raises(AssertionError, match="sent JSON it does not declare"):
        client.get("/bare")


def test_routes_of_included_routers_are_checked_too() -> None:
    """FastAPI 0.165 wraps included routers in objects without a path: the check must not skip them."""
    router = APIRouter(prefix="/v1")

    @router.get("/things/{thing_id:path}", responses={404: {"model": Missing}})
    def thing(thing_id: str) -> Item:
        raise HTTPException(status_code=418, detail="undeclared")

    app = FastAPI()
    app.include_router(router)
    with ContractClient(app) as client, pytest.raises(AssertionError, match="does not declare"):
        client.get("/v1/things/a/b")
