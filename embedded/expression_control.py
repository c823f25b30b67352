"""Control flow, comparisons and array loops written as source (`embedded.generated`):
`$let`, `$cond`, `$ifNull`, `$and`, `$or`, `$not`, `$eq`, `$ne`, `$lt`, `$lte`, `$gt`,
`$gte`, `$in`, `$filter`, `$map` and `$reduce`, each as its closure in `embedded.compiler` and
`embedded.array_expressions` evaluates it. A variable a loop or `$let` binds is read from its
local (`SourceWriter.bind`); the scope dictionary is kept as well, for the closures called
inside."""

from __future__ import annotations

from typing import Any

from embedded.array_expressions import has_arguments
from embedded.comparisons import ORDERINGS, ordering
from embedded.expression_source import SourceWriter, Write


def _let(w: SourceWriter, value: Any, env: str) -> str | None:
    if not isinstance(value, dict) or set(value) != {"vars", "in"}:
        return None
    if not isinstance(value["vars"], dict):
        return None
    scope = w.scope_from(env, f"{env}.copy()")
    for name, sub in value["vars"].items():
        w.bind(scope, name, w.value(sub, env))  # each from the outer scope, as a server does
    return w.value(value["in"], scope)


def _cond(w: SourceWriter, value: Any, env: str) -> str | None:
    if isinstance(value, list) and len(value) == 3:
        condition, then, otherwise = value
    elif isinstance(value, dict) and set(value) == {"if", "then", "else"}:
        condition, then, otherwise = value["if"], value["then"], value["else"]
    else:
        return None
    test, result = w.value(condition, env), w.temp()
    w.emit(f"if {w.true(test)}:")
    w.branch(result, then, env)
    w.emit("else:")
    w.branch(result, otherwise, env)
    return result


def _if_null(w: SourceWriter, value: Any, env: str) -> str | None:
    if not isinstance(value, list) or len(value) < 2:
        return None
    *tried, fallback = value
    result, depth = w.temp(), w.depth
    for e in tried:
        found = w.value(e, env)
        w.emit(f"if {found} is not None and {found} is not NOTHING:")
        w.emit(f"    {result} = {found}")
        w.emit("else:")
        w.depth += 1
    w.emit(f"{result} = {w.value(fallback, env)}")
    w.depth = depth
    return result


def _all_or_any(w: SourceWriter, value: Any, env: str, *, every: bool) -> str | None:
    if not isinstance(value, list):
        return None
    result, depth = w.assign(str(every)), w.depth
    for e in value:  # stops at the first part that decides, as the closures do
        found = w.value(e, env)
        w.emit(f"if {'not ' if every else ''}truth({found}):")
        w.emit(f"    {result} = {not every}")
        w.emit("else:")
        w.depth += 1
    w.emit("pass")
    w.depth = depth
    return result


def _not(w: SourceWriter, value: Any, env: str) -> str | None:
    if isinstance(value, list):
        if len(value) != 1:
            return None
        value = value[0]  # the array form, read as a server reads it
    return w.assign(f"not truth({w.value(value, env)})")


def _comparison(name: str) -> Write:
    def write(w: SourceWriter, value: Any, env: str) -> str | None:
        if not isinstance(value, list) or len(value) != 2:
            return None
        a, b = (w.value(x, env) for x in value)
        if name in ORDERINGS:
            return _ordered(w, name, a, b)
        # `comparisons.equal`, written out: missing equals null.
        same = f"({a} is NOTHING and {b} is None) or ({a} is None and {b} is NOTHING) or {a} == {b}"
        answers = "False if ({}) else True" if name == "$ne" else "True if ({}) else False"
        return w.assign(answers.format(same))

    return write


