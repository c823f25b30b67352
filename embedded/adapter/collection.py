"""A collection of the engine: the slice of PyMongo's async collection API that the engine
offers, with PyMongo's signatures, result classes and exceptions.

Its methods are cut by concern: how each command runs and what it answers
(`embedded.adapter.commands`), the reads (`embedded.adapter.collection_reads`, on
`embedded.stages.reads`), the writes (`embedded.adapter.collection_writes`, on
`embedded.writes.write_path`) and findAndModify (`embedded.adapter.find_and_modify`). What PyMongo
refuses before sending is refused before any round trip (`embedded.adapter.driver`), and failures
are what PyMongo raises on a real server.
"""

from __future__ import annotations

from typing import Any

from embedded.adapter.collection_reads import CollectionReads
from embedded.adapter.collection_writes import CollectionWrites
from embedded.adapter.find_and_modify import FindAndModify


class EmbeddedCollection(CollectionReads, CollectionWrites, FindAndModify):
    def with_options(
        self,
        codec_options: Any = None,
        read_preference: Any = None,
        write_concern: Any = None,
        read_concern: Any = None,
    ) -> EmbeddedCollection:
        """A clone of this collection with the options given changed, as PyMongo's: the same
        stored documents, another write concern (`embedded.adapter.options`)."""
        options = self._options.with_options(
            codec_options, read_preference, write_concern, read_concern
        )
        return EmbeddedCollection(self._engine, self._coll, options, self._writes)
