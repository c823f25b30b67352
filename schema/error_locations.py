"""An error's line and column, found by bisection among its document's line breaks.

graphql-core finds an error's line by scanning its document for line breaks from the start,
once for each error: a 1 MiB body of blanks before a short query naming an undefined variable
100 times took 2.1 s of one core (200 errors: each, and its copy as the error table types
it), every other request waiting. Here the breaks of the last document an error came from are
found once, and each error's line is a bisection; only that document's breaks are kept (a
cached document's memory is accounted without them).
"""

from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Sequence

from graphql.language import location as graphql_location
from graphql.language.location import SourceLocation
from graphql.language.source import Source

_NEWLINE = re.compile(r"\r\n|[\n\r]")  # graphql-core's
_last: tuple[str, list[int], list[int]] | None = None  # a body, its breaks' starts and ends
_install_lock = threading.Lock()
_installed: list[bool] = []


def _breaks(body: str) -> tuple[list[int], list[int]]:
    global _last
    last = _last
    if last is not None and last[0] is body:
        return last[1], last[2]
    matches = list(_NEWLINE.finditer(body))
    starts, ends = [m.start() for m in matches], [m.end() for m in matches]
    _last = (body, starts, ends)
    return starts, ends


def located(source: Source, position: int) -> SourceLocation:
    """graphql-core's `Source.get_location`: a line break counts when it starts before
    `position`, and the column is counted from the end of the last such break."""
    starts, ends = _breaks(source.body)
    before = bisect.bisect_left(starts, position)
    line_start = ends[before - 1] if before else 0
    return SourceLocation(before + 1, position + 1 - line_start)


def _located_all(locations: Sequence[tuple[Source, int]]) -> list[SourceLocation]:
    return [located(source, position) for source, position in locations]


def install() -> None:
    """Make graphql-core locate every error so (idempotent; for the whole process)."""
    with _install_lock:
        if not _installed:
            graphql_location.get_locations = _located_all
            Source.get_location = located  # type: ignore[method-assign,assignment]
            _installed.append(True)
