"""The server's parse-time checks of an update (before any document is read), and the checks
of one command's updates, each update checked once however many statements send it."""

from __future__ import annotations

from typing import Any

from embedded import rules
from embedded.stages.plain_stages import is_mapping
from embedded.writes import positional


def is_replacement(update: Any) -> bool:
    """A replacement document, as opposed to operators (`$set`...) or a pipeline (a list): as a
    server tells them, by the first field's name (a replacement may hold `$`-prefixed ones)."""
    return is_mapping(update) and not next(iter(update), "").startswith("$")


def check_update(update: Any, array_filters: Any) -> bool:
    """The server's parse-time checks of an update; whether it has a positional `$`, which names, in
    each matched document, the element the filter matched (`embedded.writes.positional`)."""
    if is_replacement(update):
        return False
    if is_mapping(update):
        positional.check_paths(update)
        rules.check_update_paths(update)
        return positional.has_positional(update)
    rules.check_pipeline(list(update), array_filters=array_filters)
    return False


class UpdateChecks(dict[int, tuple[Any, Any, bool]]):
    """The parse-time checks of the updates of one command (`check_update`), by the identity
    of the update: a bulk of many statements usually sends one pipeline in each."""

    def check(self, update: Any, array_filters: Any) -> bool:
        found = self.get(id(update))
        if found is not None and found[0] is update and found[1] is array_filters:
            return found[2]
        dollar = check_update(update, array_filters)  # a refused update is refused each time
        self[id(update)] = (update, array_filters, dollar)  # held: its id stays its own
        return dollar
