"""The arraygraph schema: the root types, assembled from each domain's fields, run by the
GraphQL runtime (`runtime/`) under the limits of the settings.

Adding a domain adds its `...Queries` and `...Mutations` here.
"""

from __future__ import annotations

from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.schema.config import StrawberryConfig
from strawberry.types import ExecutionContext

import runtime
from resolvers.access.cost_budget import CostBudgets, budget_charge
from runtime.execution.prepared_schema import PreparedDocumentSchema
from schema.chat import ChatMutations, ChatQueries
from schema.errors import label_errors
from schema.field_facts import DeclaredFacts
from schema.nodes import NodeQueries, node_kinds
from schema.orders import UserMutations, UserQueries
from schema.permissions import guard_fields
from schema.scalars import SCALARS
from schema.sensors import SensorMutations, SensorQueries
from schema.series import SeriesMutations, SeriesQueries
from schema.trades import CustomerMutations, CustomerQueries
from settings import MAX_NAME_LENGTH, MAX_SELECTIONS, Settings

# Distinct documents kept parsed and validated: bounded by count and by bytes, so unique query
# texts cannot grow memory past DOCUMENT_CACHE_BYTES; a text over CACHED_DOCUMENT_CHARS is
# parsed for its request only (runtime/request/document_cache.py).
DOCUMENT_CACHE_SIZE = 1_000
DOCUMENT_CACHE_BYTES = 64 * 1024 * 1024
CACHED_DOCUMENT_CHARS = 16 * 1024


@strawberry.type
class Query(NodeQueries, SensorQueries, UserQueries, CustomerQueries, SeriesQueries, ChatQueries):
    pass


@strawberry.type
class Mutation(SensorMutations, UserMutations, CustomerMutations, SeriesMutations, ChatMutations):
    pass


class ArraygraphSchema(PreparedDocumentSchema):
    # This instance's callers' cost budgets, when ARRAYGRAPH_COST_BUDGET_PER_MINUTE sets one.
    cost_budgets: CostBudgets | None = None

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        # Every result's errors pass here once, before they are returned: each gets its code,
        # and unexpected ones are logged with their stack (expected ones are the client's).
        label_errors(
            errors,
            over_token_limit=self.document_cache.over_token_limit,
            suggestions=self.document_cache.suggestions,
        )


def limits_of(settings: Settings) -> runtime.Limits:
    """The limits the runtime runs a schema under, from the settings."""
    return runtime.Limits(
        max_cost=settings.max_cost,
        max_query_depth=settings.max_query_depth,
        max_aliases=settings.max_aliases,
        max_tokens=settings.max_tokens,
        max_name_length=MAX_NAME_LENGTH,
        max_selections=MAX_SELECTIONS,
        introspection=settings.introspection,
        document_cache_size=DOCUMENT_CACHE_SIZE,
        document_cache_bytes=DOCUMENT_CACHE_BYTES,
        cached_document_chars=CACHED_DOCUMENT_CHARS,
    )


def build_schema(settings: Settings | None = None, **kwargs: Any) -> ArraygraphSchema:
    settings = settings or Settings()
    facts = DeclaredFacts(settings)
    installed = runtime.install(limits_of(settings), facts)
    per_minute = settings.cost_budget_per_minute
    budgets = CostBudgets(per_minute) if per_minute else None
    schema = ArraygraphSchema(
        query=Query,
        mutation=Mutation,
        document_cache=installed.document_cache,
        check=installed.check,
        charge=None if budgets is None else budget_charge(budgets),
        config=StrawberryConfig(scalar_map=SCALARS),
        **kwargs,
    )
    schema.cost_budgets = budgets
    built = runtime.graphql_schema(schema)
    facts.read(built)  # before any request: its fields' facts
    permissions = frozenset(kind.permission for kind in node_kinds().values())
    guard_fields(built, settings, permissions)
    return schema
