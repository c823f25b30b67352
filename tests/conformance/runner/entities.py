"""`createEntities` and `initialData`: the clients, databases and collections a test names, on a
front, and the documents its collections start with."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pymongo.read_concern import ReadConcern
from pymongo.read_preferences import make_read_preference, read_pref_mode_from_name
from pymongo.write_concern import WriteConcern

from tests.conformance.runner.fronts import Front
from tests.conformance.runner.operations import Unsupported


def databases_named(suite: Mapping[str, Any]) -> list[str]:
    """Every database the file's entities and initial data name, to empty before a test."""
    names = [
        entity["database"]["databaseName"]
        for entity in suite.get("createEntities", ())
        if "database" in entity
    ]
    names += [data["databaseName"] for data in suite.get("initialData", ())]
    return sorted(set(names))


def _options(given: Mapping[str, Any]) -> dict[str, Any]:
    """Collection or database options as PyMongo's `with_options` takes them."""
    options: dict[str, Any] = {}
    if "writeConcern" in given:
        options["write_concern"] = WriteConcern(**given["writeConcern"])
    if "readConcern" in given:
        options["read_concern"] = ReadConcern(given["readConcern"].get("level"))
    if "readPreference" in given:
        preference = given["readPreference"]
        mode = read_pref_mode_from_name(preference["mode"])
        staleness = preference.get("maxStalenessSeconds", -1)
        options["read_preference"] = make_read_preference(mode, None, staleness)
    return options


def create_entities(front: Front, entities: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The entity map: each entity by its `id`."""
    made: dict[str, Any] = {}
    for entity in entities:
        (kind, spec), *_ = entity.items()
        if kind == "client":
            made[spec["id"]] = front.client(spec.get("uriOptions", {}))
        elif kind == "database":
            database = made[spec["client"]][spec["databaseName"]]
            options = _options(spec.get("databaseOptions", {}))
            made[spec["id"]] = database.with_options(**options) if options else database
        elif kind == "collection":
            collection = made[spec["database"]][spec["collectionName"]]
            options = _options(spec.get("collectionOptions", {}))
            made[spec["id"]] = collection.with_options(**options) if options else collection
        else:
            raise Unsupported(f"the runner does not create {kind} entities")
    return made


async def insert_initial_data(front: Front, data: Sequence[Mapping[str, Any]]) -> None:
    client = front.client({})
    for collection in data:
        documents = list(collection["documents"])
        if documents:
            await client[collection["databaseName"]][collection["collectionName"]].insert_many(
                documents
            )
