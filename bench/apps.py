"""The applications the benchmarks serve with uvicorn."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from app import create_app
from settings import Settings


async def echo(request: Request) -> JSONResponse:
    # The baseline: parse a JSON body and answer JSON, as a GraphQL request must at least.
    body = await request.json()
    return JSONResponse({"data": {"__typename": "Query"}, "echo": len(body)})


def bare() -> Starlette:
    return Starlette(routes=[Route("/json", echo, methods=["POST"])])


def full() -> Starlette:
    return create_app(Settings(), demo=True)
