"""The command log times each command on the thread that runs it: the embedded engine's worker
runs commands while a cursor's getMore runs on the event loop's thread, and neither's timing
takes the other's place."""

from __future__ import annotations

import threading

from store.commands import CommandLog


class Timings:
    def __init__(self) -> None:
        self.finished: list[str] = []

    def command_started(self, name: str) -> None:
        pass

    def command_finished(self, name: str, seconds: float) -> None:
        self.finished.append(name)


def test_command_log_times_a_get_more_that_overlaps_a_command() -> None:
    log, timings = CommandLog(), Timings()
    log.watchers.append(timings)
    started, overlapped = threading.Event(), threading.Event()

    def engine_command() -> None:
        log.started("aggregate")
        started.set()
        overlapped.wait(5)
        log.replied([])

    worker = threading.Thread(target=engine_command)
    worker.start()
    started.wait(5)
    log.started("getMore")
    log.replied([{"a": 1}])
    overlapped.set()
    worker.join(5)
    assert sorted(timings.finished) == ["aggregate", "getMore"]
    assert log.by_name == {"aggregate": 1, "getMore": 1}


def test_command_log_counts_reply_bytes_only_when_asked() -> None:
    log = CommandLog()
    log.started("find")
    log.replied([{"a": 1}])
    assert log.reply_bytes == 0
    log.count_reply_bytes = True
    log.started("find")
    log.replied([{"a": 1}])
    assert log.reply_bytes == 12
