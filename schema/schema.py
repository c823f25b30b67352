"""The arraygraph schema: Query, Mutation, and the extensions that guard every request."""

from __future__ import annotations

from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.schema.config import StrawberryConfig
from strawberry.types import ExecutionContext

from resolvers import customers, sensors, users
from resolvers.document_cache import DocumentCache
from resolvers.error_policy import log_unexpected
from resolvers.permissions import CanWrite
from schema.customers import Customer, RecordTradesPayload
from schema.scalars import SCALARS
from schema.sensors import RecordSensorEventsPayload, Sensor, SensorConnection
from schema.users import User
from settings import Settings

# Parsed and validated documents are cached: re-parsing and re-validating every request costs
# more than most resolvers. Bounded, so unique query texts cannot grow memory without limit.
DOCUMENT_CACHE_SIZE = 1_000


@strawberry.type
class Query:
    sensor: Sensor | None = strawberry.field(resolver=sensors.sensor)
    sensors: SensorConnection = strawberry.field(resolver=sensors.sensors)
    user: User | None = strawberry.field(resolver=users.user)
    customer: Customer | None = strawberry.field(
        resolver=customers.customer, description="Null when the customer has no trades."
    )
    users: list[User | None] = strawberry.field(
        resolver=users.users,
        description="In the order asked, null where unknown; at most 100 ids.",
    )


@strawberry.type
class Mutation:
    create_sensor: Sensor = strawberry.mutation(
        resolver=sensors.create_sensor, permission_classes=[CanWrite]
    )
    rename_sensor: Sensor = strawberry.mutation(
        resolver=sensors.rename_sensor, permission_classes=[CanWrite]
    )
    delete_sensor: bool = strawberry.mutation(
        resolver=sensors.delete_sensor,
        permission_classes=[CanWrite],
        description="True when a sensor was deleted, false when there was none with this id.",
    )
    record_sensor_events: RecordSensorEventsPayload = strawberry.mutation(
        resolver=sensors.record_sensor_events, permission_classes=[CanWrite]
    )
    upsert_orders: User = strawberry.mutation(
        resolver=users.upsert_orders,
        permission_classes=[CanWrite],
        description="Replace orders by id, insert new ones, create the user when missing.",
    )
    record_trades: RecordTradesPayload = strawberry.mutation(
        resolver=customers.record_trades,
        permission_classes=[CanWrite],
        description="Append 1 to 100 trades, 10 to a bucket, in order.",
    )
    delete_orders: User = strawberry.mutation(
        resolver=users.delete_orders,
        permission_classes=[CanWrite],
        description="Remove orders by id; unknown ids are ignored.",
    )


class ArraygraphSchema(strawberry.Schema):
    def __init__(self, *args: Any, document_cache: DocumentCache, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        document_cache.schema = self._schema
        self.document_cache = document_cache

    def _create_execution_context(self, *args: Any, **kwargs: Any) -> ExecutionContext:
        context = super()._create_execution_context(*args, **kwargs)
        self.document_cache.prepare(context)
        return context

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        # Expected errors are the client's business; only unexpected ones are logged, with stack.
        log_unexpected(errors)


def build_schema(settings: Settings | None = None) -> strawberry.Schema:
    settings = settings or Settings()
    return ArraygraphSchema(
        query=Query,
        mutation=Mutation,
        document_cache=DocumentCache(settings, size=DOCUMENT_CACHE_SIZE),
        config=StrawberryConfig(scalar_map=SCALARS),
    )
