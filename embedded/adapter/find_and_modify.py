"""A collection's findAndModify commands, as PyMongo's async collection offers them: one
document updated, replaced or deleted, and answered as it was before or after.

A failure is the command's failure (`OperationFailure`, as PyMongo raises a server's findAndModify
error), not a write error; under `w: 0` the write is done and the answer is None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pymongo import ReturnDocument
from pymongo.errors import OperationFailure

from embedded import rules
from embedded.adapter import driver
from embedded.adapter.commands import CollectionCommands
from embedded.expressions.variables import let_values
from embedded.planner import command_options
from embedded.protocols import Document
from embedded.stages import reads
from embedded.writes.write_path import Outcome


class FindAndModify(CollectionCommands):
    async def find_one_and_update(
        self,
        filter: Any,
        update: Any,
        projection: Any = None,
        sort: Any = None,
        upsert: bool = False,
        return_document: bool = ReturnDocument.BEFORE,
        array_filters: Any = None,
        hint: Any = None,
        session: Any = None,
        let: Mapping[str, Any] | None = None,
        comment: Any = None,
        **kwargs: Any,
    ) -> Any:
        driver.check_update(filter, update, upsert, array_filters)

        def update_one() -> Outcome:
            return self._writes.update_one(filter, update, upsert, sort, array_filters, let)

        sent = {"findAndModify": self.name, "query": filter, "update": update}
        options = {**kwargs, "hint": hint, "let": let}
        return await self._modify(sent, update_one, return_document, projection, options)

    async def find_one_and_replace(
        self,
        filter: Any,
        replacement: Any,
        projection: Any = None,
        sort: Any = None,
        upsert: bool = False,
        return_document: bool = ReturnDocument.BEFORE,
        hint: Any = None,
        session: Any = None,
        let: Mapping[str, Any] | None = None,
        comment: Any = None,
        **kwargs: Any,
    ) -> Any:
        driver.check_replacement(filter, replacement, upsert)

        def replace_one() -> Outcome:
            return self._writes.update_one(filter, replacement, upsert, sort, None, let)

        sent = {"findAndModify": self.name, "query": filter, "update": replacement}
        options = {**kwargs, "hint": hint, "let": let}
        return await self._modify(sent, replace_one, return_document, projection, options)

    async def find_one_and_delete(
        self,
        filter: Any,
        projection: Any = None,
        sort: Any = None,
        hint: Any = None,
        session: Any = None,
        let: Mapping[str, Any] | None = None,
        comment: Any = None,
        **kwargs: Any,
    ) -> Any:
        driver.check_filter(filter)
        fields = _fields(projection)

        def delete() -> Document | None:
            command_options.check(self._coll, hint, kwargs.get("collation"))
            doc = self._writes.find_and_delete(filter, sort, let)
            if doc is None or not fields:
                return doc
            return reads.project(self._coll, doc, fields, let_values(let))

        sent = {"findAndModify": self.name, "query": filter, "remove": True}
        return await self._write("findAndModify", _as_command(delete), sent=sent)

    async def _modify(
        self,
        sent: Mapping[str, Any],
        write: Callable[[], Outcome],
        return_document: bool,
        projection: Any,
        options: Mapping[str, Any],
    ) -> Any:
        """findAndModify's update or replacement: the document before or after it. `options`
        are the command's `hint`, `collation` and `let`."""
        if not isinstance(return_document, bool):
            raise TypeError(
                "return_document must be ReturnDocument.BEFORE or ReturnDocument.AFTER, "
                f"not {type(return_document)}"
            )
        fields = _fields(projection)

        def action() -> Any:
            command_options.check(self._coll, options.get("hint"), options.get("collation"))
            outcome = write()
            doc = outcome.after if return_document == ReturnDocument.AFTER else outcome.before
            if doc is None or not fields:
                return doc
            return reads.project(self._coll, doc, fields, let_values(options.get("let")))

        return await self._write("findAndModify", _as_command(action), sent=sent)


def _as_command(action: Callable[[], Any]) -> Callable[[], Any]:
    """`action`, whose write error fails findAndModify as a command."""

    def run() -> Any:
        try:
            return action()
        except OperationFailure as exc:
            raise rules.command_error(exc) from None

    return run


def _fields(projection: Any) -> Mapping[str, Any] | None:
    """A projection as PyMongo sends it: a list of names includes each."""
    if projection is None or isinstance(projection, Mapping):
        return projection
    return {name: 1 for name in projection}
