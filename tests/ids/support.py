"""GraphQL documents the id tests share: each writes or reads one object by a free-text id."""

from __future__ import annotations

from resolvers.global_ids import global_id

BOB = global_id("User", "bob")
ALPHA = global_id("Measurement", "alpha")
UPSERT = """
mutation($u: String!, $o: ID!) {
  upsertOrders(userId: $u, orders: [{id: $o, createTime: "2024-01-01T00:00:00Z"}]) {
    id userId orders(first: 100) { edges { node { id orderId } } }
  }
}
"""
RECORD = """
mutation($x: String!, $v: Float! = 1, $at: DateTime! = "2024-01-01T00:30:00Z") {
  recordObservations(observations: [{measurement: $x, at: $at, tags: [],
                                     fields: [{name: "bees", value: $v}]}]) { applied }
}
"""
SPAN = 'from: "2024-01-01T00:00:00Z", to: "2024-01-02T00:00:00Z"'
# (name, document, argument): each reads or writes what its `$x` names.
BY_USER_ID = [
    ("user", "query($x: String!) { user(userId: $x) { userId } }", "userId"),
    ("users", "query($x: String!) { users(userIds: [$x]) { userId } }", "userIds[0]"),
    ("upsertOrders",
     'mutation($x: String!) { upsertOrders(userId: $x, orders: [{id: "9", '
     'createTime: "2024-01-01T00:00:00Z"}]) { userId } }', "userId"),
    ("deleteOrders",
     'mutation($x: String!) { deleteOrders(userId: $x, orderIds: ["1"]) { userId } }', "userId"),
]  # fmt: skip
BY_MEASUREMENT = [
    ("measurement", "query($x: String!) { measurement(name: $x) { name } }", "name"),
    ("series",
     f"query($x: String!) {{ series(measurement: $x, {SPAN}, granularity: DAY) {{ start }} }}",
     "measurement"),
    ("seriesTotal",
     f"query($x: String!) {{ seriesTotal(measurement: $x, {SPAN}) {{ sum }} }}", "measurement"),
    ("recordObservations", RECORD, "observations[0].measurement"),
]  # fmt: skip
