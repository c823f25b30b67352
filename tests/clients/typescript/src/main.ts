// Reads the demo data through Apollo Client and prints what it read as one JSON document:
// node dist/main.js <endpoint> <userId> <pageSize> [trusted]
import type { ApolloClient } from "@apollo/client";
import { filter, firstValueFrom, map } from "rxjs";

import { createClient } from "./client.js";
import { nodeQuery, sensorFields, sensorsQuery, userOrdersQuery } from "./documents.js";
import type { SensorsQuery, UserOrdersQuery } from "./gql/graphql.js";
import { getFragmentData } from "./gql/index.js";
import { createRequestClient, createUrqlClient } from "./others.js";

interface Sent {
  method: string;
  hash: string | null;
  withQuery: boolean;
}

// Every request the client sends, to show that automatic persisted queries took place.
function recordingFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : {};
    const extensions = body.extensions ?? JSON.parse(url.searchParams.get("extensions") ?? "{}");
    sent.push({
      method: init?.method ?? "GET",
      hash: extensions.persistedQuery?.sha256Hash ?? null,
      withQuery: typeof (body.query ?? url.searchParams.get("query")) === "string",
    });
    return fetch(input, init);
  };
}

async function readSensors(client: ApolloClient) {
  const { data } = await client.query({ query: sensorsQuery, variables: { first: 10 } });
  const edges = data?.sensors.edges ?? [];
  const sensors = edges.map((edge) => getFragmentData(sensorFields, edge.node));
  const first = sensors[0];
  const found = first ? await client.query({ query: nodeQuery, variables: { id: first.id } }) : null;
  const node = found?.data?.node;
  const fetchedBack = node?.__typename === "Sensor" ? getFragmentData(sensorFields, node) : null;
  return { totalCount: data?.sensors.totalCount, sensors, fetchedBack };
}

// Two pages through fetchMore: User.orders' type policy merges them into one list, which the
// watching query answers once the cache has it.
async function readTwoPages(client: ApolloClient, userId: string, first: number) {
  const observable = client.watchQuery({ query: userOrdersQuery, variables: { userId, first } });
  const watching = observable.subscribe(() => undefined);
  const orderIds = (data: UserOrdersQuery) =>
    data.user?.orders.edges.map((edge) => edge.node.orderId) ?? [];
  const answer = (atLeast: number) =>
    firstValueFrom(
      observable.pipe(
        filter((result) => result.dataState === "complete"),
        map((result) => result.data as UserOrdersQuery),
        filter((data) => orderIds(data).length >= atLeast),
      ),
    );
  const firstPage = await answer(1);
  const after = firstPage.user?.orders.pageInfo.endCursor ?? null;
  await observable.fetchMore({ variables: { after } });
  const merged = await answer(orderIds(firstPage).length + 1);
  watching.unsubscribe();
  return {
    firstPage: orderIds(firstPage),
    merged: orderIds(merged),
    totalCount: merged.user?.orders.totalCount ?? null,
  };
}

// The same first read through urql and graphql-request.
async function readWithOthers(uri: string) {
  const urql = await createUrqlClient(uri).query(sensorsQuery, { first: 10 }).toPromise();
  if (urql.error) throw urql.error;
  const request = await createRequestClient(uri).request(sensorsQuery, { first: 10 });
  const titles = (data: SensorsQuery | undefined) =>
    (data?.sensors.edges ?? []).map((edge) => getFragmentData(sensorFields, edge.node).title);
  return { urql: titles(urql.data), graphqlRequest: titles(request) };
}

async function main(): Promise<void> {
  const [uri = "http://127.0.0.1:8000/graphql", userId = "u1", pageSize = "5", mode = ""] =
    process.argv.slice(2);
  const sent: Sent[] = [];
  const client = createClient({ uri, trusted: mode === "trusted", fetch: recordingFetch(sent) });
  const sensors = await readSensors(client);
  const orders = await readTwoPages(client, userId, Number(pageSize));
  // Once more past the cache: the server knows the document now, so its hash alone goes.
  await client.query({ query: sensorsQuery, variables: { first: 10 }, fetchPolicy: "network-only" });
  const others = mode === "trusted" ? null : await readWithOthers(uri);
  console.log(JSON.stringify({ sensors, orders, sent, others }));
}

await main();
