"""Strawberry types, inputs and the schema: shapes only, no logic."""
