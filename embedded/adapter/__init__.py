"""The engine as PyMongo's async client offers it: `EmbeddedEngine` (`engine`), its databases
and collections (`collection`), cursors handing out a read's documents in a server's batches
(`cursors`, `batches`), and what PyMongo itself refuses before a command leaves it (`driver`).
Each command runs on the read path (`embedded.stages`) or the write path (`embedded.writes`)."""
