"""One page of a user's embedded orders, cut inside the database.

`orderList` is kept sorted newest first, by `(createTime, _id)` descending, by every write. The
orders after a cursor, and those up to `maxCreateTime`, are therefore each a suffix of the array,
and the orders before a cursor a prefix: a page is one `$slice` once the bounds are known. The
bounds are found by binary search: twenty halvings, five to a `$set` stage, each reading one
element with `$arrayElemAt`. A page costs O(log n) expression steps and the reply
holds only the page, never the whole array (the article's `$unwind`/`$sort`/`$group` costs
O(n log n), its `$slice` has no filter).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple

from store.expressions import literal

# 2^20 > the most orders a 16 MiB document can hold, so 20 halvings always converge.
SEARCH_STEPS = 20
STEPS_PER_STAGE = 5  # nested within one stage; the nesting stays far below 100 levels

Expression = dict[str, Any]


class OrderPosition(NamedTuple):
    """An order's place in the list: the list is sorted by these two, descending."""

    create_time: datetime
    id: str


@dataclass(frozen=True, slots=True)
class PageArgs:
    """A normalised page request; equal requests are equal keys for the DataLoader."""

    forward: bool
    size: int
    cursor: OrderPosition | None = None
    max_create_time: datetime | None = None
    count: bool = True  # whether `totalCount` is wanted: it may cost one more search


# Request values travel as the aggregation's `let` variables, never inside the pipeline: the
# pipeline of a page shape is built once, and a user value can never become an operator.
def _passes(e: str) -> Expression:
    """The filter: created at or before `maxTime`."""
    return {"$lte": [f"{e}.createTime", "$$maxTime"]}


def _after(*, inclusive: bool) -> Callable[[str], Expression]:
    """Elements after the cursor in the list's order (older; at equal time, smaller id)."""
    id_test = "$lte" if inclusive else "$lt"

    def predicate(e: str) -> Expression:
        return {
            "$or": [
                {"$lt": [f"{e}.createTime", "$$cursorTime"]},
                {
                    "$and": [
                        {"$eq": [f"{e}.createTime", "$$cursorTime"]},
                        {id_test: [f"{e}._id", "$$cursorId"]},
                    ]
                },
            ]
        }

    return predicate


def _search_step(s: str, predicate: Callable[[str], Expression]) -> Expression:
    """One halving of `[lo, hi)`, read from `s` (a field or a variable), towards the first
    element for which `predicate` holds."""
    # $floor gives an integral number, which $arrayElemAt and $slice accept as an index.
    midpoint = {"$floor": {"$divide": [{"$add": [f"{s}.lo", f"{s}.hi"]}, 2]}}
    probe = {
        "$let": {
            "vars": {"e": {"$arrayElemAt": ["$orderList", "$$mid"]}},
            "in": {
                "$cond": [
                    predicate("$$e"),
                    {"lo": f"{s}.lo", "hi": "$$mid"},
                    {"lo": {"$add": ["$$mid", 1]}, "hi": f"{s}.hi"},
                ]
            },
        }
    }
    return {
        "$cond": [
            {"$lt": [f"{s}.lo", f"{s}.hi"]},
            {"$let": {"vars": {"mid": midpoint}, "in": probe}},
            s,
        ]
    }


def _search_stage(name: str, predicate: Callable[[str], Expression]) -> Expression:
    """`STEPS_PER_STAGE` halvings of the state in field `name`, chained through variables:
    fewer stages, each of which costs a pass over the document."""
    expression = _search_step(f"${name}", predicate)
    for i in range(1, STEPS_PER_STAGE):
        variable = f"s{i}"
        expression = {
            "$let": {"vars": {variable: expression}, "in": _search_step(f"$${variable}", predicate)}
        }
    return expression


def _element(index: Any) -> Expression:
    return {"$arrayElemAt": ["$orderList", index]}


def _holds_at(predicate: Callable[[str], Expression], index: Any) -> Expression:
    return {"$let": {"vars": {"e": _element(index)}, "in": predicate("$$e")}}


def _window(start: Any, end: Any) -> Expression:
    """`orderList[start:end]`, with `start` and `end` bound as `$$start` and `$$end`."""
    return {
        "$let": {
            "vars": {"start": start},
            "in": {
                "$let": {
                    "vars": {"end": end},
                    "in": {
                        "$cond": [
                            {"$gt": ["$$end", "$$start"]},
                            {
                                "$slice": [
                                    "$orderList",
                                    "$$start",
                                    {"$subtract": ["$$end", "$$start"]},
                                ]
                            },
                            [],
                        ]
                    },
                }
            },
        }
    }


