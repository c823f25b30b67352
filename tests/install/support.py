"""Reading the locks (requirements/*.txt, written by `make lock`) and pyproject.toml's
dependencies, for the install checks. A lock entry is a requirement line with its `\\`
continuation lines joined: `name==version ; marker` and one `--hash=sha256:...` per file."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ROOT / "requirements"
RUNTIME_LOCK = LOCKS / "runtime.txt"
DEV_LOCK = LOCKS / "dev.txt"
UV_LOCK = LOCKS / "uv.txt"
ALL_LOCKS = (RUNTIME_LOCK, DEV_LOCK, UV_LOCK)
# What `make test` needs and `make run` must not bring (the list).
DEV_TOOLS = ("pytest", "mypy", "ruff", "playwright", "hypothesis")


@dataclass(frozen=True, slots=True)
class Locked:
    requirement: Requirement  # name, `==version` and marker
    hashes: tuple[str, ...]  # "sha256:<hex>", one per file of that version

    @property
    def name(self) -> NormalizedName:
        return canonicalize_name(self.requirement.name)

    @property
    def version(self) -> str:
        (specifier,) = self.requirement.specifier
        return specifier.version


def entries(text: str) -> list[str]:
    """Each requirement line of a requirements file, its continuation lines joined."""
    found: list[str] = []
    pending: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue  # uv writes its `# via` comments after an entry's last line
        pending.append(line.removesuffix("\\").strip())
        if not line.endswith("\\"):
            found.append(" ".join(pending))
            pending = []
    assert not pending, "the file ends inside a continued requirement"
    return found


def parse_entry(entry: str) -> Locked:
    words = entry.split(" --hash=")
    return Locked(Requirement(words[0].strip()), tuple(word.strip() for word in words[1:]))


def lock(path: Path) -> dict[str, Locked]:
    """The lock's entries by normalized name (each name once: the lock is universal)."""
    found: dict[str, Locked] = {}
    for entry in entries(path.read_text()):
        locked = parse_entry(entry)
        assert locked.name not in found, f"{path.name}: {locked.name} twice"
        found[locked.name] = locked
    return found


def pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def project_requirements(extra: str | None = None) -> list[Requirement]:
    """pyproject's runtime dependencies, or one extra's; `arraygraph[x]` in an extra is expanded."""
    project = pyproject()["project"]
    if extra is None:
        return [Requirement(text) for text in project["dependencies"]]
    found: list[Requirement] = []
    for text in project["optional-dependencies"][extra]:
        requirement = Requirement(text)
        if canonicalize_name(requirement.name) == project["name"]:
            for inner in sorted(requirement.extras):
                found += project_requirements(inner)
        else:
            found.append(requirement)
    return found
