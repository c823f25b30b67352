"""The write path (`write_path`): what a write makes of a document, checked against MongoDB
8.0's rules (`document_limits`, `update_checks`, `unique_indexes`, `write_errors`), and only then
stored; the positional `$` (`positional`), operator updates applied directly (`fast_updates`),
update pipelines (`update_pipelines`), what one command's statements share
(`update_commands`), and bulk writes cut into commands as PyMongo cuts them (`bulk`)."""
