"""Errors of mongomock-ng as a server reports them, around the engine's writes: context
managers of classes (a generator's costs a few microseconds, and every update enters two)."""

from __future__ import annotations

from typing import Any, Literal

from bson.errors import InvalidDocument
from pymongo.errors import DuplicateKeyError, OperationFailure, WriteError

from embedded import mongomock_internals as mongomock
from embedded import rules


class AsWriteErrors:
    """mongomock-ng fails with Python errors where a server answers with a WriteError; an
    expression that fails (`$divide` by zero) fails the statement, so PyMongo raises a
    WriteError for it with the expression's code, as for any write error."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: object, exc: BaseException | None, traceback: object
    ) -> Literal[False]:
        if isinstance(exc, WriteError):
            if "_id" in str(exc):  # an operator that changes `_id`, in the server's words
                raise rules.immutable_id() from None
        elif isinstance(exc, InvalidDocument):  # mongomock-ng refuses a `$`-prefixed name
            what = f"this field name in an update: {exc}"
            raise rules.write_error(rules.NOT_IMPLEMENTED, f"{rules.UNSUPPORTED_PREFIX} {what}")
        elif isinstance(exc, TypeError | AttributeError | ValueError | KeyError):
            raise rules.write_error(rules.TYPE_MISMATCH, f"cannot apply update: {exc}") from None
        elif isinstance(exc, OperationFailure):
            code, message, _ = rules.error_parts(exc)
            raise rules.write_error(code, message) from None
        return False


class DuplicateKeys:
    """mongomock-ng's E11000 in `coll`, reported with the server's message (index `index`, or
    the one whose key pattern it names)."""

    def __init__(self, coll: Any, index: str | None) -> None:
        self._coll, self._index = coll, index

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: object, exc: BaseException | None, traceback: object
    ) -> Literal[False]:
        if not isinstance(exc, DuplicateKeyError):
            return False
        details = exc.details or {}
        pattern, key = details.get("keyPattern", {}), dict(details.get("keyValue", {}))
        # A missing field is null in an index key, as the server reports it.
        key = {k: None if v is mongomock.NOTHING else v for k, v in key.items()}
        named = [
            name
            for name, spec in self._coll.index_information().items()
            if dict(spec["key"]) == dict(pattern)
        ]
        index = self._index or (named[0] if named else "_id_")
        raise rules.duplicate_key(self._coll.full_name, index, pattern, key) from None
