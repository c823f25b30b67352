"""The README is read in five minutes: at most 200 lines, 1,500 words, 120 characters a line.
README.md and docs/ carry no lab notebook: no `../shared` path, no "issue N", no commit hash."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs.markdown import ROOT, pages, shown

README = ROOT / "README.md"
MAX_LINES = 200
MAX_WORDS = 1_500
MAX_LINE_CHARS = 120

# A commit hash: 7 to 40 hex digits with a digit and a letter. ObjectIds (24 digits) are ids of
# the demo data, and 64 digits a SHA-256, so neither counts.
HEX_WORD = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{7,40}(?![0-9A-Za-z])")
OBJECT_ID_DIGITS = 24
ISSUE = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)


def commit_hashes(text: str) -> list[str]:
    return [
        word
        for word in HEX_WORD.findall(text)
        if len(word) != OBJECT_ID_DIGITS and re.search(r"\d", word) and re.search(r"[a-f]", word)
    ]


def test_readme_is_at_most_200_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_readme_is_at_most_1500_words() -> None:
    assert len(README.read_text(encoding="utf-8").split()) <= MAX_WORDS


def test_readme_lines_are_at_most_120_characters() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    long = [number for number, line in enumerate(lines, start=1) if len(line) > MAX_LINE_CHARS]
    assert not long, f"README.md lines over {MAX_LINE_CHARS} characters: {long}"


@pytest.mark.parametrize("page", pages(), ids=shown)
def test_page_names_no_shared_path_issue_or_commit(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text
    assert not ISSUE.findall(text), f"{shown(page)}: {ISSUE.findall(text)}"
    assert not commit_hashes(text), f"{shown(page)}: {commit_hashes(text)}"


def test_a_commit_hash_is_told_from_ids() -> None:
    assert commit_hashes("measured at 6e4fb91 and 028a96a2") == ["6e4fb91", "028a96a2"]
    assert commit_hashes('sensor(id: "5a934e000102030405000000") 16777216 deadbeef') == []
