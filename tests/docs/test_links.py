"""Every relative link and `#anchor` in README.md and docs/ resolves: the file exists, and the
anchor is one of its headings as GitHub anchors them (or an HTML id)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.docs.markdown import ROOT, Link, anchors, links, pages

LINKS = [link for page in pages() for link in links(page)]


def resolve(link: Link) -> tuple[Path, str]:
    path, _, anchor = link.target.partition("#")
    target = (link.page.parent / unquote(path)).resolve() if path else link.page
    return target, anchor


def test_the_pages_link_to_each_other() -> None:
    assert len(LINKS) >= 20


@pytest.mark.parametrize("link", LINKS, ids=lambda link: f"{link.where} {link.target}")
def test_link_resolves(link: Link) -> None:
    target, anchor = resolve(link)
    assert target.is_relative_to(ROOT), f"{link.where}: {link.target} leaves the repository"
    assert target.exists(), f"{link.where}: {link.target}: no such file"
    if anchor:
        assert target.suffix == ".md", f"{link.where}: an anchor into {target.name}"
        assert anchor in anchors(target), f"{link.where}: {link.target}: no such heading"
