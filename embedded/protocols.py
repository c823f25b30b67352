"""What the engine needs from its user: observers of the commands it runs and of what they read.

A command is what a round trip is on a real server; an application that budgets its round trips
(as arraygraph's tests do) counts them here, and on a real server through PyMongo's command
monitoring. What a command costs the engine is the stored documents it examined, as a server's
`explain` counts them (`totalDocsExamined`): a test that pins them knows a lookup by key stays
one document, and a page one page, whatever the collection's size.

Beside them, the shapes of two of mongomock-ng's objects the engine holds
(`embedded.mongomock_internals` gives them): its expression parser, its operators' handlers,
its pipeline stages and a collection's store; and the engine's compiled expressions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

Document = dict[str, Any]


class CommandObserver(Protocol):
    """Told of each command: its name before it runs, its result after (a list for reads)."""

    def started(self, name: str) -> None: ...

    def replied(self, result: object) -> None: ...


class ExaminationObserver(Protocol):
    """Told, as a command reads a collection, how many of its stored documents it examined:
    each document fetched to be matched against the command's filter (by an index, those its
    keys name; by a scan, every one). `namespace` is `"<db>.<collection>"`."""

    def examined(self, namespace: str, documents: int) -> None: ...


class CommandCounts:
    """The observer of an engine given none: how many commands ran, by name."""

    def __init__(self) -> None:
        self.by_name: Counter[str] = Counter()

    @property
    def count(self) -> int:
        return sum(self.by_name.values())

    def reset(self) -> None:
        self.by_name.clear()

    def started(self, name: str) -> None:
        self.by_name[name] += 1

    def replied(self, result: object) -> None:
        return None


class DocumentsExamined:
    """The examination observer of an engine given none: documents examined, by namespace,
    since the last `reset()`."""

    def __init__(self) -> None:
        self.by_namespace: Counter[str] = Counter()

    @property
    def total(self) -> int:
        return sum(self.by_namespace.values())

    def reset(self) -> None:
        self.by_namespace.clear()

    def examined(self, namespace: str, documents: int) -> None:
        self.by_namespace[namespace] += documents


Handler = Callable[[Any, str, Any], Any]  # (parser, operator, argument) -> value
Stage = Callable[[Any, Any, Any, Any], Any]  # (documents, database, spec, variables) -> documents
Evaluator = Callable[[Any, dict[str, Any]], Any]  # (document, variables) -> value


class Parser(Protocol):
    """mongomock-ng's expression parser for one document and its variables."""

    def parse(self, expression: Any) -> Any: ...


class DocumentStore(Protocol):
    """A collection's stored documents by `_id` (not copies)."""

    def __getitem__(self, document_id: Any, /) -> Document: ...

    def __contains__(self, document_id: Any, /) -> bool: ...
