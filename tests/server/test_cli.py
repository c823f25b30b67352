"""The `arraygraph` command."""

from __future__ import annotations

import pytest

import cli
import store.migrations


def test_cli_schema_prints_the_sdl(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["schema"]) == 0
    out = capsys.readouterr().out
    assert "  recordSensorEvents(\n    events: [SensorEventInput!]!\n" in out
    assert "scalar DateTime" in out


def test_cli_serve_refuses_a_public_address_without_tokens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ARRAYGRAPH_API_TOKENS", raising=False)
    assert cli.main(["serve", "--host", "0.0.0.0"]) == 2
    assert "--allow-anonymous-writes" in capsys.readouterr().err


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_cli_loopback_addresses_are_recognised(host: str) -> None:
    assert cli.is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "10.0.0.1", "example.org", "::"])
def test_cli_other_addresses_are_not_loopback(host: str) -> None:
    assert not cli.is_loopback(host)


def test_cli_migrate_reports_what_it_changed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MONGODB_URI", raising=False)
    assert cli.main(["migrate"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "arraygraph: trade buckets numbered: 0",
        "arraygraph: users' order times dated: 0",
        "arraygraph: sensors' latest events dated: 0",
        "arraygraph: chat sessions given an owner: 0",
        "arraygraph: chat memberships written: 0",
        "arraygraph: chat sessions left without an owner (no message): 0",
    ]


def test_cli_migrate_hands_the_chat_owner_to_the_migration(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MONGODB_URI", raising=False)
    seen: list[str | None] = []

    async def migrate(database: object, *, chat_owner: str | None = None) -> list[object]:
        seen.append(chat_owner)
        return []

    monkeypatch.setattr(store.migrations, "migrate", migrate)
    assert cli.main(["migrate", "--chat-owner", "ops"]) == 0
    assert seen == ["ops"]
    with pytest.raises(SystemExit) as refused:
        cli.main(["migrate", "--chat-owner", " "])
    assert refused.value.code == 2
    assert "--chat-owner: a user id is not blank" in capsys.readouterr().err
