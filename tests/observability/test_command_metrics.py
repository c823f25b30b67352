"""MongoDB commands in the metrics: counted by name, timed in a histogram, and equal to the
round trips each request's log line reports (in process and through PyMongo alike)."""

from __future__ import annotations

from settings import Settings
from store.database import Database
from tests.observability.observed import LogLines, scrape
from tests.support import Api, ApiFactory

COMMANDS = "arraygraph_mongodb_commands_total"
LATENCY = "arraygraph_mongodb_command_duration_seconds"
PAGE = "query Page { sensors(first: 5) { totalCount edges { node { title count24h } } } }"


async def test_command_metrics_count_what_a_request_sends(api: Api, request_log: LogLines) -> None:
    await api.data('mutation { createSensor(title: "A") { id } }')
    before = (await scrape(api)).total(COMMANDS)
    api.commands.reset()
    await api.data(PAGE)
    after = (await scrape(api)).total(COMMANDS)
    line = [line for line in request_log.lines() if line["path"] == "/graphql"][-1]
    assert after - before == api.commands.count == line["round_trips"] >= 1


async def test_command_metrics_label_each_command_by_name(api: Api) -> None:
    api.commands.reset()
    await api.data('mutation { createSensor(title: "A") { id } }')
    await api.data(PAGE)
    scraped = await scrape(api)
    for name, count in api.commands.by_name.items():
        assert scraped.value(COMMANDS, command=name) >= count


async def test_command_metrics_time_each_command_that_replies(api: Api) -> None:
    await api.data('mutation { createSensor(title: "A") { id } }')
    before = await scrape(api)
    api.commands.reset()
    await api.data(PAGE)
    after = await scrape(api)
    timed = after.total(f"{LATENCY}_count") - before.total(f"{LATENCY}_count")
    assert timed == api.commands.count
    assert after.total(f"{LATENCY}_sum") > before.total(f"{LATENCY}_sum")


async def test_command_metrics_watch_the_database_only_while_the_app_serves(
    make_api: ApiFactory, settings: Settings, database: Database
) -> None:
    async with make_api(settings, database=database):
        assert len(database.commands.watchers) == 1  # the app's metrics
    assert database.commands.watchers == []
