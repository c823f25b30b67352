"""Aggregation expressions: each compiled once into closures (`compiler`, with its operator
families `arithmetic`, `array_expressions`, `value_expressions`, `comparisons`, and the
`paths`, `literals` they read), and the operators MongoDB 8.0 has where mongomock-ng lacks them
or answers otherwise, taught to mongomock-ng's parser (`operators`, `number_types`,
`range_operator`)."""
