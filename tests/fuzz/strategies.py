"""What the fuzz sends, and how much of it.

- documents from the served schema (hypothesis-graphql): queries and mutations, positive
  (valid) and negative (one schema violation each), their literals drawn from the world's ids
  and names, boundary numbers, times and hostile strings; mutations one root field each, so
  that a rejected one can be checked against a snapshot;
- raw requests: documents of GraphQL tokens in any order, several operations, bodies that are
  not JSON objects, other content types, GET, odd operation names and extensions.

`ARRAYGRAPH_FUZZ_EXAMPLES` is the number of operations a run sends, shared out between the
tests; unset, a small run with a fixed seed (`derandomize`), for `make test`. Set (`make
fuzz`), the seed is random, or `--hypothesis-seed`'s.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import graphql
import hypothesis_graphql
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from app import sdl
from tests.fuzz.shapes import Pools
from tests.fuzz.values import hostile_strings, json_values

SDL = sdl()
SCHEMA = graphql.build_schema(SDL)
EXAMPLES = int(os.environ.get("ARRAYGRAPH_FUZZ_EXAMPLES", "").strip() or 0)
LONG = EXAMPLES > 0
QUICK_TOTAL = 1_000  # operations of the quick run, in `make test`


def fuzz_settings(share: float) -> settings:
    """Hypothesis' settings for a test sending `share` of the run's operations."""
    total = EXAMPLES or QUICK_TOTAL
    return settings(
        max_examples=max(5, round(total * share)),
        derandomize=not LONG,
        deadline=None,
        database=None,  # no example database: each run stands on its own seed
        print_blob=LONG,
        suppress_health_check=list(HealthCheck),
    )


def literal(value: Any) -> graphql.ValueNode:
    """A GraphQL literal of a JSON value."""
    if value is None:
        return graphql.NullValueNode()
    if isinstance(value, bool):
        return graphql.BooleanValueNode(value=value)
    if isinstance(value, int):
        return graphql.IntValueNode(value=str(value))
    if isinstance(value, float):
        return (
            graphql.FloatValueNode(value=repr(value)) if value == value else graphql.NullValueNode()
        )
    if isinstance(value, list):
        return graphql.ListValueNode(values=tuple(literal(v) for v in value))
    if isinstance(value, dict):
        fields = tuple(
            graphql.ObjectFieldNode(name=graphql.NameNode(value=key), value=literal(v))
            for key, v in value.items()
            if key.isidentifier() and key.isascii()
        )
        return graphql.ObjectValueNode(fields=fields)
    return graphql.StringValueNode(value=str(value))


def documents(pools: Pools, kind: str, mode: hypothesis_graphql.Mode) -> st.SearchStrategy[str]:
    """hypothesis-graphql's operations of the served schema; mutations one root field each."""
    key = ("documents", kind, mode)
    if key not in pools.memo:
        pools.memo[key] = _documents(pools, kind, mode)
    return pools.memo[key]


def _documents(pools: Pools, kind: str, mode: hypothesis_graphql.Mode) -> st.SearchStrategy[str]:
    scalars = {
        name: pools.scalars[name].map(literal) for name in ("DateTime", "ID", "String", "Int")
    }
    if kind == "query":
        return hypothesis_graphql.queries(SCHEMA, custom_scalars=scalars, mode=mode)
    assert SCHEMA.mutation_type is not None
    return st.one_of(
        [
            hypothesis_graphql.mutations(SCHEMA, fields=[name], custom_scalars=scalars, mode=mode)
            for name in sorted(SCHEMA.mutation_type.fields)
        ]
    )


@dataclass(frozen=True)
class RawRequest:
    method: str
    content: bytes | None
    params: dict[str, str] | None
    content_type: str
    sent: str  # what it carries, as text: words of it echoed in an answer are not leaks
    query: str  # its document, "" when it has none


