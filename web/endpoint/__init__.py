"""The GraphQL endpoint: a request read, its document found (sent, by hash or by id), the
answer written as GraphQL over HTTP asks."""
