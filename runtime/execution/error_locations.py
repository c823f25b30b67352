"""An error's line and column, counted in C rather than by a regular expression's matches.

graphql-core finds an error's line by matching its document's line breaks one by one from the
start, for each error: a 1 MiB body of blanks before a short query naming an undefined variable
100 times took 2.1 s of one core (200 errors: each, and its copy as the error table types it),
every other request waiting. Here the breaks before a position are counted with `str.count`
and the last one found with `str.rfind`, the same answer (a `\\r\\n` is one break, as a `\\r`
or a `\\n` alone) at a small fraction of the time, and nothing is kept between errors.
`runtime.install` puts `located` and `located_all` in the place of graphql-core's
`Source.get_location` and `get_locations` (`runtime/internals.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from graphql.language.location import SourceLocation
from graphql.language.source import Source


def located(source: Source, position: int) -> SourceLocation:
    """graphql-core's `Source.get_location`: a line break counts when it starts before
    `position`, and the column is counted from the end of the last such break."""
    body = source.body
    # A "\r\n" wholly before `position` is one break, counted twice by the first two.
    breaks = body.count("\n", 0, position) + body.count("\r", 0, position)
    breaks -= body.count("\r\n", 0, position)
    last = max(body.rfind("\n", 0, position), body.rfind("\r", 0, position))
    line_start = 0
    if last >= 0:
        line_start = last + (2 if body.startswith("\r\n", last) else 1)
    return SourceLocation(breaks + 1, position + 1 - line_start)


def located_all(locations: Sequence[tuple[Source, int]]) -> list[SourceLocation]:
    return [located(source, position) for source, position in locations]
