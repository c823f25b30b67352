"""The GraphQL endpoint reached without Starlette's routing: the app's one hot path.

The innermost middleware: an HTTP request for the endpoint's exact path goes straight to it;
everything else (other routes, WebSockets, a path under a root path) goes on to the router, where
the endpoint is routed too. Routing the endpoint cost two layers per request, a visible share of
the time of `{ __typename }`: the exception middleware, which turns an `HTTPException` raised by an
endpoint into a response (the GraphQL endpoint raises none: it answers every refusal itself), and
the router's match. An unexpected exception still reaches Starlette's error middleware, outermost.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class DirectRoute:
    def __init__(self, app: ASGIApp, *, path: str, endpoint: ASGIApp) -> None:
        self.app = app
        self.path = path
        self.endpoint = endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == self.path:
            await self.endpoint(scope, receive, send)
        else:
            await self.app(scope, receive, send)
