"""Every lock pins every package to one version with `==` and lists a sha256 hash for it, so
`--require-hashes` installs exactly the files that were locked, and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.install.support import ALL_LOCKS, entries, lock, parse_entry

SHA256 = re.compile(r"sha256:[0-9a-f]{64}")


@pytest.mark.parametrize("path", ALL_LOCKS, ids=lambda path: path.name)
def test_every_locked_package_is_pinned_with_hashes(path: Path) -> None:
    found = [parse_entry(entry) for entry in entries(path.read_text())]
    assert found, f"{path.name} locks nothing"
    for locked in found:
        specifiers = list(locked.requirement.specifier)
        assert [s.operator for s in specifiers] == ["=="], locked.requirement
        assert "*" not in locked.version, locked.requirement  # one version, not a prefix
        assert not locked.requirement.url and not locked.requirement.extras, locked.requirement
        assert locked.hashes, f"{path.name}: {locked.name} has no hash"
        for value in locked.hashes:
            assert SHA256.fullmatch(value), f"{path.name}: {locked.name} {value}"


@pytest.mark.parametrize("path", ALL_LOCKS, ids=lambda path: path.name)
def test_locks_hold_no_option_that_widens_them(path: Path) -> None:
    for entry in entries(path.read_text()):
        # an index, an editable or a nested file would let in what the hashes do not cover
        first = entry.split()[0]
        assert not first.startswith(("-", "http:", "https:", "git+", "file:", ".", "/")), first
    assert lock(path)  # and each package once: the resolution is universal
