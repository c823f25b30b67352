"""Relay pages: one normaliser of `first/after/last/before`, and the page every list returns.

Every connection checks its arguments here, with one set of rules and messages; its resolver
returns a `Page` of store records with their cursors, which `schema/relay.py` turns into a
`Connection` in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from resolvers.cursors import CursorCodec
from resolvers.errors import BadUserInput
from settings import DEFAULT_PAGE_SIZE

T = TypeVar("T")
R = TypeVar("R")
P = TypeVar("P", bound=tuple[Any, ...])


@dataclass(frozen=True, slots=True)
class PageRequest:
    """A validated page request: a direction, a size, and the cursor to start from (raw)."""

    forward: bool
    size: int
    cursor: str | None = None

    @property
    def cursor_argument(self) -> str:
        return "after" if self.forward else "before"

    @classmethod
    def from_arguments(
        cls,
        *,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
        maximum: int,
        default: int = DEFAULT_PAGE_SIZE,
    ) -> PageRequest:
        if first is not None and last is not None:
            raise BadUserInput("first and last: give one of them, not both", argument="last")
        if after is not None and before is not None:
            raise BadUserInput("after and before: give one of them, not both", argument="before")
        backward = last is not None or before is not None
        if backward and (first is not None or after is not None):
            argument = "first" if first is not None else "after"
            raise BadUserInput(
                f"{argument}: page forward (first/after) or backward (last/before), not both",
                argument=argument,
            )
        argument, size = ("last", last) if backward else ("first", first)
        size = default if size is None else size
        if size < 0:
            raise BadUserInput(f"{argument}: must not be negative, got {size}", argument=argument)
        if size > maximum:
            raise BadUserInput(f"{argument}: at most {maximum}, got {size}", argument=argument)
        return cls(forward=not backward, size=size, cursor=before if backward else after)

    def position(self, codec: CursorCodec[P]) -> P | None:
        """The position the cursor names, decoded and checked by the list's codec."""
        if self.cursor is None:
            return None
        return codec.decode(self.cursor, argument=self.cursor_argument)


def check_page_arguments(
    arguments: Mapping[str, Any], codec: CursorCodec[Any], *, maximum: int
) -> None:
    """What a connection checks before it reads (sizes, directions, its cursor), for a mutation
    that must know before it writes that its payload's page can be answered."""
    PageRequest.from_arguments(
        first=arguments.get("first"),
        after=arguments.get("after"),
        last=arguments.get("last"),
        before=arguments.get("before"),
        maximum=maximum,
    ).position(codec)


def check_page_number(number: int) -> int:
    """A numbered page (a trade bucket): from 1."""
    if number < 1:
        raise BadUserInput(f"number: pages start at 1, got {number}", argument="number")
    return number


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list, in list order: each node with its cursor.

    `total` is None when it was not asked for (`totalCount` not selected) and so not computed.
    """

    edges: tuple[tuple[str, T], ...]
    has_next: bool
    has_previous: bool
    total: int | None

    @classmethod
    def of(
        cls,
        nodes: Sequence[T],
        cursor: Callable[[T], str],
        *,
        has_next: bool,
        has_previous: bool,
        total: int | None,
    ) -> Page[T]:
        return cls(
            edges=tuple((cursor(node), node) for node in nodes),
            has_next=has_next,
            has_previous=has_previous,
            total=total,
        )

    def map(self, convert: Callable[[T], R]) -> Page[R]:
        edges = tuple((cursor, convert(node)) for cursor, node in self.edges)
        return Page(edges, self.has_next, self.has_previous, self.total)

    @classmethod
    def cut(
        cls,
        found: Sequence[T],
        request: PageRequest,
        cursor: Callable[[T], str],
        *,
        behind: bool,
        total: int | None,
    ) -> Page[T]:
        """The page from `found`: up to `size + 1` nodes read from the cursor in the request's
        direction (nearest first); the extra one only tells that more exist. `behind` tells
        whether the list holds a node at the cursor or beyond it, on the side the page does not
        read (never without a cursor): the flag of that side, exact as the spec asks, not
        merely "a cursor was given" (a forged or stale cursor may name a place past the end)."""
        nodes = list(found[: request.size])
        more = len(found) > request.size
        if not request.forward:
            nodes.reverse()
        return cls.of(
            nodes,
            cursor,
            has_next=more if request.forward else behind,
            has_previous=behind if request.forward else more,
            total=total,
        )