def page_variables(args: PageArgs) -> dict[str, Any]:
    """The `let` variables of a page request, each a literal."""
    variables: dict[str, Any] = {"pageSize": literal(args.size + 1)}
    if args.max_create_time is not None:
        variables["maxTime"] = literal(args.max_create_time)
    if args.cursor is not None:
        variables["cursorTime"] = literal(args.cursor[0])
        variables["cursorId"] = literal(args.cursor[1])
    return variables


def page_pipeline(match: dict[str, Any], args: PageArgs | None) -> list[dict[str, Any]]:
    """Users matching `match`, their order count, and (with `args`) one page of orders; run it
    with `page_variables(args)` as the aggregation's `let`."""
    if args is None:
        return [{"$match": match}, *_summary_stages()]
    shape = (args.forward, args.max_create_time is not None, args.cursor is not None, args.count)
    return [{"$match": match}, *_page_stages(*shape)]


_SIZE = {"$size": "$orderList"}
_SUMMARY = {"userId": 1, "userType": 1, "name": 1, "orderCount": _SIZE}
_OWN_FIELDS = {
    "$project": {
        "_id": 0,
        "userId": 1,
        "userType": 1,
        "name": 1,
        "orderList": {"$ifNull": ["$orderList", []]},
    }
}


@lru_cache(maxsize=1)
def _summary_stages() -> tuple[dict[str, Any], ...]:
    return (_OWN_FIELDS, {"$project": _SUMMARY})


Predicate = Callable[[str], Expression]


def _searches(
    forward: bool, passes: Predicate | None, cursor: bool, count: bool
) -> dict[str, Predicate]:
    """The binary searches a page shape needs, by the field that holds each one's state."""
    searches: dict[str, Predicate] = {}
    if forward and (passes or cursor):
        conditions = [p for p in (passes, cursor and _after(inclusive=False)) if p]
        searches["_start"] = lambda e: {"$and": [condition(e) for condition in conditions]}
    if not forward and cursor:
        searches["_end"] = _after(inclusive=True)
    if passes and count and not (forward and not cursor):
        searches["_first"] = passes
    return searches


def _page_fields(
    forward: bool, passes: Predicate | None, searches: dict[str, Predicate]
) -> dict[str, Any]:
    """The page, and the order just outside it that tells whether more exist that way."""
    if forward:
        start = "$_start.lo" if "_start" in searches else 0
        before_start = {"$subtract": [start, 1]}
        outside = _holds_at(passes, before_start) if passes else True
        return {
            "page": {"$slice": ["$orderList", start, "$$pageSize"]},
            "hasPrevious": {"$cond": [{"$gt": [start, 0]}, outside, False]},
        }
    end = "$_end.lo" if "_end" in searches else _SIZE
    window = _window({"$max": [0, {"$subtract": [end, "$$pageSize"]}]}, end)
    outside = _holds_at(passes, -1) if passes else True
    return {
        "page": (
            {"$filter": {"input": window, "as": "o", "cond": passes("$$o")}} if passes else window
        ),
        "hasNext": {"$cond": [{"$lt": [end, _SIZE]}, outside, False]},
    }


@lru_cache(maxsize=16)
def _page_stages(
    forward: bool, filtered: bool, cursor: bool, count: bool
) -> tuple[dict[str, Any], ...]:
    """The stages of one page shape, built once (and never changed: they are shared).

    Forward: the page starts at the first order that passes the filter and follows the cursor
    (one search), and the order before it tells `hasPreviousPage`. Backward: the page ends at
    the cursor (one search); the n + 1 orders before it, filtered, give the page and
    `hasPreviousPage`. `totalCount` needs the filter's first order: a second search, run only
    when it is asked for and not already known.
    """
    stages: list[dict[str, Any]] = [_OWN_FIELDS]
    passes = _passes if filtered else None
    searches = _searches(forward, passes, cursor, count)
    if searches:
        stages.append({"$set": {name: {"lo": 0, "hi": _SIZE} for name in searches}})
        step = {name: _search_stage(name, predicate) for name, predicate in searches.items()}
        stages += [{"$set": step}] * (SEARCH_STEPS // STEPS_PER_STAGE)
    # The first order that passes the filter (a bare 0 in $project would mean "exclude").
    first: Any = literal(0)
    if "_first" in searches:
        first = "$_first.lo"
    elif passes and forward and not cursor:
        first = "$_start.lo"
    result: dict[str, Any] = dict(_SUMMARY)
    if passes is None or count:
        result["first"] = first
    result |= _page_fields(forward, passes, searches)
    stages.append({"$project": result})
    return tuple(stages)
