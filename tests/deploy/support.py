"""Reading the deployment files as Docker and Compose read them, for the static checks: the
Dockerfile's instructions by stage, .dockerignore's patterns, and Compose's `${...}`
interpolation. Only the parts of each syntax that the files use; enough to find mistakes."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
COMPOSE_FILE = ROOT / "docker-compose.yml"
ENTRYPOINT_SCRIPT = ROOT / "deploy" / "docker-entrypoint.sh"


@dataclass(frozen=True, slots=True)
class Instruction:
    keyword: str  # upper case: FROM, RUN, COPY, ...
    arguments: str  # continuation lines joined, comments inside them dropped
    line: int


@dataclass(slots=True)
class Stage:
    base: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[Instruction]:
        return [i for i in self.instructions if i.keyword == keyword]

    def last(self, keyword: str) -> Instruction:
        found = self.all(keyword)
        assert found, f"no {keyword} in the stage FROM {self.base}"
        return found[-1]


def instructions(text: str) -> list[Instruction]:
    """Each instruction once, its `\\` continuation lines joined (as Docker's parser does)."""
    found: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue  # a blank or comment line, also inside a continued instruction
        if not pending:
            start = number
        if line.endswith("\\"):
            pending.append(line[:-1].strip())
            continue
        keyword, _, rest = " ".join([*pending, line]).partition(" ")
        found.append(Instruction(keyword.upper(), rest.strip(), start))
        pending = []
    assert not pending, "the Dockerfile ends inside a continued instruction"
    return found


def stages(text: str) -> list[Stage]:
    """The build stages in order; instructions before the first FROM (ARG) are left out."""
    result: list[Stage] = []
    for instruction in instructions(text):
        if instruction.keyword == "FROM":
            words = instruction.arguments.split()
            flags = [w for w in words if w.startswith("--")]
            rest = words[len(flags) :]
            name = rest[2] if len(rest) == 3 and rest[1].upper() == "AS" else None
            result.append(Stage(base=rest[0], name=name))
        elif result:
            result[-1].instructions.append(instruction)
    return result


def exec_form(arguments: str) -> list[str] | None:
    """The JSON array of an exec-form instruction; None for the shell form."""
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError:
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


def flags_and_rest(arguments: str) -> tuple[dict[str, str], str]:
    """`--name=value` flags at the start of an instruction's arguments, and what follows."""
    flags: dict[str, str] = {}
    rest = arguments
    while rest.startswith("--"):
        word, _, rest = rest.partition(" ")
        name, _, value = word[2:].partition("=")
        flags[name] = value
        rest = rest.lstrip()
    return flags, rest


def _pattern_regex(pattern: str) -> str:
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        elif pattern[i] == "[":
            end = pattern.index("]", i)
            out, i = out + pattern[i : end + 1], end + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return out


def dockerignore_patterns(text: str) -> list[str]:
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether Docker leaves `path` (relative, with /) out of the build context: the last
    pattern matching it or one of its parent directories decides; `!` lets it back in."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    excluded = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        regex = _pattern_regex(pattern.removeprefix("!").strip("/"))
        if any(re.fullmatch(regex, prefix) for prefix in prefixes):
            excluded = not negated
    return excluded


class MissingVariable(ValueError):
    """`${NAME:?message}` (or `${NAME?message}`) with NAME unset (or empty, for `:?`)."""


_VARIABLE = re.compile(
    r"\$\$|\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?+])(?P<arg>[^}]*))?\}"
    r"|\$(?P<bare>[A-Za-z_][A-Za-z0-9_]*)"
)


def _substitute(match: re.Match[str], env: Mapping[str, str]) -> str:
    if match.group(0) == "$$":
        return "$"
    name = match.group("name") or match.group("bare")
    op, arg = match.group("op"), match.group("arg") or ""
    value = env.get(name)
    present = value is not None and (value != "" or not (op or "").startswith(":"))
    if op in ("-", ":-"):
        return value if present and value is not None else arg
    if op in ("?", ":?"):
        if not present or value is None:
            raise MissingVariable(f"required variable {name} is missing a value: {arg}")
        return value
    if op in ("+", ":+"):
        return arg if present else ""
    return value or ""


def interpolate(value: Any, env: Mapping[str, str]) -> Any:
    """Compose's interpolation of every string value in a loaded compose file."""
    if isinstance(value, str):
        return _VARIABLE.sub(lambda match: _substitute(match, env), value)
    if isinstance(value, dict):
        return {key: interpolate(item, env) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, env) for item in value]
    return value


def compose_file(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """docker-compose.yml as loaded; interpolated when `env` is given."""
    loaded = yaml.safe_load(COMPOSE_FILE.read_text())
    assert isinstance(loaded, dict)
    return interpolate(loaded, env) if env is not None else loaded
