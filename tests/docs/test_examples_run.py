"""Every GraphQL and curl example of README.md and docs/ runs against a freshly seeded demo
server, twice (examples are written to be run again), and answers no error its text does not
announce (the conventions: tests/docs/examples.py, docs/contributing.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.docs.conftest import DemoServer
from tests.docs.examples import Example, all_examples, answer_codes, judge, operation_names, script

EXAMPLES = all_examples()
# Fewer would mean the search broke, not that the docs lost their examples.
MIN_GRAPHQL_EXAMPLES = 20
MIN_CURL_EXAMPLES = 10
RUNS = 2
# A block that builds or starts something is the reader's to run, never the test's.
STARTS_SERVERS = re.compile(r"(^|[\s;&|(])(docker|make|arraygraph|pip)\s", re.MULTILINE)


def of_kind(kind: str) -> list[Example]:
    return [example for example in EXAMPLES if example.kind == kind]


def test_the_docs_hold_examples_of_both_kinds() -> None:
    assert len(of_kind("graphql")) >= MIN_GRAPHQL_EXAMPLES
    assert len(of_kind("curl")) >= MIN_CURL_EXAMPLES


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("example", of_kind("graphql"), ids=lambda e: e.block.where)
async def test_graphql_example_answers_what_it_announces(
    example: Example, demo_server: DemoServer
) -> None:
    for _ in range(RUNS):
        codes: list[str] = []
        answers: list[str] = []
        for name in operation_names(example.block.text):
            body: dict[str, Any] = {"query": example.block.text, "operationName": name}
            if example.variables is not None:
                body["variables"] = example.variables
            response = await demo_server.client.post("/graphql", json=body)
            codes += answer_codes(response.status_code, response.text)
            answers.append(response.text[:2000])
        judge(example, codes, "\n".join(answers))


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("example", of_kind("curl"), ids=lambda e: e.block.where)
async def test_curl_example_answers_what_it_announces(
    example: Example, demo_server: DemoServer
) -> None:
    commands = script(example.block)
    assert not STARTS_SERVERS.search(commands), f"{example.block.where}: split it from its curls"
    for _ in range(RUNS):
        calls, printed = await demo_server.curl(commands)
        assert calls, f"{example.block.where}: no curl ran:\n{printed}"
        failed = [call.exit_status for call in calls if call.exit_status != 0]
        assert not failed, f"{example.block.where}: curl exited {failed}:\n{printed}"
        codes = [code for call in calls for code in answer_codes(call.status, call.body)]
        judge(example, codes, printed[:4000])


def test_an_error_the_text_does_not_announce_fails() -> None:
    example = next(e for e in EXAMPLES if not e.expected)
    with pytest.raises(AssertionError, match="not announced"):
        judge(example, ["NOT_FOUND"], "{}")


def test_an_announced_error_no_answer_holds_fails() -> None:
    example = next(e for e in EXAMPLES if e.expected)
    with pytest.raises(AssertionError, match="which no answer holds"):
        judge(example, [], "{}")


def test_a_block_without_an_operation_is_refused() -> None:
    with pytest.raises(AssertionError, match="graphql-schema"):
        operation_names("type Sensor { title: String! }")


def test_a_block_that_does_not_parse_is_sent_as_it_is() -> None:
    assert operation_names("{ sensors(first: ) }") == [None]
