"""The read path (`reads`): a filter, a sort and a pipeline run on the stored documents, only
the reply copied; and the stages it runs without mongomock-ng's copies (`plain_stages`,
`group_stage`, `match_stage`, `sort_stage`, `unwind_stage`, installed through `stage_hooks`),
`find` projections (`projections`) and trailing `$unionWith` stages (`unions`)."""
