"""Long lists completed a chunk at a time, the event loop free between chunks.

A plan (runtime/execution/object_fields.py) completes a list in one step: cheap for a page, but a
`recordSensorEvents` payload of hundreds of sensors, each with its 24 hours, would hold the loop
past its slice target in one slice (`python -m bench.costliest`). A planned list field of more than
`CHUNK_ITEMS` items answers `Chunks` instead, which `TypedErrorsExecutionContext.execute_field`
(runtime/execution/executor.py) awaits as the field's value: the same items completed the same way,
`CHUNK_ITEMS` at a time, with a turn of the loop between. The items are objects the resolvers built
and no one changes; an item the plan cannot complete (SLOW) sends the whole field back to
graphql-core, as a short list's does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from runtime.execution.leaf_fields import SLOW, Reader

CHUNK_ITEMS = 100  # a page's worth: lists of a page or less complete in one step, as before
Complete = Callable[[Any], Any]


class ListPlan:
    """A list's completion (each item by `item`): the answers, or SLOW."""

    __slots__ = ("item", "non_null")

    def __init__(self, item: Complete, non_null: bool) -> None:
        self.item, self.non_null = item, non_null

    def __call__(self, value: Any) -> Any:
        if value is None:
            return SLOW if self.non_null else None
        if not isinstance(value, list | tuple):
            return SLOW
        item, answers = self.item, []
        for each in value:
            answer = item(each)
            if answer is SLOW:
                return SLOW
            answers.append(answer)
        return answers


class Chunks:
    """A long list read by a planned field, to complete in chunks (`completed`)."""

    __slots__ = ("item", "values")

    def __init__(self, item: Complete, values: Sequence[Any]) -> None:
        self.item, self.values = item, values

    async def completed(self) -> Any:
        """The answers, as `ListPlan` gives them, or SLOW."""
        item, values, answers = self.item, self.values, []
        for start in range(0, len(values), CHUNK_ITEMS):
            if start:
                await _next_chunk()
            for each in values[start : start + CHUNK_ITEMS]:
                answer = item(each)
                if answer is SLOW:
                    return SLOW
                answers.append(answer)
        return answers


async def _next_chunk() -> None:
    await asyncio.sleep(0)  # the loop's turn: a chunk is one slice


def read_in_chunks(read: Reader, plan: ListPlan) -> Reader:
    """A planned list field's answer from its source: completed at once when short, else
    `Chunks`; SLOW when the read raises (graphql-core makes it this field's error)."""

    def answer(source: Any) -> Any:
        try:
            value = read(source)
        except Exception:
            return SLOW
        if isinstance(value, list | tuple) and len(value) > CHUNK_ITEMS:
            return Chunks(plan.item, value)
        return plan(value)

    return answer
