"""The executor and its fast paths: fields that read attributes completed in one step, arguments
and variables coerced once where the answer cannot change, the lean path from a document to its
result. The functions that replace graphql-core's and Strawberry's are put in place by
`runtime.install`, never on import."""
