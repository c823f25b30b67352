"""The server's parse-time checks of an update (before any document is read), and the checks
of one command's updates, each update checked once however many statements send it."""

from __future__ import annotations

from typing import Any, NamedTuple

from embedded import rules
from embedded.stages.plain_stages import is_mapping
from embedded.writes import array_filters as array_updates
from embedded.writes import field_names, positional


def is_replacement(update: Any) -> bool:
    """A replacement document, as opposed to operators (`$set`...) or a pipeline (a list): as a
    server tells them, by the first field's name (a replacement may hold `$`-prefixed ones)."""
    return is_mapping(update) and not next(iter(update), "").startswith("$")


class Checked(NamedTuple):
    """What the parse-time checks tell of an update: whether it has a positional `$`, which
    names, in each matched document, the element the filter matched
    (`embedded.writes.positional`); its array filters by identifier, when it has array updates
    (`embedded.writes.array_filters`); the first top-level `$`-prefixed field it writes, which
    a server refuses in each document it applies to (`embedded.writes.field_names`)."""

    dollar: bool
    filters: array_updates.Filters | None
    dollar_field: str | None = None


_PLAIN = Checked(False, None)


def check_update(update: Any, array_filters: Any) -> Checked:
    """The server's parse-time checks of an update."""
    if is_replacement(update):
        if array_filters:
            message = "arrayFilters may not be specified for replacement-style updates"
            raise rules.write_error(rules.FAILED_TO_PARSE, message)
        return _PLAIN
    if is_mapping(update):
        positional.check_paths(update)
        rules.check_update_paths(update)
        dollar = positional.has_positional(update)
        written = field_names.written_dollar_field(update)
        if array_filters or array_updates.has_array_path(update):
            return Checked(dollar, array_updates.parse(update, array_filters), written)
        return Checked(dollar, None, written) if dollar or written else _PLAIN
    rules.check_pipeline(list(update), array_filters=array_filters)
    return _PLAIN


class UpdateChecks(dict[int, tuple[Any, Any, Checked]]):
    """The parse-time checks of the updates of one command (`check_update`), by the identity
    of the update: a bulk of many statements usually sends one pipeline in each."""

    def check(self, update: Any, array_filters: Any) -> Checked:
        found = self.get(id(update))
        if found is not None and found[0] is update and found[1] is array_filters:
            return found[2]
        checked = check_update(update, array_filters)  # a refused update is refused each time
        self[id(update)] = (update, array_filters, checked)  # held: its id stays its own
        return checked
