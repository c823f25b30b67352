"""Log lines as JSON (one object a line) or as text, for arraygraph's loggers and uvicorn's.

`ARRAYGRAPH_LOG_FORMAT`: `json`, `text`, or `auto` (text on a terminal, JSON otherwise).
`uvicorn_log_config(settings)` is the `log_config` for `uvicorn.run`: every logger, uvicorn's
included, writes through one handler on stderr in the chosen format. uvicorn's access log is
off: `arraygraph.request` (web/observability/request_log.py) writes one richer line per request
instead.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

from settings import Settings

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# A LogRecord's own attributes; any other one came through `extra=` and becomes a field.
_RECORD_ATTRIBUTES = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's coloured copy of the message
}


_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


class JsonFormatter(logging.Formatter):
    """A record as one JSON object: time, level, logger, message, the `extra=` fields, and the
    stack of an exception (as a string) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _RECORD_ATTRIBUTES and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        # U+0085, U+2028 and U+2029 are line breaks to some readers (Python's `splitlines`):
        # escaped, a client's path or name cannot split a line in two.
        return json.dumps(line, default=str, ensure_ascii=False).translate(_LINE_BREAKS)


def log_format(settings: Settings, stream: TextIO | None = None) -> str:
    """`json` or `text`: the setting, with `auto` decided by whether `stream` is a terminal."""
    if settings.log_format != "auto":
        return settings.log_format
    stream = sys.stderr if stream is None else stream
    return "text" if stream.isatty() else "json"


def formatter(name: str) -> logging.Formatter:
    """The formatter of a format name (`json` or `text`)."""
    return JsonFormatter() if name == "json" else logging.Formatter(TEXT_FORMAT)


def uvicorn_log_config(settings: Settings, stream: TextIO | None = None) -> dict[str, Any]:
    """`logging.config.dictConfig` input: one handler on stderr, in the settings' format, for
    the root logger (arraygraph's loggers propagate to it) and uvicorn's; no access log."""
    chosen = log_format(settings, stream)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": {"()": formatter, "name": chosen}},
        "handlers": {
            "default": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "stream": stream if stream is not None else "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["default"], "level": "INFO"},
        "loggers": {
            "uvicorn": {"handlers": [], "level": "INFO", "propagate": True},
            "uvicorn.error": {"handlers": [], "level": "INFO", "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }
