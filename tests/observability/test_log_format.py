"""ARRAYGRAPH_LOG_FORMAT: JSON or text lines, `auto` choosing by the terminal; the formatter's
JSON line; and `uvicorn_log_config`, the logging of `arraygraph serve`."""

from __future__ import annotations

import io
import json
import logging
import sys

import pytest

from settings import Settings, SettingsError
from web.observability.logging_setup import JsonFormatter, log_format, uvicorn_log_config


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_log_format_auto_is_text_on_a_terminal() -> None:
    assert log_format(Settings(log_format="auto"), Terminal()) == "text"


def test_log_format_auto_is_json_elsewhere() -> None:
    assert log_format(Settings(log_format="auto"), io.StringIO()) == "json"


def test_log_format_set_is_kept_whatever_the_stream() -> None:
    assert log_format(Settings(log_format="json"), Terminal()) == "json"
    assert log_format(Settings(log_format="text"), io.StringIO()) == "text"


@pytest.mark.parametrize("raw", ["JSON", " text ", ""])
def test_log_format_setting_reads_its_values(raw: str) -> None:
    expected = raw.strip().lower() or "auto"
    assert Settings.from_env({"ARRAYGRAPH_LOG_FORMAT": raw}).log_format == expected


def test_log_format_setting_refuses_another_value() -> None:
    with pytest.raises(SettingsError, match="ARRAYGRAPH_LOG_FORMAT must be json, text or auto"):
        Settings.from_env({"ARRAYGRAPH_LOG_FORMAT": "xml"})


def test_json_formatter_keeps_an_exception_in_its_one_line() -> None:
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        record = logging.getLogger("arraygraph.test").makeRecord(
            "arraygraph.test", logging.ERROR, __file__, 1, "failed %s", ("here",),
            sys.exc_info(), extra={"request_id": "r"},
        )  # fmt: skip
    text = JsonFormatter().format(record)
    assert "\n" not in text
    line = json.loads(text)
    assert (line["message"], line["level"], line["request_id"]) == ("failed here", "ERROR", "r")
    assert "ValueError: boom" in line["exception"]


def test_json_formatter_escapes_the_line_breaks_json_leaves_raw() -> None:
    # U+0085, U+2028 and U+2029 are valid raw in JSON, but break lines for some readers.
    record = logging.LogRecord("arraygraph.request", logging.INFO, __file__, 1, "x", None, None)
    record.path = "/a\x85b\u2028c\u2029d"
    line = JsonFormatter().format(record)
    assert line.splitlines() == [line]
    assert json.loads(line)["path"] == "/a\x85b\u2028c\u2029d"


def test_uvicorn_log_config_writes_uvicorn_lines_through_the_json_formatter() -> None:
    stream = io.StringIO()
    config = uvicorn_log_config(Settings(log_format="json"), stream)
    formatter = config["formatters"]["default"]
    built = formatter["()"](name=formatter["name"])
    assert isinstance(built, JsonFormatter)
    assert config["handlers"]["default"]["stream"] is stream
    assert config["root"]["handlers"] == ["default"]
    assert config["loggers"]["uvicorn.error"]["propagate"] is True
    assert config["loggers"]["uvicorn.access"] == {
        "handlers": [],
        "level": "WARNING",
        "propagate": False,
    }
