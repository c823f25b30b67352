"""Who a caller is: the bearer token of a request verified as a service token or a JWT, into
the `Identity` the resolvers read (resolvers/identity.py)."""
