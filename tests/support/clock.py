"""An injected clock: tests move time explicitly."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime


@dataclass
class FakeClock:
    now: datetime = field(default_factory=lambda: datetime(2022, 9, 12, 13, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def set(self, moment: str) -> None:
        self.now = datetime.fromisoformat(moment.replace("Z", "+00:00"))
