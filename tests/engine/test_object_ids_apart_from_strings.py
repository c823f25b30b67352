"""An ObjectId equals only an ObjectId, as on a server: not its hex string, in a field or in an
array (mongomock-ng matched an array holding the string)."""

from __future__ import annotations

from bson import ObjectId

from tests.engine.fronts import Front

OID = ObjectId("64b7f0c2a1b2c3d4e5f60718")


async def test_an_object_id_does_not_match_its_hex_string(front: Front) -> None:
    refs = front.collection("refs")
    await refs.insert_many(
        [
            {"_id": "string", "ref": str(OID)},
            {"_id": "strings", "ref": [str(OID), "other"]},
            {"_id": "ids", "ref": [OID]},
        ]
    )
    found = await refs.find({"ref": OID}).to_list()
    assert [doc["_id"] for doc in found] == ["ids"]
