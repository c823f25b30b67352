"""A collection's options in process, as PyMongo's `with_options` sets them: kept where the
engine honours them, refused (NotImplemented, 238) where it cannot, never ignored."""

from __future__ import annotations

import pytest
from bson.codec_options import CodecOptions
from pymongo.errors import OperationFailure
from pymongo.read_preferences import ReadPreference
from pymongo.write_concern import WriteConcern

from embedded import EmbeddedEngine

NOT_IMPLEMENTED = 238


async def test_options_are_kept_and_the_documents_shared(engine: EmbeddedEngine) -> None:
    coll = engine["test"]["things"]
    secondary = coll.with_options(read_preference=ReadPreference.SECONDARY_PREFERRED)
    assert secondary.read_preference == ReadPreference.SECONDARY_PREFERRED
    assert coll.read_preference == ReadPreference.PRIMARY
    await secondary.insert_one({"_id": 1})
    assert await coll.find_one({"_id": 1}) == {"_id": 1}


async def test_a_database_gives_its_options_to_its_collections(engine: EmbeddedEngine) -> None:
    db = engine["test"].with_options(write_concern=WriteConcern(w=0))
    assert (await db["things"].insert_one({"_id": 1})).acknowledged is False
    assert await engine["test"]["things"].count_documents({}) == 1


@pytest.mark.parametrize(
    "options",
    [
        {"write_concern": WriteConcern(w=2)},
        {"codec_options": CodecOptions(tz_aware=False)},
    ],
)
def test_what_the_engine_cannot_honour_is_refused(
    engine: EmbeddedEngine, options: dict[str, object]
) -> None:
    with pytest.raises(OperationFailure) as raised:
        engine["test"]["things"].with_options(**options)
    assert raised.value.code == NOT_IMPLEMENTED
