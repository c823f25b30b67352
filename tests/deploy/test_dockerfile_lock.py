"""The image holds what requirements/runtime.txt locks, every file checked against its hashes:
the builder fetches the dependencies from the lock alone, with --require-hashes, and everything
after that (arraygraph's own wheel, its build, the final install) reads no package index."""

from __future__ import annotations

import shlex

from tests.deploy.support import DOCKERFILE, flags_and_rest, stages


def pip_commands(arguments: str) -> list[list[str]]:
    """Each `pip ...` command of a RUN instruction (its `&&`-joined parts), as words."""
    _, command = flags_and_rest(arguments)
    words_of_parts = [shlex.split(part) for part in command.split("&&")]
    return [words for words in words_of_parts if words and words[0].endswith("pip")]


def test_dockerfile_fetches_the_dependencies_from_the_runtime_lock_with_hashes() -> None:
    builder, final = stages(DOCKERFILE.read_text())
    commands = [
        c for run in builder.all("RUN") + final.all("RUN") for c in pip_commands(run.arguments)
    ]
    fetching = [c for c in commands if "--no-index" not in c]
    assert len(fetching) == 1, fetching  # the one command that may reach an index
    (fetch,) = fetching
    assert fetch[:2] == ["pip", "wheel"]
    assert "--require-hashes" in fetch and "--no-deps" in fetch  # the lock is complete
    assert fetch[fetch.index("-r") + 1] == "requirements/runtime.txt"
    copied = " ".join(copy.arguments for copy in builder.all("COPY"))
    assert "requirements/runtime.txt" in copied.split()
