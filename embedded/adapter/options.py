"""A collection's or database's options, as PyMongo's `with_options` sets them, kept where the
engine can honour them.

The write concern decides what a write answers: an acknowledged one (`w: 1`, `majority`, `j`: a
standalone's memory answers them all alike) its result; `w: 0` an unacknowledged result
(`acknowledged` False, whose counts raise `InvalidOperation`, as PyMongo's do), the write done
and its errors unseen, as a client that waits for no reply sees them. A standalone serves every
read preference and read concern level alike. Codec options are honoured only as the engine
decodes (dicts, timezone-aware UTC datetimes); other ones are refused, never ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC
from typing import Any

from bson.binary import UuidRepresentation
from bson.codec_options import CodecOptions, DatetimeConversion
from pymongo.read_concern import ReadConcern
from pymongo.read_preferences import ReadPreference
from pymongo.write_concern import WriteConcern

from embedded import rules

# What the engine's replies are, decoded: what a client configured so would decode.
ENGINE_CODEC_OPTIONS: CodecOptions[dict[str, Any]] = CodecOptions(
    tz_aware=True, tzinfo=UTC, uuid_representation=UuidRepresentation.STANDARD
)


@dataclass(frozen=True, slots=True)
class Options:
    write_concern: WriteConcern = field(default_factory=WriteConcern)
    read_concern: ReadConcern = field(default_factory=ReadConcern)
    read_preference: Any = field(default_factory=lambda: ReadPreference.PRIMARY)
    codec_options: CodecOptions[Any] = field(default_factory=lambda: ENGINE_CODEC_OPTIONS)

    @property
    def acknowledged(self) -> bool:
        return bool(self.write_concern.acknowledged)

    def with_options(
        self,
        codec_options: CodecOptions[Any] | None = None,
        read_preference: Any = None,
        write_concern: WriteConcern | None = None,
        read_concern: ReadConcern | None = None,
    ) -> Options:
        """These options, changed where an argument is given (as PyMongo's `with_options`)."""
        if codec_options is not None:
            check_codec_options(codec_options)
        if write_concern is not None:
            check_write_concern(write_concern)
        return replace(
            self,
            codec_options=codec_options or self.codec_options,
            read_preference=read_preference or self.read_preference,
            write_concern=write_concern or self.write_concern,
            read_concern=read_concern or self.read_concern,
        )


DEFAULT_OPTIONS = Options()


def check_write_concern(write_concern: WriteConcern) -> None:
    if not isinstance(write_concern, WriteConcern):
        raise TypeError(
            f"write_concern must be an instance of pymongo.write_concern.WriteConcern,"
            f" not {type(write_concern)}"
        )
    w = write_concern.document.get("w")
    if isinstance(w, int) and w > 1:  # a standalone has no other member to wait for
        raise rules.unsupported("a write concern of w > 1 (the engine is a standalone)")
    if isinstance(w, str) and w != "majority":
        raise rules.unsupported(f"the write concern tag set {w!r}")


def check_codec_options(codec_options: CodecOptions[Any]) -> None:
    if not isinstance(codec_options, CodecOptions):
        raise TypeError(
            f"codec_options must be an instance of bson.codec_options.CodecOptions,"
            f" not {type(codec_options)}"
        )
    honoured = (
        codec_options.document_class is dict
        and codec_options.tz_aware
        and codec_options.tzinfo in (None, UTC)
        and codec_options.datetime_conversion in (None, DatetimeConversion.DATETIME)
        and not codec_options.type_registry.codecs
        and codec_options.type_registry.fallback_encoder is None
    )
    if not honoured:
        raise rules.unsupported(
            "codec options other than dict documents and timezone-aware UTC datetimes"
        )
