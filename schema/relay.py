"""Relay connection pieces shared by every connection."""

from __future__ import annotations

import strawberry


@strawberry.type(description="Where a page sits in its list (Relay PageInfo).")
class PageInfo:
    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str | None
