"""The command line says what is wrong in one line: bad settings, a bad port; and it tells its
version and every environment variable it reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import settings as settings_module
from cli import ENVIRONMENT, main

SETTINGS_SOURCE = "\n".join(
    path.read_text(encoding="utf-8")
    for path in sorted(Path(settings_module.__file__).parent.glob("*.py"))
)


def test_command_line_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert re.fullmatch(r"arraygraph \S+\n", capsys.readouterr().out)


def test_command_line_help_lists_every_variable_settings_reads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    read = set(re.findall(r'"((?:ARRAYGRAPH_[A-Z_]+)|MONGODB_URI(?:_FILE)?)"', SETTINGS_SOURCE))
    assert read == set(ENVIRONMENT)
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    assert all(name in shown for name in read)


@pytest.mark.parametrize("port", ["70000", "0", "-1", "http"])
def test_command_line_refuses_ports_out_of_range(
    capsys: pytest.CaptureFixture[str], port: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--port", port])
    assert exited.value.code == 2
    assert "--port" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("variable", "value", "complaint"),
    [
        ("MONGODB_URI", "foo://bar", "MONGODB_URI must start with mongodb://"),
        ("MONGODB_URI", "mongodb://", "MONGODB_URI names no host"),
        ("MONGODB_URI", "mongodb://db:99999/", "MONGODB_URI: "),
        ("MONGODB_URI", "mongodb://db/?notAnOption=1", "MONGODB_URI: Unknown option"),
        ("MONGODB_URI", "mongodb://db/?maxPoolSize=abc", "MONGODB_URI: The value of maxpool"),
        ("ARRAYGRAPH_DB", "bad/name", "ARRAYGRAPH_DB: 'bad/name' is not a MongoDB database name"),
        ("ARRAYGRAPH_DB", "x" * 64, "is not a MongoDB database name"),
        ("ARRAYGRAPH_MONGODB_TIMEOUT_MS", "soon", "ARRAYGRAPH_MONGODB_TIMEOUT_MS must be"),
    ],
)
def test_command_line_bad_settings_stop_with_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    value: str,
    complaint: str,
) -> None:
    monkeypatch.setenv(variable, value)
    monkeypatch.setenv("ARRAYGRAPH_STARTUP_TIMEOUT_S", "1")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("arraygraph: ")]
    assert len(lines) == 1 and complaint in lines[0], err
    assert "Traceback" not in err
