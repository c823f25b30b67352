"""The errors the runtime makes, each typed by where it is made, for the error table
(`schema/errors.py`) to give its code: the request limits (`RequestLimitExceeded`), validation
(`DocumentInvalid`), the choice of operation (`OperationUnresolved`), variable coercion
(`VariablesInvalid`) and an argument that does not coerce once variables are in
(`ArgumentInvalid`, raised in a field's place as a resolver's error is)."""

from __future__ import annotations

from typing import TypeVar

from graphql import GraphQLError

E = TypeVar("E", bound=GraphQLError)
SHOWN_CHARACTERS = 60


def shown(value: object) -> str:
    """A client's value as a message quotes it: cut after SHOWN_CHARACTERS (it may be a megabyte
    long, and an answer repeats it in the error of every field given it)."""
    if not isinstance(value, str):
        return repr(value)[:SHOWN_CHARACTERS]
    return repr(value if len(value) <= SHOWN_CHARACTERS else value[:SHOWN_CHARACTERS] + "...")


class RequestLimitExceeded(GraphQLError):
    """A document over a request limit: tokens, depth or aliases."""


class DocumentInvalid(GraphQLError):
    """A document that does not validate against the schema."""


class OperationUnresolved(GraphQLError):
    """No operation to run: several and no `operationName`, or a name the document lacks."""


class VariablesInvalid(GraphQLError):
    """Variable values that do not fit the types the operation declares for them."""


class ArgumentInvalid(Exception):
    """An argument whose value does not coerce, naming the `argument` at fault (None when it
    cannot be told): the client's error, as a resolver's refusal of an argument is."""

    def __init__(self, message: str, *, argument: str | None = None) -> None:
        super().__init__(message)
        self.argument = argument


def retyped(error: GraphQLError, kind: type[E], code: str) -> E:
    """`error` as an instance of `kind`, with its code: what graphql-core made, typed by where
    it came from."""
    extensions = {**(error.extensions or {}), "code": code}
    return kind(
        error.message,
        error.nodes,
        error.source,
        error.positions,
        error.path,
        error.original_error,
        extensions,
    )
