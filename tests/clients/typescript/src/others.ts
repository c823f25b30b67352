// tests/clients/typescript/src/others.ts
import { Client, cacheExchange, fetchExchange } from "@urql/core";
import { persistedExchange } from "@urql/exchange-persisted";
import { GraphQLClient } from "graphql-request";

// urql: automatic persisted queries by GET (SHA-256 through Web Crypto, as Apollo's above).
export function createUrqlClient(url: string, token?: string): Client {
  return new Client({
    url,
    exchanges: [
      cacheExchange,
      persistedExchange({ preferGetForPersistedQueries: true }),
      fetchExchange,
    ],
    fetchOptions: () => (token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
}

// graphql-request: one POST per request, typed by the generated documents; no cache.
export function createRequestClient(url: string, token?: string): GraphQLClient {
  return new GraphQLClient(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
}
