"""Aggregation expressions with array loops (`$filter`, `$map`, `$reduce`), compiled to Python
source: one function per expression, its control flow inline.

The closures of `embedded.compiler` cost a call per operator and per operand for every element
an array operator visits (an hourly pipeline's `$map` over a sensor's buckets made five calls a
bucket). Here the array operators, the variables and fields they read, control flow,
comparisons, subdocuments and the common value operators (`embedded.expression_control`,
`embedded.expression_values`) become straight-line Python in one function; every other operator
stays the closure `embedded.compiler` makes of it, called from that code with the same scope, so
its semantics and errors are the closures' (and through them mongomock-ng's). The answers are
the closures' in every case (tests/engine/test_generated_expressions.py compares the two).

The source holds no value of the expression: literals and closures are passed in as constants,
and its names (fields, variables, keys) enter the source only as `repr()` string literals,
never as code. So expressions of one shape, such as a pipeline a store function builds anew on
each call with other values, share one compiled function: Python compiles each shape once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bson import ObjectId

from embedded import mongomock_internals as mongomock
from embedded.arithmetic import NUMBERS
from embedded.array_expressions import FOUND_BY_EQUALITY, array_input
from embedded.comparisons import ORDERED_ALIKE
from embedded.expression_control import CONTROL
from embedded.expression_source import Compiles, SourceWriter
from embedded.expression_values import VALUES
from embedded.mongomock_internals import NOTHING, Evaluator
from embedded.value_expressions import extreme, merge_into

Factory = Callable[[list[Any]], Evaluator]
_factories: dict[str, Factory] = {}
_FACTORIES_LIMIT = 512
_MAX_LINES = 2_000
# Each constant is a free variable of the function, whose compile time grows as their square.
_MAX_CONSTANTS = 500
_LOOPS = ("$filter", "$map", "$reduce")
WARM_UP = 8  # evaluations of an expression by its closures before it is generated
_WRITERS = {**CONTROL, **VALUES}
_UNBOUND = object()  # a variable the scope does not hold
_HELPERS = {
    "NOTHING": NOTHING,
    "UNBOUND": _UNBOUND,
    "truth": mongomock.mongodb_to_bool,
    "ORDERED_ALIKE": ORDERED_ALIKE,
    "NUMBERS": NUMBERS,
    "new_parser": mongomock.new_parser,
    "extreme": extreme,
    "merge_into": merge_into,
    "ObjectId": ObjectId,
    "array_input": array_input,
    "FOUND_BY_EQUALITY": FOUND_BY_EQUALITY,
}


def generated(expression: Any, closures: Compiles) -> Evaluator | None:
    """`expression` as generated code, when it holds an array loop; None otherwise (the
    closures serve it as well), and when Python cannot compile it (too deeply nested)."""
    writer = SourceWriter(closures, _WRITERS)
    try:
        if not _has_loop(expression):
            return None
        result = writer.value(expression, "env")
    except RecursionError:
        return None  # nested past Python's stack: the closures answer (or fail) as before
    if len(writer.lines) > _MAX_LINES or len(writer.constants) > _MAX_CONSTANTS:
        return None  # a large array of expressions or operands, say: not worth compiling
    constants = writer.constants
    head = [f"    {', '.join(f'k{i}' for i in range(len(constants)))}, = k"] if constants else []
    tail = [f"        return {result}", "    return evaluate"]
    source = "\n".join(["def make(k):", *head, "    def evaluate(doc, env):", *writer.lines, *tail])
    factory = _factories.get(source)
    if factory is None:
        namespace: dict[str, Any] = dict(_HELPERS)
        try:
            exec(compile(source, "<embedded expression>", "exec"), namespace)
        except (SyntaxError, RecursionError, MemoryError):
            return None  # e.g. more nested loops than Python allows in one function
        if len(_factories) >= _FACTORIES_LIMIT:
            _factories.clear()
        made: Factory = namespace["make"]
        factory = _factories[source] = made
    return factory(constants)


def warming(expression: Any, closures: Compiles, first: Evaluator) -> Evaluator:
    """`expression`'s evaluator: its closures (`first`) for its first evaluations, then its
    generated code, if any. Writing and compiling the source costs more than one evaluation
    saves (a pipeline a store function builds anew for one document would pay it on every
    call); an expression evaluated over many documents, or again and again, earns it back."""
    current, count = first, 0

    def evaluate(doc: Any, env: dict[str, Any]) -> Any:
        nonlocal current, count
        if count < WARM_UP:
            count += 1
            if count == WARM_UP:
                current = generated(expression, closures) or first
        return current(doc, env)

    return evaluate


def has_loop(e: Any) -> bool:
    """Whether `e` holds an array loop (`$filter`, `$map`, `$reduce`) at any depth."""
    try:
        return _has_loop(e)
    except RecursionError:
        return False


def _has_loop(e: Any) -> bool:
    if type(e) is list:
        return any(_has_loop(item) for item in e)
    if type(e) is not dict:
        return False  # a value, or a string (a path, a variable, a literal)
    for key, value in e.items():
        if key in _LOOPS:
            return True
        if key != "$literal" and _has_loop(value):  # a literal's value is data, not code
            return True
    return False
