"""The identities' place in the metrics: credentials refused by reason, the JWKS's fetches by
outcome, its keys and when it was last loaded, verified tokens kept. Read from the
authenticator's plain counts at each scrape, so a request pays nothing for them."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from web.identity.authenticator import Authenticator


class IdentityCollector(Collector):
    def __init__(self, authenticator: Authenticator) -> None:
        self.authenticator = authenticator

    def collect(self) -> Iterator[CounterMetricFamily | GaugeMetricFamily]:
        authenticator = self.authenticator
        refused = CounterMetricFamily(
            "arraygraph_credentials_refused",
            "Bearer credentials not accepted, by reason",
            labels=("reason",),
        )
        for reason, count in authenticator.refusals.items():
            refused.add_metric((reason,), count)
        yield refused
        yield GaugeMetricFamily(
            "arraygraph_verified_tokens",
            "Verified JWTs kept, so that their signatures are not checked again",
            value=len(authenticator.verified),
        )
        keys = authenticator.keys
        if keys is None:
            return
        fetches = CounterMetricFamily(
            "arraygraph_jwks_fetches",
            "Fetches of the JWKS, by outcome (ok or error)",
            labels=("outcome",),
        )
        for outcome, count in keys.fetches.items():
            fetches.add_metric((outcome,), count)
        yield fetches
        yield GaugeMetricFamily(
            "arraygraph_jwks_keys", "Signing keys held from the JWKS", value=len(keys.keys)
        )
        yield GaugeMetricFamily(
            "arraygraph_jwks_loaded_timestamp_seconds",
            "When the JWKS was last loaded (0: never)",
            value=keys.loaded_at or 0.0,
        )


def register_identity_metrics(registry: CollectorRegistry, authenticator: Authenticator) -> None:
    registry.register(IdentityCollector(authenticator))
