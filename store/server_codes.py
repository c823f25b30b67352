"""MongoDB server error codes that `store/` interprets.

The store reads these codes from a write's error, whether it comes from a real server (through
PyMongo) or from the embedded engine, which raises the codes a server raises;
`tests/store/test_server_codes.py` pins that the two agree. Values from the server's
src/mongo/base/error_codes.yml and its write paths.
"""

from __future__ import annotations

# A document over 16 MiB: on insert, after an update, and as an upsert would insert it.
BSON_OBJECT_TOO_LARGE = 10334
UPDATE_RESULT_TOO_LARGE = 17419
UPSERT_RESULT_TOO_LARGE = 17420

DOCUMENT_TOO_LARGE_CODES = frozenset(
    {BSON_OBJECT_TOO_LARGE, UPDATE_RESULT_TOO_LARGE, UPSERT_RESULT_TOO_LARGE}
)
