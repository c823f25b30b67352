"""One page of a user's embedded orders, cut inside the database.

`orderList` is kept sorted newest first, by `(createTime, _id)` descending, by every write. The
orders after a cursor, and those up to `maxCreateTime`, are therefore each a suffix of the array,
and the orders before a cursor a prefix: a page is one `$slice` once the bounds are known. The
bounds are found by binary search, unrolled into a fixed number of flat `$set` stages, each
reading one element with `$arrayElemAt`. A page costs O(log n) expression steps and the reply
holds only the page, never the whole array (the article's `$unwind`/`$sort`/`$group` costs
O(n log n), its `$slice` has no filter).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from store.expressions import literal

# 2^20 > the most orders a 16 MiB document can hold, so 20 halvings always converge.
SEARCH_STEPS = 20

Expression = dict[str, Any]


@dataclass(frozen=True, slots=True)
class PageArgs:
    """A normalised page request; equal requests are equal keys for the DataLoader."""

    forward: bool
    size: int
    cursor: tuple[datetime, str] | None = None
    max_create_time: datetime | None = None
    count: bool = True  # whether `totalCount` is wanted: it may cost one more search


def _at_or_below(max_time: datetime) -> Callable[[str], Expression]:
    return lambda e: {"$lte": [f"{e}.createTime", literal(max_time)]}


def _after(cursor: tuple[datetime, str], *, inclusive: bool) -> Callable[[str], Expression]:
    """Elements after the cursor in the list's order (older; at equal time, smaller id)."""
    time, order_id = cursor
    id_test = "$lte" if inclusive else "$lt"

    def predicate(e: str) -> Expression:
        return {
            "$or": [
                {"$lt": [f"{e}.createTime", literal(time)]},
                {
                    "$and": [
                        {"$eq": [f"{e}.createTime", literal(time)]},
                        {id_test: [f"{e}._id", literal(order_id)]},
                    ]
                },
            ]
        }

    return predicate


def _search_step(state: str, predicate: Callable[[str], Expression]) -> Expression:
    """One halving of `[lo, hi)` towards the first element for which `predicate` holds."""
    s = f"${state}"
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


def page_pipeline(match: dict[str, Any], args: PageArgs | None) -> list[dict[str, Any]]:
    """Users matching `match`, their order count, and (with `args`) one page of orders.

    Forward: the page starts at the first order that passes the filter and follows the cursor
    (one search), and the order before it tells `hasPreviousPage`. Backward: the page ends at
    the cursor (one search); the n + 1 orders before it, filtered, give the page and
    `hasPreviousPage`. `totalCount` needs the filter's first order: a second search, run only
    when it is asked for and not already known.
    """
    size = {"$size": "$orderList"}
    summary = {"userId": 1, "userType": 1, "name": 1, "orderCount": size}
    stages: list[dict[str, Any]] = [
        {"$match": match},
        {
            "$project": {
                "_id": 0,
                "userId": 1,
                "userType": 1,
                "name": 1,
                "orderList": {"$ifNull": ["$orderList", []]},
            }
        },
    ]
    if args is None:
        return [*stages, {"$project": summary}]

    passes = _at_or_below(args.max_create_time) if args.max_create_time else None
    searches: dict[str, Callable[[str], Expression]] = {}
    if args.forward and (passes or args.cursor):
        conditions = [
            p for p in (passes, args.cursor and _after(args.cursor, inclusive=False)) if p
        ]
        searches["_start"] = lambda e: {"$and": [condition(e) for condition in conditions]}
    if not args.forward and args.cursor:
        searches["_end"] = _after(args.cursor, inclusive=True)
    if passes and args.count and not (args.forward and not args.cursor):
        searches["_first"] = passes
    if searches:
        stages.append({"$set": {name: {"lo": 0, "hi": size} for name in searches}})
        step = {name: _search_step(name, predicate) for name, predicate in searches.items()}
        stages += [{"$set": step}] * SEARCH_STEPS

    # The first order that passes the filter (a bare 0 in $project would mean "exclude").
    first: Any = literal(0)
    if "_first" in searches:
        first = "$_first.lo"
    elif passes and args.forward and not args.cursor:
        first = "$_start.lo"
    result: dict[str, Any] = dict(summary)
    if passes is None or args.count:
        result["first"] = first
    if args.forward:
        start = "$_start.lo" if "_start" in searches else 0
        result["page"] = {"$slice": ["$orderList", start, args.size + 1]}
        before_start = {"$subtract": [start, 1]}
        result["hasPrevious"] = {
            "$cond": [
                {"$gt": [start, 0]},
                _holds_at(passes, before_start) if passes else True,
                False,
            ]
        }
    else:
        end = "$_end.lo" if "_end" in searches else size
        window = _window({"$max": [0, {"$subtract": [end, args.size + 1]}]}, end)
        result["page"] = (
            {"$filter": {"input": window, "as": "o", "cond": passes("$$o")}} if passes else window
        )
        result["hasNext"] = {
            "$cond": [{"$lt": [end, size]}, _holds_at(passes, -1) if passes else True, False]
        }
    stages.append({"$project": result})
    return stages
