"""GraphiQL, served offline: the page, its assets and the query it opens with."""
