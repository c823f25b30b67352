"""docs/clients.md shows the TypeScript project as it is, and the project's Apollo cache set-up
covers the schema: a connection added without its type policy, or a page that drifts from the
code it shows, fails here (without node: these read files only)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from graphql import GraphQLInterfaceType, GraphQLObjectType, build_schema, get_named_type

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "clients.md"
PROJECT = ROOT / "tests" / "clients" / "typescript"
CLIENT = PROJECT / "src" / "client.ts"
# A fenced block whose first line names a file of the project: `// <path>` shows the whole
# file, `// <path>, excerpt` a run of its lines.
FENCE = re.compile(
    r"^```[\w-]*\n(// (tests/clients/typescript/\S+?)(, excerpt)?\n.*?)^```$", re.M | re.S
)
PAGING = frozenset({"first", "after", "last", "before"})
POLICY = re.compile(r"(\w+): relayStylePagination\(([^)]*)\)")
TABLE_ROW = re.compile(r"^\| `(\w+)\.(\w+)\(([^)]*)\)` \| (.+?) \|", re.M)


def shown_files() -> list[tuple[str, str, bool]]:
    """(path, block text, whether an excerpt) for every block that names a project file."""
    text = PAGE.read_text(encoding="utf-8")
    return [(m.group(2), m.group(1), m.group(3) is not None) for m in FENCE.finditer(text)]


def connections() -> dict[tuple[str, str], list[str]]:
    """Every field answering a connection and taking arguments: (type, field) -> arguments."""
    schema = build_schema((ROOT / "schema.graphql").read_text(encoding="utf-8"))
    found: dict[tuple[str, str], list[str]] = {}
    for type_name, named in schema.type_map.items():
        if not isinstance(named, GraphQLObjectType) or type_name.startswith("__"):
            continue
        for field_name, field in named.fields.items():
            if get_named_type(field.type).name.endswith("Connection") and field.args:
                found[(type_name, field_name)] = list(field.args)
    return found


def test_every_project_file_the_page_shows_is_that_file_word_for_word() -> None:
    shown = shown_files()
    assert shown, "docs/clients.md shows no file of tests/clients/typescript"
    for path, block, excerpt in shown:
        actual = (ROOT / path).read_text(encoding="utf-8")
        if excerpt:
            assert block.split("\n", 1)[1] in actual, f"{path}: the page's excerpt drifted"
        else:
            assert block == actual, f"{path}: docs/clients.md shows another version"


def test_the_page_shows_the_client_the_codegen_config_and_the_compiler_options() -> None:
    whole = {path for path, _, excerpt in shown_files() if not excerpt}
    names = (
        "src/client.ts",
        "src/documents.ts",
        "codegen.ts",
        "tsconfig.json",
        "relay/UserOrders.ts",
    )
    assert {f"tests/clients/typescript/{name}" for name in names} <= whole


def test_the_relay_configuration_shown_is_the_projects() -> None:
    configs = [
        json.loads(block)
        for block in re.findall(r"^```json\n(.*?)^```$", PAGE.read_text(), re.M | re.S)
        if '"customScalarTypes"' in block
    ]
    assert configs == [json.loads((PROJECT / "relay.config.json").read_text())]


def test_every_connection_with_arguments_has_a_type_policy_keyed_by_its_filters() -> None:
    policies = {field: keys for field, keys in POLICY.findall(CLIENT.read_text())}
    for (type_name, field), arguments in connections().items():
        key_args = [f'"{name}"' for name in arguments if name not in PAGING]
        expected = f"[{', '.join(key_args)}]" if key_args else ""
        assert policies.get(field) == expected, f"{type_name}.{field}: relayStylePagination?"


def test_the_page_lists_every_connection_with_its_arguments_and_key_arguments() -> None:
    rows = {
        (type_name, field): (arguments.split(", "), keys)
        for type_name, field, arguments, keys in TABLE_ROW.findall(PAGE.read_text())
    }
    for key, arguments in connections().items():
        assert key in rows, f"{key[0]}.{key[1]} is missing from docs/clients.md's table"
        listed, keys = rows[key]
        assert listed == arguments
        key_args = [name for name in arguments if name not in PAGING]
        expected = "[" + ", ".join(f'"{name}"' for name in key_args) + "]"
        assert keys == (f"`{expected}`" if key_args else "none (`false`)")


def test_possible_types_name_every_type_implementing_node() -> None:
    schema = build_schema((ROOT / "schema.graphql").read_text(encoding="utf-8"))
    node = schema.get_type("Node")
    assert isinstance(node, GraphQLInterfaceType)
    implementing = sorted(t.name for t in schema.get_possible_types(node))
    listed = re.search(r"Node: \[([^\]]*)\]", CLIENT.read_text())
    assert listed is not None
    assert re.findall(r'"(\w+)"', listed.group(1)) == implementing
