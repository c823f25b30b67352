"""The query GraphiQL opens with: one short look at each domain of the demo data
(`arraygraph serve --demo`, what `make run` starts), so that the first Ctrl-Enter shows data.

Fixed dates only (the demo's weather is placed relative to now): the weather total spans this
century. Anonymous: GraphiQL keeps sending an operation's name after the editor's text no
longer has it, and a query typed over this one would be refused ("Unknown operation named").
A test runs this exact text against the demo and expects data and no error.
"""

from __future__ import annotations

EXAMPLE_QUERY = """\
# arraygraph, on the demo data that `make run` loads.
# Run it: Ctrl-Enter (or the play button). Ctrl-Space completes a field;
# the Docs and Explorer panels, on the left, list them all.
# A server with credentials configured wants a bearer token: in the Headers tab
# below, {"Authorization": "Bearer <token>"} (docs/security.md, "In GraphiQL").
{
  # Sensors: the seed article's two, with their events of the last 24 hours.
  sensors(first: 2) {
    edges { node { title count24h lastEventAt } }
  }
  # Users and orders: u1's 200 orders, newest first, a page at a time.
  user(userId: "u1") {
    name
    orderCount
    orders(first: 3) { edges { node { orderId createTime info } } }
  }
  # Customers and trades: customer 123's trades, kept in buckets of 10.
  customer(customerId: 123) {
    tradeCount
    trades(first: 2) { edges { node { type ticker qty date } } }
  }
  # Time series: butterflies and honeybees the article's scientists counted
  # at location 1, and the north station's weather summed up this century.
  insects: seriesTotal(
    measurement: "insects", from: "2015-08-18T00:00:00Z", to: "2015-08-19T00:00:00Z"
    tags: [{ key: "location", value: "1" }]
  ) { name sum count }
  weather: seriesTotal(
    measurement: "weather", from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z"
    tags: [{ key: "station", value: "north" }]
  ) { name count min max mean }
  # Chat: the demo session's three newest messages.
  chatSessions(first: 1) {
    edges {
      node {
        title
        messageCount
        messages(last: 3) { edges { node { seq author text sentAt } } }
      }
    }
  }
}
"""
