"""The examples of README.md and docs/: every ```graphql block, and every ```sh, ```bash,
```shell or ```console block that calls `curl`; what each announces; how its answers are read.

Conventions (docs/contributing.md, "Examples that run"):
- `<!-- expect: NOT_FOUND -->` on the line before a block announces the error codes its answers
  hold (comma-separated; `HTTP_404` for an HTTP status without a GraphQL code). An answer with
  a code not announced fails, and so does an announced code no answer holds.
- A ```json block right after a ```graphql block (at most one line of prose between) holds the
  operation's variables.
- A document of several operations runs each, in order, by name.
- SDL and fragments alone go in ```graphql-schema blocks, which are not run.
- Examples run against the demo data with `ARRAYGRAPH_API_TOKENS` set: GraphQL blocks are sent
  with the token, curl blocks run with `URL` (the /graphql endpoint), `TOKEN` and `JWT` (a
  user's token the server verifies) set, and every curl mutation sends a bearer header.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphql import GraphQLError, OperationDefinitionNode, parse

from tests.docs.markdown import Block, blocks, pages

SHELLS = frozenset({"sh", "bash", "shell", "console"})
CURL = re.compile(r"(^|[\s;|&(])curl\s")
EXPECT = re.compile(r"^expect:\s*(.+)$")
DOCS_ORIGIN = "http://127.0.0.1:8000"  # what the docs call; the test's server replaces it
MAX_VARIABLES_GAP = 3  # lines between a ```graphql block's end and its ```json variables


@dataclass(frozen=True)
class Example:
    block: Block
    expected: frozenset[str]
    variables: dict[str, Any] | None = None

    @property
    def kind(self) -> str:
        return "graphql" if self.block.info == "graphql" else "curl"


def expected_codes(block: Block) -> frozenset[str]:
    found = EXPECT.match(block.note or "")
    if found is None:
        return frozenset()
    return frozenset(code.strip() for code in found.group(1).split(",") if code.strip())


def _end_line(block: Block) -> int:
    return block.line + block.text.count("\n") + 1


def _variables(block: Block, following: Block | None) -> dict[str, Any] | None:
    if following is None or following.info != "json":
        return None
    if following.line - _end_line(block) > MAX_VARIABLES_GAP:
        return None
    loaded = json.loads(following.text)
    assert isinstance(loaded, dict), f"{following.where}: variables must be a JSON object"
    return loaded


def examples_of(page: Path) -> list[Example]:
    found: list[Example] = []
    page_blocks = blocks(page)
    for index, block in enumerate(page_blocks):
        following = page_blocks[index + 1] if index + 1 < len(page_blocks) else None
        if block.info == "graphql":
            found.append(Example(block, expected_codes(block), _variables(block, following)))
        elif block.info in SHELLS and CURL.search(block.text):
            found.append(Example(block, expected_codes(block)))
    return found


def all_examples() -> list[Example]:
    return [example for page in pages() for example in examples_of(page)]


def operation_names(document: str) -> list[str | None]:
    """The operations to run, in order: by name when the document holds several; the document
    as it is when it does not parse (the server's answer says so)."""
    try:
        definitions = parse(document).definitions
    except GraphQLError:
        return [None]
    operations = [d for d in definitions if isinstance(d, OperationDefinitionNode)]
    assert operations, "no operation: SDL and fragments alone go in a ```graphql-schema block"
    if len(operations) == 1:
        return [None]
    return [op.name.value if op.name else None for op in operations]


def script(block: Block) -> str:
    """The shell commands of a block: a ```console block's `$ ` lines and their continuations,
    any other block whole."""
    if block.info != "console":
        return block.text
    commands: list[str] = []
    continued = False
    for line in block.text.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:])
        elif continued:
            commands.append(line)
        else:
            continue
        continued = line.rstrip().endswith("\\")
    return "\n".join(commands) + "\n"


def answer_codes(status: int, body: str) -> list[str]:
    """The error codes of one answer: each error's `extensions.code`, else `HTTP_<status>` for
    a status of 400 or more."""
    try:
        answer = json.loads(body)
    except ValueError:
        answer = None
    codes: list[str] = []
    if isinstance(answer, dict):
        for error in answer.get("errors") or []:
            code = (error.get("extensions") or {}).get("code") if isinstance(error, dict) else None
            codes.append(str(code) if code else "NO_CODE")
    if not codes and status >= 400:
        codes.append(f"HTTP_{status}")
    return codes


def judge(example: Example, codes: list[str], answers: str) -> None:
    """Fail unless the codes are exactly those the example announces."""
    unannounced = sorted(set(codes) - example.expected)
    missing = sorted(example.expected - set(codes))
    where = f"{example.block.where} ({example.kind})"
    assert not unannounced, f"{where} answered {unannounced}, not announced:\n{answers}"
    assert not missing, f"{where} announces {missing}, which no answer holds:\n{answers}"
