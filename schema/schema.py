"""The arraygraph schema: the root types, assembled from each domain's fields.

Adding a domain adds its `...Queries` and `...Mutations` here; nothing else is shared.
"""

from __future__ import annotations

from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.schema.config import StrawberryConfig
from strawberry.types import ExecutionContext

from schema import error_locations
from schema.chat import ChatMutations, ChatQueries
from schema.check_memo import AnswersKept
from schema.cost import CostLimit
from schema.document_cache import DocumentCache
from schema.errors import label_errors
from schema.nodes import NodeQueries
from schema.operation_fields import ExecutionCheck, OperationFields
from schema.orders import UserMutations, UserQueries
from schema.payload_arguments import PayloadArgumentsFirst
from schema.scalars import SCALARS
from schema.sensors import SensorMutations, SensorQueries
from schema.series import SeriesMutations, SeriesQueries
from schema.strawberry_internals import PreparedDocumentSchema
from schema.trades import CustomerMutations, CustomerQueries
from settings import Settings

# Distinct documents kept parsed and validated: bounded by count and by bytes, so unique query
# texts cannot grow memory past DOCUMENT_CACHE_BYTES; a text over CACHED_DOCUMENT_CHARS is
# parsed for its request only (schema/document_cache.py).
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


def first_refusal(*checks: ExecutionCheck) -> ExecutionCheck:
    """One check of several, in order: the first refusal is the answer."""

    def check(fields: OperationFields) -> GraphQLError | None:
        for each in checks:
            refused = each(fields)
            if refused is not None:
                return refused
        return None

    return check


def build_schema(settings: Settings | None = None, **kwargs: Any) -> ArraygraphSchema:
    settings = settings or Settings()
    error_locations.install()
    return ArraygraphSchema(
        query=Query,
        mutation=Mutation,
        document_cache=DocumentCache(
            settings,
            size=DOCUMENT_CACHE_SIZE,
            budget=DOCUMENT_CACHE_BYTES,
            largest=CACHED_DOCUMENT_CHARS,
        ),
        check=AnswersKept(
            first_refusal(
                CostLimit(settings), PayloadArgumentsFirst(settings, mutation_type="Mutation")
            )
        ),
        config=StrawberryConfig(scalar_map=SCALARS),
        **kwargs,
    )
