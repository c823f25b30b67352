"""The HTTP pieces the app assembles: the GraphQL view, health endpoints, middleware, state."""
