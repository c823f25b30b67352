"""The HTTP server `arraygraph serve` runs: uvicorn's protocol with read deadlines and a
connection bound, where it listens, and what the process keeps for long."""
