"""Each caller's cost budget per minute (`ARRAYGRAPH_COST_BUDGET_PER_MINUTE`), kept by this
instance: a token bucket per identity (`Identity.key`), or per client address for anonymous
callers, charged each request's cost (runtime/limits/cost.py) before anything runs.

A bucket holds at most a minute's budget and refills continuously (a sixtieth of it a second);
a request whose cost the bucket does not hold is LIMIT_EXCEEDED with `retryAfter`, the whole
seconds until it would, and nothing runs or is taken. A request that costs more than the whole
budget runs on a full bucket and empties it, so that no query within ARRAYGRAPH_MAX_COST is
refused for ever. The buckets are a bounded LRU: a caller forgotten comes back to a full bucket.
The event loop is the only writer: no lock; a charge within budget is one lookup, two float
operations and a move to the LRU's end.

The client address is the one the server sees: uvicorn's, which takes `X-Forwarded-For` only
from the proxies its `FORWARDED_ALLOW_IPS` names (the loopback address by default). An IPv6
address spends its /64's budget: one client is given a whole /64 and may send from any address
of it, as address-based limits in front of servers count it.
"""

from __future__ import annotations

import functools
import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable

from graphql import GraphQLError

from resolvers.context import Context
from runtime.errors import RequestLimitExceeded

BUCKETS_KEPT = 65_536  # callers kept; a bucket is a few hundred bytes
NO_ADDRESS = "unknown address"  # a transport that tells none (a test client may not)


class CostBudgets:
    """The buckets of one instance, each `[tokens, last refill]`, changed in place."""

    def __init__(
        self,
        per_minute: int,
        *,
        kept: int = BUCKETS_KEPT,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.per_minute = per_minute
        self.per_second = per_minute / 60
        self.kept = kept
        self.clock = clock if clock is not None else time.monotonic
        self.buckets: OrderedDict[str, list[float]] = OrderedDict()

    def charge(self, key: str, cost: int) -> float:
        """Take `cost` from `key`'s bucket: 0 when it was taken, else the seconds until the
        bucket would hold it (nothing taken)."""
        now = self.clock()
        budget = self.per_minute
        wanted = min(cost, budget)  # more than the budget: a full bucket pays for it
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self._new(key, now)
        else:
            self.buckets.move_to_end(key)
            held = bucket[0] + (now - bucket[1]) * self.per_second
            bucket[0] = held if held < budget else budget
            bucket[1] = now
        if bucket[0] >= wanted:
            bucket[0] -= wanted
            return 0.0
        return (wanted - bucket[0]) / self.per_second

    def _new(self, key: str, now: float) -> list[float]:
        buckets = self.buckets
        if len(buckets) >= self.kept:
            buckets.popitem(last=False)  # the least recently charged
        bucket = buckets[key] = [float(self.per_minute), now]
        return bucket


def caller_key(context: Context) -> str:
    """Whose budget a request spends: its identity's, or for an anonymous caller (and one whose
    credential was not accepted) its client address's."""
    identity = context.identity_at_hand()
    if identity is not None and not identity.is_anonymous:
        return identity.key
    request = context.request
    client = request.scope.get("client") if request is not None else None
    return address_key(client[0]) if client else NO_ADDRESS


@functools.lru_cache(maxsize=4096)
def address_key(host: str) -> str:
    """An address's budget's key: an IPv4 address (mapped into IPv6 too) itself, an IPv6
    one its /64. No identity's key (`user:...`, `service:...`) is one, so the two never meet."""
    if ":" not in host:
        return host
    try:
        address = ipaddress.IPv6Address(host.split("%", 1)[0])  # no zone: one interface's
    except ValueError:
        return host  # a transport's own name for its peer (a Unix socket's)
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(ipaddress.IPv6Network((address, 64), strict=False))


def budget_charge(budgets: CostBudgets) -> Callable[[Context, int], GraphQLError | None]:
    """The runtime's `Charge`: LIMIT_EXCEEDED with `retryAfter` once the caller's budget is
    spent."""

    def charge(context: Context, cost: int) -> GraphQLError | None:
        wait = budgets.charge(caller_key(context), cost)
        if not wait:
            return None
        retry_after = max(1, math.ceil(wait))
        return RequestLimitExceeded(
            f"cost {cost} is over what is left of this caller's budget of "
            f"ARRAYGRAPH_COST_BUDGET_PER_MINUTE {budgets.per_minute}: retry in {retry_after} s",
            extensions={
                "code": "LIMIT_EXCEEDED",
                "cost": cost,
                "budgetPerMinute": budgets.per_minute,
                "retryAfter": retry_after,
            },
        )

    return charge
