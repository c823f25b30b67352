"""The engine counts the stored documents each command examines, by collection, as a server's
explain counts them (`totalDocsExamined`): `engine.examined`, a `DocumentsExamined` unless the
engine is given an `ExaminationObserver` of its own."""

from __future__ import annotations

from embedded import EmbeddedEngine
from embedded.protocols import DocumentsExamined
from tests.engine.fronts import Front


async def _things(front: Front, size: int = 20) -> None:
    await front.collection("things").insert_many([{"_id": i, "n": i % 5} for i in range(size)])
    await front.collection("others").insert_many([{"_id": i} for i in range(3)])
    front.examined.reset()


async def test_examined_counters_default_to_documents_examined() -> None:
    assert isinstance(EmbeddedEngine().examined, DocumentsExamined)


async def test_examined_counters_go_to_the_engines_observer() -> None:
    seen: list[tuple[str, int]] = []

    class Observer:
        def examined(self, namespace: str, documents: int) -> None:
            seen.append((namespace, documents))

    things = EmbeddedEngine(examined=Observer())["test"]["things"]
    await things.insert_many([{"_id": i} for i in range(5)])
    await things.find({"_id": 3}).to_list()
    await things.find({}).to_list()
    assert seen == [("test.things", 1), ("test.things", 5)]


async def test_examined_counters_count_a_scan_as_every_document(front: Front) -> None:
    await _things(front)
    assert await front.collection("things").count_documents({"n": 1}) == 4
    assert front.examined.by_namespace == {"test.things": 20}


async def test_examined_counters_count_nothing_for_a_missing_key(front: Front) -> None:
    await _things(front)
    assert await front.collection("things").find_one({"_id": 99}) is None
    assert front.examined.total == 0


async def test_examined_counters_count_each_union_branch_on_its_collection(front: Front) -> None:
    await _things(front)
    pipeline = [{"$match": {"_id": 1}}, {"$unionWith": {"coll": "others"}}]
    found = await (await front.collection("things").aggregate(pipeline)).to_list()
    assert len(found) == 4
    assert front.examined.by_namespace == {"test.things": 1, "test.others": 3}
