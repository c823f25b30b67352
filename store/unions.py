"""Many small reads of one collection in one command: each a pipeline of its own (a branch),
joined with `$unionWith`, each row tagged with its branch's number.

Every branch runs on its own index range, as it would as a command of its own; the union only
saves the round trips. A server refuses more than 1,000 stages in a pipeline, so a command holds
at most `BRANCHES_PER_COMMAND` branches, and more branches take one command per that many.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from store.expressions import literal
from store.protocols import AsyncCollection, Document

BRANCHES_PER_COMMAND = 300
BRANCH_FIELD = "_branch"


def tagged(stages: list[dict[str, Any]], branch: int) -> list[dict[str, Any]]:
    """A branch whose rows say which branch they came from (in `BRANCH_FIELD`)."""
    return [*stages, {"$set": {BRANCH_FIELD: literal(branch)}}]


async def read_branches(
    coll: AsyncCollection, *, branches: Sequence[list[dict[str, Any]]], rows_at_most: int
) -> list[list[Document]]:
    """The rows of each branch, in the order each branch gives them: one command for up to
    `BRANCHES_PER_COMMAND` branches. `rows_at_most` bounds the rows of all branches together,
    so that the reply comes in its first batch."""
    found: list[list[Document]] = [[] for _ in branches]
    for start in range(0, len(branches), BRANCHES_PER_COMMAND):
        chunk = range(start, min(start + BRANCHES_PER_COMMAND, len(branches)))
        pipeline = tagged(branches[chunk[0]], chunk[0])
        for branch in chunk[1:]:
            union = {"coll": coll.name, "pipeline": tagged(branches[branch], branch)}
            pipeline.append({"$unionWith": union})
        cursor = await coll.aggregate(pipeline, batchSize=rows_at_most + 1)
        for row in await cursor.to_list():
            found[int(row.pop(BRANCH_FIELD))].append(row)
    return found
