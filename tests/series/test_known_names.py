"""What a database handle remembers of the catalogue (to skip its command on known names) is
bounded, and holds only what a stored entry showed."""

from __future__ import annotations

from resolvers.measurements import MAX_KNOWN_MEASUREMENTS, KnownNames
from store.series.measurements import MeasurementDoc


def test_known_names_start_again_past_their_bound() -> None:
    known = KnownNames()
    for i in range(MAX_KNOWN_MEASUREMENTS + 1):
        known.learn(MeasurementDoc(f"m{i}", ("f",), ()))
    assert len(known.fields) == 1
    assert known.knows(f"m{MAX_KNOWN_MEASUREMENTS}", {"f"}, set())


def test_known_names_asked_about_an_unknown_measurement_remember_nothing() -> None:
    known = KnownNames()
    assert not known.knows("never", {"f"}, set())
    assert known.fields == {} and known.tag_keys == {}
