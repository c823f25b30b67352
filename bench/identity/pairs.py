"""Two loads whose ratio is judged, measured back to back: each round runs the pair as A, B,
B, A, half a slice each, and counts each load's two halves as its sample of the round. Which
one leads alternates from round to round, so each side in turn follows the change from another
load. Background work on this shared machine that rises or falls during a round then weighs on
both sides alike, where loads a few slices apart (bench/measure.py's `interleave`) may meet
different neighbours; the ratio stays the median of the rounds' ratios, judged on the server's
CPU per request."""

from __future__ import annotations

from collections.abc import Sequence

from bench.measure import Load, Sample, Samples, interleave, sample

Pair = tuple[Load, Load]


def _merged(halves: Sequence[Sample]) -> Sample:
    return Sample(
        sum(s.requests for s in halves), sum(s.seconds for s in halves), sum(s.cpu for s in halves)
    )


async def measure_pairs(
    pairs: Sequence[Pair], *, rounds: int, seconds: float, connections: int
) -> dict[str, Samples]:
    """Every load checked and warmed up first (as `interleave` does), then `rounds` rounds of
    every pair in turn, A B B A, each pair's lead alternating."""
    loads = [load for pair in pairs for load in pair]
    await interleave(loads, rounds=0, seconds=seconds, connections=connections)
    found = {load.name: Samples(load) for load in loads}
    for number in range(rounds):
        flip = number % 2 == 1
        for first, second in pairs:
            # The lead takes the change from the load before: every other round, each side.
            a, b = (second, first) if flip else (first, second)
            halves: dict[str, list[Sample]] = {a.name: [], b.name: []}
            for load in (a, b, b, a):
                taken = await sample(load, seconds=seconds / 2, connections=connections)
                halves[load.name].append(taken)
            for name, taken_halves in halves.items():
                found[name].rounds.append(_merged(taken_halves))
    return found
