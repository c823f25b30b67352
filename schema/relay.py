"""Relay connection pieces shared by every connection."""

from __future__ import annotations

import strawberry


@strawberry.type(description="Where a page sits in its list (Relay PageInfo).")
class PageInfo:
    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str | None

    @classmethod
    def of(cls, cursors: list[str], *, has_next: bool, has_previous: bool) -> PageInfo:
        """The page info of a page whose edges have these cursors, in order."""
        return cls(
            has_next_page=has_next,
            has_previous_page=has_previous,
            start_cursor=cursors[0] if cursors else None,
            end_cursor=cursors[-1] if cursors else None,
        )
