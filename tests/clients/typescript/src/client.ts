// tests/clients/typescript/src/client.ts
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from "@apollo/client";
import type { DocumentNode, TypePolicies } from "@apollo/client";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { relayStylePagination } from "@apollo/client/utilities";

// Every connection field that takes arguments. keyArgs name the arguments that select a
// different list (they get a cache entry each); paging arguments (first, after, last,
// before) are left out, so that fetchMore's pages merge into one list.
export const typePolicies: TypePolicies = {
  Query: {
    fields: {
      sensors: relayStylePagination(["orderBy", "filter"]),
      chatSessions: relayStylePagination(),
    },
  },
  User: { fields: { orders: relayStylePagination(["maxCreateTime"]) } },
  Customer: { fields: { trades: relayStylePagination() } },
  ChatSession: { fields: { messages: relayStylePagination(), members: relayStylePagination() } },
};

// The types implementing Node, so that `node(id:) { ... on Sensor }` matches in the cache.
export const possibleTypes = {
  Node: ["ChatSession", "Customer", "Measurement", "Message", "Order", "Sensor", "Trade", "User"],
};

// SHA-256 in hex through the Web Crypto API, which browsers and Node 20 both have.
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// With ARRAYGRAPH_TRUSTED_DOCUMENTS: the hash codegen wrote into persisted-documents.json
// (and into each document), not one of the text Apollo prints, which the server never saw.
export function trustedHash(document: DocumentNode): string {
  const hash = (document as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (!hash) throw new Error("a document GraphQL Code Generator did not persist");
  return hash.replace(/^sha256:/, "");
}

export interface ClientOptions {
  uri: string;
  // Needed for mutations when the server sets ARRAYGRAPH_API_TOKENS.
  token?: string;
  // The server runs the trusted documents only (ARRAYGRAPH_TRUSTED_DOCUMENTS).
  trusted?: boolean;
  fetch?: typeof fetch;
}

export function createClient({ uri, token, trusted, fetch }: ClientOptions): ApolloClient {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  // Persisted queries: the hash first; the document only when the server asks (never, for
  // trusted documents). GET lets a CDN cache the answers.
  const persisted = trusted
    ? new PersistedQueryLink({ generateHash: trustedHash, useGETForHashedQueries: true })
    : new PersistedQueryLink({ sha256, useGETForHashedQueries: true });
  const http = new HttpLink({ uri, headers, ...(fetch ? { fetch } : {}) });
  return new ApolloClient({
    link: ApolloLink.from([persisted, http]),
    cache: new InMemoryCache({ typePolicies, possibleTypes }),
  });
}
