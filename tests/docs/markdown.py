"""A small reader of the project's Markdown: its pages, fenced blocks with the HTML comment
that may announce each, headings as GitHub anchors them, and relative links.

Small on purpose: the docs use fences, ATX headings, inline and reference links, and nothing
that needs a full CommonMark parser (none is a dependency).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^`]*$")
COMMENT = re.compile(r"^\s*<!--\s*(.*?)\s*-->\s*$")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+\1")
HTML_ANCHOR = re.compile(r"""<a\s+(?:name|id)=["']([^"']+)["']""")


def pages() -> list[Path]:
    """README.md and every page under docs/, in a stable order."""
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT))


@dataclass(frozen=True)
class Block:
    """A fenced block: its page, the line of its opening fence, its info word, its text, and
    the HTML comment on the line just before it (blank lines between allowed), if any."""

    page: Path
    line: int
    info: str
    text: str
    note: str | None

    @property
    def where(self) -> str:
        return f"{shown(self.page)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    note: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = FENCE.match(line)
        if fence is None:
            comment = COMMENT.match(line)
            if comment is not None:
                note = comment.group(1)
            elif line.strip():
                note = None
            index += 1
            continue
        marker, info = fence.group(1), fence.group(2).lower()
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(marker):
            end += 1
        text = "\n".join(lines[index + 1 : end]) + "\n"
        found.append(Block(page, index + 1, info, text, note))
        note = None
        index = end + 1
    return found


def prose_lines(page: Path) -> list[tuple[int, str]]:
    """(line number, line) of the page outside fenced blocks, inline code blanked."""
    kept: list[tuple[int, str]] = []
    marker: str | None = None
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        fence = FENCE.match(line)
        if marker is not None:
            if line.strip().startswith(marker):
                marker = None
            continue
        if fence is not None:
            marker = fence.group(1)
            continue
        kept.append((number, INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)))
    return kept


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: markup dropped, lowercased, punctuation other than `-`
    and `_` dropped, each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    text = "".join(c for c in text if c.isalnum() or c in "-_ ")
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor of the page: headings (repeats get -1, -2... as on GitHub) and HTML ids."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for _, line in prose_lines(page):
        found.update(HTML_ANCHOR.findall(line))
        heading = HEADING.match(line)
        if heading is None:
            continue
        base = slug(heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


@dataclass(frozen=True)
class Link:
    page: Path
    line: int
    target: str

    @property
    def where(self) -> str:
        return f"{shown(self.page)}:{self.line}"


def links(page: Path) -> list[Link]:
    """The page's links that stay in the repository (no scheme, no `//`)."""
    found: list[Link] = []
    for number, line in prose_lines(page):
        targets = [m.group(1) for m in INLINE_LINK.finditer(line)]
        reference = REFERENCE_LINK.match(line)
        if reference is not None:
            targets.append(reference.group(1))
        found += [
            Link(page, number, target)
            for target in targets
            if not re.match(r"^[a-z][a-z0-9+.-]*:|^//", target, re.IGNORECASE)
        ]
    return found
