"""ARRAYGRAPH_MESSAGES_PER_PAGE: a full page of messages at their limits must stay below 16 MiB,
checked in bytes at start-up; a cap that could pass it refuses to start, naming the setting."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime

import bson
import pytest
from bson import ObjectId

import cli
from app import create_app
from settings import MAX_BSON_DOCUMENT_BYTES, Settings, SettingsError
from store.chat.chat_page_size import LARGEST_PAGE_BYTES, WIDEST_CHARACTER, largest_page_bytes

LATEST = datetime(9999, 12, 31, tzinfo=UTC)


def _worst_page(cap: int) -> dict[str, object]:
    messages = [
        {
            "id": ObjectId(),
            "seq": 2**40 + n,
            "author": WIDEST_CHARACTER * 100,
            "text": WIDEST_CHARACTER * 4_000,
            "sentAt": LATEST,
            "clientMessageId": f"{n:x<64}",
            "editedAt": LATEST,
            "deleted": True,
        }
        for n in range(cap)
    ]
    return {
        "_id": ObjectId(),
        "sessionId": ObjectId(),
        "page": 2**40,
        "firstSeq": 2**40,
        "count": cap,
        "sealed": True,
        "messages": messages,
        "clientIds": [m["clientMessageId"] for m in messages],
    }


@pytest.mark.parametrize("cap", [1, 3, 11, 120])
def test_largest_page_bytes_bounds_a_real_worst_page(cap: int) -> None:
    actual = len(bson.encode(_worst_page(cap)))
    assert actual <= largest_page_bytes(cap) <= actual + 8 * cap


def test_the_default_cap_fits_with_room_to_spare() -> None:
    assert largest_page_bytes(Settings().messages_per_page) < LARGEST_PAGE_BYTES
    assert LARGEST_PAGE_BYTES < MAX_BSON_DOCUMENT_BYTES


def test_a_cap_of_1000_refuses_to_start_naming_the_setting() -> None:
    with pytest.raises(SettingsError, match="ARRAYGRAPH_MESSAGES_PER_PAGE=1000"):
        create_app(Settings(messages_per_page=1_000))


@pytest.fixture
def logging_restored() -> Iterator[None]:
    """`serve` configures logging onto the captured stderr before it fails; later tests must not
    log to that closed stream."""
    names = ("", "uvicorn", "uvicorn.error", "uvicorn.access")
    loggers = [logging.getLogger(name) for name in names]
    saved = [(each, each.handlers[:], each.level, each.propagate) for each in loggers]
    yield
    for each, handlers, level, propagate in saved:
        each.handlers[:] = handlers
        each.setLevel(level)
        each.propagate = propagate


@pytest.mark.usefixtures("logging_restored")
def test_cli_serve_with_too_large_a_cap_exits_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ARRAYGRAPH_MESSAGES_PER_PAGE", "5000")
    assert cli.main(["serve"]) == 2
    assert "ARRAYGRAPH_MESSAGES_PER_PAGE=5000" in capsys.readouterr().err
