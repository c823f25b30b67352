"""The engine as PyMongo's async client offers it: `EmbeddedEngine` (`engine`), its databases
(`database`) and collections (`collection`: its commands' running in `commands`, its reads,
writes and findAndModify each in a module of their own), their options (`options`), cursors
handing out a read's documents in a server's batches (`cursors`, `batches`), and what PyMongo
itself refuses before a command leaves it (`driver`). Each command runs on the read path
(`embedded.stages`) or the write path (`embedded.writes`)."""
