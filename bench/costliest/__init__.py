"""The costliest request of each root field, the server's CPU and event-loop slice for it
(bench/costliest/run.py; `python -m bench.costliest`)."""
