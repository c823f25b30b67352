"""GraphQL documents and data the time-series tests share."""

from __future__ import annotations

from typing import Any

from tests.support import Api

RECORD = """
mutation($o: [ObservationInput!]!) { recordObservations(observations: $o) { applied } }
"""
SERIES = """
query($m: String!, $tags: [TagInput!], $from: DateTime!, $to: DateTime!, $g: Granularity!,
      $tz: String, $fields: [String!]) {
  series(measurement: $m, tags: $tags, from: $from, to: $to, granularity: $g, timeZone: $tz,
         fields: $fields) {
    start values { name sum count min max mean }
  }
}
"""
TOTAL = """
query($m: String!, $tags: [TagInput!], $from: DateTime!, $to: DateTime!, $fields: [String!]) {
  seriesTotal(measurement: $m, tags: $tags, from: $from, to: $to, fields: $fields) {
    name sum count min max mean
  }
}
"""
# The article's table (../shared/seeds/002): time, butterflies, honeybees, location, scientist.
ARTICLE_ROWS = [
    ("2015-08-18T00:00:00Z", 12, 23, "1", "langstroth"),
    ("2015-08-18T00:00:00Z", 1, 30, "1", "perpetua"),
    ("2015-08-18T00:06:00Z", 11, 28, "1", "langstroth"),
    ("2015-08-18T00:06:00Z", 3, 28, "1", "perpetua"),
    ("2015-08-18T05:54:00Z", 2, 11, "2", "langstroth"),
    ("2015-08-18T06:00:00Z", 1, 10, "2", "langstroth"),
    ("2015-08-18T06:06:00Z", 8, 23, "2", "perpetua"),
    ("2015-08-18T06:12:00Z", 7, 22, "2", "perpetua"),
]


def tags(**pairs: str) -> list[dict[str, str]]:
    return [{"key": key, "value": value} for key, value in pairs.items()]


def observation(
    at: str, measurement: str = "m", tag_pairs: dict[str, str] | None = None, **fields: float
) -> dict[str, Any]:
    return {
        "measurement": measurement,
        "at": at,
        "tags": tags(**(tag_pairs or {})),
        "fields": [{"name": name, "value": value} for name, value in fields.items()],
    }


def article_observations() -> list[dict[str, Any]]:
    return [
        observation(
            at, "insects", {"location": location, "scientist": scientist},
            butterflies=butterflies, honeybees=honeybees,
        )
        for at, butterflies, honeybees, location, scientist in ARTICLE_ROWS
    ]  # fmt: skip


async def record(api: Api, *observations: dict[str, Any]) -> int:
    data = await api.data(RECORD, {"o": list(observations)})
    applied: int = data["recordObservations"]["applied"]
    return applied


def sums(values: list[dict[str, Any]]) -> dict[str, float]:
    return {value["name"]: value["sum"] for value in values}
