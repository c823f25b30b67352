"""4. An orders page of a user holding 10,000 orders, against the bare endpoint.
5. A customer's trades page next to a customer of 10,000 trades, against the same page when it
is alone; and the commands a 100-trade `recordTrades` sends (from the app's /metrics).
6. The resident memory of the server holding 10,000 sensors, 50,000 orders and 10,000 trades.
The embedded engine keeps documents in the process as Python objects, several times their BSON
size; the bound printed (the issue sets none) is the 100-sensor server's RSS plus
DATA_RSS_FACTOR times the BSON size of the difference in data."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bench.fleet import LARGE, SMALL, Options, Servers
from bench.load import post_request, read_status_and_body, request_once
from bench.measure import Load, cost_ratio, figures, interleave, rate_ratio, ratio_line, verdict
from bench.overhead import TYPENAME, graphql
from bench.seed import CUSTOMER, CUSTOMER_TRADES, NEIGHBOUR, data_bytes
from bench.server import Server, rss_mib

ORDERS_PAGE = (
    "query($u: String!) { user(userId: $u) { orders(first: 20) {"
    " edges { cursor node { orderId info createTime } } pageInfo { hasNextPage } } } }"
)
TRADES_PAGE = (
    "query($c: Int!) { customer(customerId: $c) { trades(%s: 10) {"
    " edges { cursor node { type ticker qty date } } } } }"
)
RECORD_TRADES = (
    "mutation($c: Int!, $t: [TradeInput!]!) { recordTrades(customerId: $c, trades: $t) {"
    " pageNumbers } }"
)
NEW_CUSTOMER = 2_000
MIB = 1024 * 1024
DATA_RSS_FACTOR = 8  # RSS the data may take per byte of its BSON


async def orders(servers: Servers, options: Options) -> None:
    bare, large = servers.bare, servers.large
    user = LARGE.user_ids()[0]
    loads = [
        Load("bare", bare, post_request("/json", {"query": TYPENAME}, port=bare.port)),
        Load("orders", large, graphql(large, ORDERS_PAGE, {"u": user})),
    ]
    found = await interleave(
        loads, rounds=options.rounds, seconds=options.seconds, connections=options.connections
    )
    print("4. user.orders(first: 20) of a user of 10,000 orders (50,000 on the server)")
    print(f"    {'bare Starlette JSON endpoint':<52} {figures(found['bare'])}")
    print(f"    {'orders page':<52} {figures(found['orders'])}")
    by_cpu = cost_ratio(found["bare"], found["orders"])
    print(
        ratio_line(
            "orders page / bare", by_cpu, rate_ratio(found["orders"], found["bare"]), ">=", 0.1
        )
    )


async def trades(servers: Servers, options: Options) -> None:
    print(
        f"5. a customer's trades, {CUSTOMER_TRADES} of them: alone, and next to a customer of "
        f"{LARGE.neighbour_trades:,} ({CUSTOMER} and {NEIGHBOUR})"
    )
    for direction in ("first", "last"):
        query = TRADES_PAGE % direction
        loads = [
            Load("alone", servers.small, graphql(servers.small, query, {"c": CUSTOMER})),
            Load("next to", servers.large, graphql(servers.large, query, {"c": CUSTOMER})),
        ]
        found = await interleave(
            loads, rounds=options.rounds, seconds=options.seconds, connections=options.connections
        )
        print(f"    trades({direction}: 10)")
        for name, samples in found.items():
            print(f"      {name:<50} {figures(samples)}")
        alone, beside = found["alone"], found["next to"]
        by_cpu, by_rate = cost_ratio(beside, alone), rate_ratio(alone, beside)
        print(ratio_line("  next to / alone, CPU per request", by_cpu, by_rate, "<=", 1.5))
    await commands(servers.small)


async def commands_sent(server: Server) -> int:
    """The app's count of MongoDB commands so far (`arraygraph_mongodb_commands_total`)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(f"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    status, body = await read_status_and_body(reader)
    writer.close()
    if status != 200:
        raise RuntimeError(f"/metrics answered HTTP {status}")
    prefix = "arraygraph_mongodb_commands_total{"
    lines = body.decode().splitlines()
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in lines if line.startswith(prefix))


async def commands(server: Server) -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    batch = [
        {
            "type": "BUY",
            "ticker": "MDB",
            "qty": n + 1,
            "date": (start + timedelta(minutes=n)).isoformat(),
        }
        for n in range(100)
    ]
    request = graphql(server, RECORD_TRADES, {"c": NEW_CUSTOMER, "t": batch})
    for label in ("a new customer", "the same again (newest bucket full)"):
        before = await commands_sent(server)
        answer = await request_once(server.port, request)
        if b'"errors"' in answer:
            raise RuntimeError(f"recordTrades failed: {answer[:300]!r}")
        sent = await commands_sent(server) - before
        label = f"commands, recordTrades of 100 trades, {label}"
        print(f"    {label:<75} {sent:5d}  {verdict(sent, '<=', 2)}")


async def memory(servers: Servers) -> None:
    large, small = rss_mib(servers.large.pid), rss_mib(servers.small.pid)
    data = (data_bytes(LARGE) - data_bytes(SMALL)) / MIB
    bound = small + DATA_RSS_FACTOR * data
    print(
        f"6. server RSS, {LARGE.sensors:,} sensors, {LARGE.orders:,} orders, "
        f"{LARGE.neighbour_trades + CUSTOMER_TRADES:,} trades, after the runs above"
    )
    print(f"    RSS of the server of 100 sensors (the baseline)      {small:8.1f} MiB")
    print(f"    the data's size in BSON, beyond the baseline's       {data:8.1f} MiB")
    print(
        f"    RSS of the server holding it all                     {large:8.1f} MiB  "
        f"(bound: baseline + {DATA_RSS_FACTOR} x BSON = {bound:.1f} MiB)  "
        + verdict(large, "<=", round(bound, 1))
    )


async def run(servers: Servers, options: Options) -> None:
    await orders(servers, options)
    await trades(servers, options)
    await memory(servers)
