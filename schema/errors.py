"""The one error table: every error leaves with an `extensions.code` decided by its type.

Errors reach a client from four places, each with its own types: the parser
(`GraphQLSyntaxError`), the runtime (`runtime/errors.py`: the request limits and validation,
the choice of operation, variable and argument coercion), and the resolvers (the `ApiError`s
of `resolvers/errors.py` and the `StoreError`s of `store/errors.py`, which graphql-core wraps
as `original_error`). Anything else is unexpected: masked as `INTERNAL_SERVER_ERROR` and
logged with its stack. Codes are set once per error, in `label_errors`, which the schema runs
on every result; the view masks by the code set there.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable

from graphql import GraphQLError, GraphQLSyntaxError

from resolvers.errors import BadUserInput, LimitExceeded, NotFound, Unauthenticated
from runtime.errors import (
    ArgumentInvalid,
    DocumentInvalid,
    OperationUnresolved,
    RequestLimitExceeded,
    VariablesInvalid,
)
from store.errors import (
    StoredLimitReached,
    WriteContention,
    database_unavailable,
    unavailable_reason,
)

logger = logging.getLogger("arraygraph.errors")

INTERNAL = "INTERNAL_SERVER_ERROR"
UNAVAILABLE = "SERVICE_UNAVAILABLE"
UNAVAILABLE_MESSAGE = (
    "The database did not answer in time or could not be reached; retry. A write this call "
    "sent may have been applied: its ids (clientMessageId, order ids) make a retry safe."
)
SUGGESTION = re.compile(r" ?Did you mean [^?]*\?")
MASKED_MESSAGE = "Internal server error"


ERROR_CODES: tuple[tuple[type[Exception], str], ...] = (
    (GraphQLSyntaxError, "GRAPHQL_PARSE_FAILED"),
    (RequestLimitExceeded, "LIMIT_EXCEEDED"),
    (DocumentInvalid, "GRAPHQL_VALIDATION_FAILED"),
    (VariablesInvalid, "BAD_USER_INPUT"),
    (OperationUnresolved, "OPERATION_RESOLUTION_FAILURE"),
    (BadUserInput, "BAD_USER_INPUT"),
    (ArgumentInvalid, "BAD_USER_INPUT"),
    (NotFound, "NOT_FOUND"),
    (LimitExceeded, "LIMIT_EXCEEDED"),
    (Unauthenticated, "UNAUTHENTICATED"),
    (StoredLimitReached, "LIMIT_EXCEEDED"),
    (WriteContention, "CONFLICT"),
)


def code_of(error: BaseException) -> str:
    """The code of an error (or of a resolver's exception), by its type."""
    for kind, code in ERROR_CODES:
        if isinstance(error, kind):
            return code
    if database_unavailable(error):
        return UNAVAILABLE
    return INTERNAL


def _subject(error: GraphQLError) -> BaseException:
    """What decides an error's code: its own type when that is in the table, else its cause."""
    cause = error.original_error
    if code_of(error) == INTERNAL and cause is not None and not isinstance(cause, GraphQLError):
        return cause
    return error


def label_errors(
    errors: Iterable[GraphQLError],
    *,
    over_token_limit: Callable[[str], bool],
    suggestions: bool = True,
) -> None:
    """Give each error its code (and the argument at fault), once; log unexpected ones; without
    `suggestions`, drop graphql-core's "Did you mean ...?" hints, which name schema members.

    A syntax error in a document over the token limit is the limit's: the parser stops there.
    """
    for error in errors:
        if not suggestions:
            error.message = SUGGESTION.sub("", error.message)
        # Typed by where it was made (parser, validation, variables), or else by what the resolver
        # raised: a scalar's ValueError inside a validation error is the document's fault.
        subject = _subject(error)
        code = code_of(subject)
        source = error.source
        if isinstance(error, GraphQLSyntaxError) and source and over_token_limit(source.body):
            code = code_of(RequestLimitExceeded(error.message))
        extensions = {**(error.extensions or {}), "code": code}
        argument = getattr(subject, "argument", None)
        if isinstance(argument, str):
            extensions["argument"] = argument
        if isinstance(subject, Unauthenticated) and subject.reason is not None:
            extensions["reason"] = subject.reason  # why a credential was not accepted
        error.extensions = extensions
        if code == UNAVAILABLE:  # the database's state: said plainly, its details logged
            logger.warning("Database unavailable: %s", unavailable_reason(subject))
            error.message = UNAVAILABLE_MESSAGE
        if code == INTERNAL:
            logger.error(
                "Unexpected error at %s: %s",
                ".".join(map(str, error.path or ())) or "<operation>",
                subject,
                exc_info=(type(subject), subject, subject.__traceback__),
            )


def masked(error: GraphQLError) -> GraphQLError:
    """What a client may see of an error: an unexpected one says only that it happened."""
    code = (error.extensions or {}).get("code")
    if code is not None and code != INTERNAL:
        return error
    return GraphQLError(
        MASKED_MESSAGE, nodes=error.nodes, path=error.path, extensions={"code": INTERNAL}
    )
