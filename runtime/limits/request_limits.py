"""The limits a schema runs under, as the runtime reads them: the schema fills them from its
settings (`schema.schema.build_schema`), so that the runtime knows no setting of its own."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """What a request may ask, and how much of it is kept between requests."""

    max_cost: int  # the cost walk's bound (runtime/limits/cost.py)
    max_query_depth: int  # fields above a field, root fields at 0
    max_aliases: int  # aliases, each counted once per spread of its fragment
    max_tokens: int  # a document's tokens, comments included, as the parser counts them
    max_name_length: int  # a name's characters (fields, aliases, fragments, variables)
    max_selections: int  # fields selected, each once per spread of its fragment
    introspection: bool  # whether `__schema` and `__type` validate (and errors suggest names)
    document_cache_size: int  # distinct documents kept parsed and validated
    document_cache_bytes: int  # the bytes they may hold, by `entry_bytes`
    cached_document_chars: int  # a longer text is parsed for its request only
