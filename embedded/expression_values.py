"""Value operators written as source (`embedded.generated`): `$add` and `$subtract` of two
operands, `$min`, `$max`, `$mergeObjects`, `$getField` and `$toString`, their operands written
out and their work done by the functions their closures use (`embedded.value_expressions`).

Each mirrors its closure in `embedded.arithmetic` or `embedded.value_expressions`: same forms,
same order of evaluation. Where the closure hands a case to mongomock-ng (`$add` of anything
but two numbers), the same call is written; where it raises a server's error (`$getField` of a
name that is not a string), the code calls the closure itself, which evaluates its operands
again (expressions have no side effects) and raises it.
"""

from __future__ import annotations

from typing import Any

from embedded.expression_source import SourceWriter, Write
from embedded.value_expressions import get_field_arguments

_BINARY = {"$add": "+", "$subtract": "-"}


def _binary(name: str) -> Write:
    def write(w: SourceWriter, value: Any, env: str) -> str | None:
        if not isinstance(value, list) or len(value) != 2:
            return None  # n-ary sums: the closure (mongomock-ng)
        a, b = (w.value(x, env) for x in value)
        interpret, result = w.constant(w.closures.interpret), w.temp()
        literals = f"[{{'$literal': {a}}}, {{'$literal': {b}}}]"
        w.emit(f"if type({a}) in NUMBERS and type({b}) in NUMBERS:")
        w.emit(f"    {result} = {a} {_BINARY[name]} {b}")
        w.emit("else:")
        w.emit(f"    {result} = {interpret}(new_parser(doc, {env}), {{{name!r}: {literals}}})")
        return result

    return write


def _picked(pick: Any) -> Write:
    def write(w: SourceWriter, value: Any, env: str) -> str | None:
        if isinstance(value, list) and len(value) == 1:
            value = value[0]  # one operand, as without the list: an array's elements compared
        chosen = w.constant(pick)
        if isinstance(value, list):
            parts = ", ".join(w.value(x, env) for x in value)
            return w.assign(f"extreme([{parts}], {chosen})")
        found = w.value(value, env)
        return w.assign(f"extreme({found} if type({found}) is list else [{found}], {chosen})")

    return write


def _merge_objects(w: SourceWriter, value: Any, env: str) -> str | None:
    merged = w.assign("{}")
    for part in value if isinstance(value, list) else [value]:
        w.emit(f"merge_into({merged}, {w.value(part, env)})")  # in turn: the first bad one fails
    return merged


def _get_field(w: SourceWriter, value: Any, env: str) -> str | None:
    original, value = value, get_field_arguments(value)
    if value is None:
        return None
    failing = w.constant(w.closures.compile({"$getField": original}))
    name = w.value(value["field"], env)
    w.emit(f"if type({name}) is not str:")
    w.emit(f"    {failing}(doc, {env})")  # raises the server's error
    found, result = w.value(value.get("input", "$$CURRENT"), env), w.temp()
    w.emit(f"if {found} is None or {found} is NOTHING:")
    w.emit(f"    {result} = None")
    w.emit(f"elif type({found}) is dict:")
    w.emit(f"    {result} = {found}.get({name}, NOTHING)")
    w.emit("else:")
    w.emit(f"    {result} = {failing}(doc, {env})")  # raises the server's error
    return result


def _to_string(w: SourceWriter, value: Any, env: str) -> str | None:
    whole = {"$toString": value}
    if isinstance(value, list):
        if len(value) != 1:
            return None
        value = value[0]
    found, result = w.value(value, env), w.temp()
    w.emit(f"if type({found}) is ObjectId:")
    w.emit(f"    {result} = str({found})")
    w.emit(f"elif type({found}) is str:")
    w.emit(f"    {result} = {found}")
    w.emit("else:")
    w.emit(f"    {result} = {w.constant(w.closures.compile(whole))}(doc, {env})")
    return result


VALUES: dict[str, Write] = {
    "$add": _binary("$add"),
    "$subtract": _binary("$subtract"),
    "$min": _picked(min),
    "$max": _picked(max),
    "$mergeObjects": _merge_objects,
    "$getField": _get_field,
    "$toString": _to_string,
}
