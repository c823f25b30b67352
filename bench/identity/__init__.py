"""Bearer JWTs' cost (issue 35): requests with a JWT of many in rotation against the same
without a token, and one cold RS256 verification (bench/identity/run.py;
`python -m bench.identity`)."""
