"""Two loads whose ratio is judged, measured back to back: each round runs the pair as A, B,
B, A, half a slice each, and counts each load's two halves as its sample of the round.
Background work on this shared machine that rises or falls during a round then weighs on both
sides alike, where loads a few slices apart (bench/measure.py's `interleave`) may meet
different neighbours; the ratio stays the median of the rounds' ratios, judged on the server's
CPU per request.

The first slice after another load costs the server a little more (its caches hold the other
load's work): A runs unmeasured for a moment first (LEAD_IN of a slice), and which of the two
leads alternates from round to round, so what remains of that falls on each side alike."""

from __future__ import annotations

from collections.abc import Sequence

from bench.measure import Load, Sample, Samples, interleave, sample

Pair = tuple[Load, Load]
LEAD_IN = 0.25  # of a slice: the unmeasured run of the lead before each pair


def _merged(halves: Sequence[Sample]) -> Sample:
    return Sample(
        sum(s.requests for s in halves), sum(s.seconds for s in halves), sum(s.cpu for s in halves)
    )


async def measure_pairs(
    pairs: Sequence[Pair], *, rounds: int, seconds: float, connections: int
) -> dict[str, Samples]:
    """Every load checked and warmed up first (as `interleave` does), then `rounds` rounds of
    every pair in turn: A unmeasured, then A B B A measured, each pair's lead alternating."""
    loads = [load for pair in pairs for load in pair]
    await interleave(loads, rounds=0, seconds=seconds, connections=connections)
    found = {load.name: Samples(load) for load in loads}
    for number in range(rounds):
        flip = number % 2 == 1
        for first, second in pairs:
            a, b = (second, first) if flip else (first, second)
            await sample(a, seconds=seconds * LEAD_IN, connections=connections)
            halves: dict[str, list[Sample]] = {a.name: [], b.name: []}
            for load in (a, b, b, a):
                taken = await sample(load, seconds=seconds / 2, connections=connections)
                halves[load.name].append(taken)
            for name, taken_halves in halves.items():
                found[name].rounds.append(_merged(taken_halves))
    return found
