"""Every error leaves with an `extensions.code`; unexpected ones are masked and logged."""

from __future__ import annotations

import logging

from graphql import GraphQLError

from resolvers.errors import ApiError, Unauthenticated

logger = logging.getLogger("arraygraph.errors")

INTERNAL = "INTERNAL_SERVER_ERROR"
MASKED_MESSAGE = "Internal server error"

# Messages of graphql-core's and Strawberry's request limits (depth, aliases, tokens).
_LIMIT_MARKERS = ("exceeds maximum operation depth", "aliases found. Allowed", "more than")


def error_code(error: GraphQLError) -> str:
    original = error.original_error
    if isinstance(original, ApiError):
        return original.code
    if error.extensions and error.extensions.get("code") == Unauthenticated.code:
        return Unauthenticated.code
    if error.path is not None:
        return INTERNAL  # raised while resolving: a bug or an outage, never the client's
    message = error.message
    if any(marker in message for marker in _LIMIT_MARKERS) and (
        "token" in message or "depth" in message or "aliases" in message
    ):
        return "LIMIT_EXCEEDED"
    if message.startswith("Syntax Error"):
        return "GRAPHQL_PARSE_FAILED"
    if message.startswith(("Variable '$", "Expected value of type", "Argument '")) or (
        "got invalid value" in message
    ):
        return "BAD_USER_INPUT"
    if isinstance(original, Exception) and not isinstance(original, GraphQLError):
        return INTERNAL
    return "GRAPHQL_VALIDATION_FAILED"


def log_unexpected(errors: list[GraphQLError]) -> None:
    for error in errors:
        if error_code(error) == INTERNAL:
            original = error.original_error or error
            logger.error(
                "Unexpected error at %s: %s",
                ".".join(map(str, error.path or ())) or "<operation>",
                original,
                exc_info=(type(original), original, original.__traceback__),
            )


def apply_error_policy(error: GraphQLError) -> GraphQLError:
    code = error_code(error)
    if code == INTERNAL:
        return GraphQLError(
            MASKED_MESSAGE,
            nodes=error.nodes,
            path=error.path,
            extensions={"code": INTERNAL},
        )
    extensions = dict(error.extensions or {})
    extensions["code"] = code
    error.extensions = extensions
    return error
