"""What the observability tests read: request log lines parsed as JSON, and /metrics scraped
and parsed as Prometheus parses it (prometheus_client.parser)."""

from __future__ import annotations

import io
import json
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from tests.support import Api


class LogLines:
    """What a logger wrote through arraygraph's JSON formatter, one parsed object a line."""

    def __init__(self) -> None:
        self.stream = io.StringIO()

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stream.getvalue().splitlines()]

    def last(self) -> dict[str, Any]:
        return self.lines()[-1]


class Scrape:
    """One scrape of /metrics, parsed by prometheus_client's parser."""

    def __init__(self, text: str) -> None:
        self.families = {family.name: family for family in text_string_to_metric_families(text)}

    def value(self, sample: str, **labels: str) -> float:
        """The value of the sample of that name and exactly those labels (0 when absent)."""
        family = self.families[_family_name(sample)]
        for found in family.samples:
            if found.name == sample and found.labels == labels:
                return float(found.value)
        return 0.0

    def total(self, sample: str, **labels: str) -> float:
        """The sum over every sample of that name whose labels include `labels`."""
        family = self.families[_family_name(sample)]
        return sum(
            float(found.value)
            for found in family.samples
            if found.name == sample and labels.items() <= found.labels.items()
        )

    def label_values(self, sample: str, label: str) -> set[str]:
        family = self.families[_family_name(sample)]
        return {found.labels[label] for found in family.samples if found.name == sample}


def _family_name(sample: str) -> str:
    for suffix in ("_total", "_bucket", "_count", "_sum", "_created"):
        if sample.endswith(suffix):
            return sample[: -len(suffix)]
    return sample


async def scrape(api: Api) -> Scrape:
    response = await api.client.get("/metrics")
    assert response.status_code == 200
    return Scrape(response.text)