def _in(w: SourceWriter, value: Any, env: str) -> str | None:
    """`$in`, as its closure (`ArrayOperators.op_in`) finds a number, string, date or id in an
    array of no booleans; any other case (a server's error, BSON's equality) by the closure."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    closure = w.constant(w.closures.compile({"$in": value}))
    wanted, items = (w.value(x, env) for x in value)
    result, item = w.temp(), w.temp()
    found_by_equality = f"type({wanted}) in FOUND_BY_EQUALITY and {wanted} == {wanted}"  # no NaN
    w.emit(f"if type({items}) is list and {found_by_equality}:")
    w.emit(f"    {result} = False")
    w.emit(f"    for {item} in {items}:")
    w.emit(f"        if type({item}) is bool:")
    w.emit(f"            {result} = {closure}(doc, {env})")
    w.emit("            break")
    w.emit(f"        if {item} == {wanted}:")
    w.emit(f"            {result} = True")
    w.emit("            break")
    w.emit("else:")
    w.emit(f"    {result} = {closure}(doc, {env})")
    return result


_NATIVE = {"$lt": "<", "$lte": "<=", "$gt": ">", "$gte": ">="}


def _ordered(w: SourceWriter, name: str, a: str, b: str) -> str:
    """`comparisons.ordering(name)(a, b)`, its common case (two values of one type that Python
    orders as BSON does) written out, any other through it."""
    compare, result = w.constant(ordering(name)), w.temp()
    w.emit(f"if {a} is NOTHING or {b} is NOTHING:")
    w.emit(f"    {result} = False")
    w.emit(f"elif type({a}) is type({b}) and type({a}) in ORDERED_ALIKE:")
    w.emit("    try:")
    w.emit(f"        {result} = {a} {_NATIVE[name]} {b}")
    w.emit("    except TypeError:")
    w.emit(f"        {result} = {compare}({a}, {b})")
    w.emit("else:")
    w.emit(f"    {result} = {compare}({a}, {b})")
    return result


def _loop(w: SourceWriter, name: str, source: Any, env: str) -> tuple[str, str, str]:
    """The start of an array loop: its input checked, the result None when it is null or
    missing, else the loop's scope (a copy of `env`) and the `else:` block opened."""
    items, result = w.assign(f"array_input({name!r}, {w.value(source, env)})"), w.temp()
    w.emit(f"if {items} is None:")
    w.emit(f"    {result} = None")
    w.emit("else:")
    w.depth += 1
    return items, result, w.scope_from(env, f"dict({env})")


def _filter_or_map(name: str) -> Write:
    body = "cond" if name == "$filter" else "in"

    def write(w: SourceWriter, value: Any, env: str) -> str | None:
        if not has_arguments(value, {"input", body}, {"as"}):
            return None
        bound = value.get("as", "this")
        if not isinstance(bound, str):
            return None
        depth = w.depth
        items, result, scope = _loop(w, name, value["input"], env)
        item = w.temp()
        w.emit(f"{result} = []")
        w.emit(f"for {item} in {items}:")
        w.depth += 1
        w.bind(scope, bound, item)
        found = w.value(value[body], scope)
        if name == "$filter":
            w.emit(f"if {w.true(found)}:")
            w.emit(f"    {result}.append({item})")
        else:
            w.emit(f"{result}.append(None if {found} is NOTHING else {found})")
        w.depth = depth
        return result

    return write


def _reduce(w: SourceWriter, value: Any, env: str) -> str | None:
    if not has_arguments(value, {"input", "initialValue", "in"}, set()):
        return None
    depth = w.depth
    items, result, scope = _loop(w, "$reduce", value["input"], env)
    accumulated, item = w.assign(w.value(value["initialValue"], env)), w.temp()
    w.emit(f"for {item} in {items}:")
    w.depth += 1
    w.bind(scope, "value", accumulated)
    w.bind(scope, "this", item)
    w.emit(f"{accumulated} = {w.value(value['in'], scope)}")
    w.depth -= 1
    w.emit(f"{result} = {accumulated}")
    w.depth = depth
    return result


CONTROL: dict[str, Write] = {
    "$let": _let,
    "$cond": _cond,
    "$ifNull": _if_null,
    "$and": lambda w, value, env: _all_or_any(w, value, env, every=True),
    "$or": lambda w, value, env: _all_or_any(w, value, env, every=False),
    "$not": _not,
    "$filter": _filter_or_map("$filter"),
    "$map": _filter_or_map("$map"),
    "$reduce": _reduce,
    "$in": _in,
    **{name: _comparison(name) for name in ("$eq", "$ne", *sorted(ORDERINGS))},
}