TOKENS = (
    "{", "}", "(", ")", "[", "]", ":", "=", "!", "|", "&", "@", "$", "...", "$v", "$v: Int",
    "query", "mutation", "subscription", "fragment F on Query", "fragment F on Sensor", "on",
    "F", "...F", "... on Sensor", "... on Node", "@include(if: true)", "@skip(if: $v)",
    "@defer", "@stream", "sensors", "sensor", "node(id: 1)", "user", "measurements",
    "chatSessions", "createSensor", "deleteSensor", "id", "title", "name", "edges", "node",
    "cursor", "totalCount", "__typename", "__schema", "__type(name: \"Query\")", "types",
    "first: 1", "first: -1", "after:", "1", "-1", "1.5e3", "\"s\"", "\"\"\"s\"\"\"", "null",
    "true", "#\n", ",", "\"\\u0000\"", "\"\\uD800\"", "\"\\ud83d\\ude00\"", "a" * 70,
)  # fmt: skip
CONTENT_TYPES = (
    "application/json", "application/json; charset=utf-8", "application/graphql",
    "application/graphql-response+json", "text/plain", "application/x-www-form-urlencoded",
    "multipart/form-data", "", "application/json; charset=latin-1",
)  # fmt: skip


def token_documents() -> st.SearchStrategy[str]:
    word = st.sampled_from(TOKENS) | hostile_strings.map(json.dumps)
    return st.lists(word, max_size=40).map(" ".join)


def several_operations() -> st.SearchStrategy[str]:
    """Documents of two operations or more, named or not, queries and mutations."""
    operation = st.sampled_from(
        [
            "query A { measurements { name } }",
            "query B { chatSessions(first: 1) { totalCount } }",
            'mutation C { createSensor(title: "many") { id } }',
            "{ sensors { totalCount } }",
            'mutation { createChatSession(title: "many") { id } }',
        ]
    )
    return st.lists(operation, min_size=2, max_size=3).map("\n".join)


def payloads() -> st.SearchStrategy[dict[str, Any]]:
    names = st.none() | st.sampled_from(["A", "B", "C", ""]) | hostile_strings | json_values
    extensions = (
        st.none()
        | json_values
        | st.fixed_dictionaries(
            {
                "persistedQuery": st.fixed_dictionaries(
                    {"version": json_values, "sha256Hash": json_values}
                )
            }
        )
    )
    return st.fixed_dictionaries(
        {"query": token_documents() | several_operations() | json_values},
        optional={
            "variables": json_values | st.dictionaries(hostile_strings, json_values, max_size=3),
            "operationName": names,
            "extensions": extensions,
            "documentId": json_values | st.just("sha256:" + "0" * 64),
        },
    )


def _json_post(body: dict[str, Any], content_type: str) -> RawRequest:
    query = body["query"] if isinstance(body.get("query"), str) else ""
    sent = json.dumps(body, ensure_ascii=False)
    return RawRequest("POST", json.dumps(body).encode(), None, content_type, sent, query)


def _other_post(content: bytes, content_type: str) -> RawRequest:
    sent = content.decode("utf-8", "replace")
    return RawRequest("POST", content, None, content_type, sent, "")


def _get(body: dict[str, Any]) -> RawRequest:
    # A URL is at most 64 kB (httpx refuses longer ones before sending): values cut to 4,000.
    params = {key: (v if isinstance(v, str) else json.dumps(v))[:4_000] for key, v in body.items()}
    query = params.get("query", "")
    sent = json.dumps(body, ensure_ascii=False)
    return RawRequest("GET", None, params, "application/json", sent, query)


def raw_requests() -> st.SearchStrategy[RawRequest]:
    content_types = st.sampled_from(CONTENT_TYPES[:2]) | st.sampled_from(CONTENT_TYPES)
    not_object = st.one_of(
        json_values.map(lambda v: json.dumps(v).encode()),
        st.binary(max_size=200),
        st.just(b'{"query": "{ measurements { name } }"'),
        st.just(b"\xff\xfe{}"),
    )
    json_post = st.builds(_json_post, payloads(), content_types)
    other_post = st.builds(_other_post, not_object, content_types)
    return st.one_of(json_post, json_post, json_post, other_post, st.builds(_get, payloads()))
