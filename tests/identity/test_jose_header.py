"""The header read to choose a key (web/identity/jose_header.py) is PyJWT's own, and never
stricter than PyJWT: a token PyJWT would read is never refused by it, and whatever it lets
through that PyJWT would not is refused when PyJWT decodes it."""

from __future__ import annotations

import base64
import json

import jwt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from resolvers.errors import Unauthenticated
from tests.support.jwks import signing_key, writer
from web.identity.jose_header import unverified_header

KEY = signing_key(kid="k")
TOKEN = KEY.sign(writer())


def segment(value: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


def pyjwt_header(token: str) -> dict[str, object] | None:
    try:
        return jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        return None


def ours(token: str) -> dict[str, object] | None:
    try:
        return unverified_header(token)
    except Unauthenticated as error:
        assert error.reason == "malformed"
        return None


def test_a_signed_token_reads_as_pyjwt_reads_it() -> None:
    assert ours(TOKEN) == pyjwt_header(TOKEN) == {"alg": "ES256", "kid": "k", "typ": "JWT"}


@pytest.mark.parametrize(
    "token",
    [
        "",
        "not-a-jwt",
        "a.b",
        "a.b.c.d",
        f".{TOKEN.split('.', 1)[1]}",
        f"{segment([1, 2])}.e30.sig",
        f"{segment('alg')}.e30.sig",
        f"{TOKEN}!",
        f"{TOKEN.split('.')[0]}===.e30.sig",
        "%%%.e30.sig",
    ],
)
def test_what_is_no_compact_jws_is_malformed(token: str) -> None:
    assert ours(token) is None
    assert pyjwt_header(token) is None


JUNK = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=.+/~"
PARTS = TOKEN.split(".")


@given(
    st.one_of(
        st.text(alphabet=JUNK),
        # A real token's segments, each with junk or padding around it.
        st.tuples(*[st.tuples(st.text(JUNK, max_size=3), st.just(part)) for part in PARTS]).map(
            lambda parts: ".".join(part + extra for extra, part in parts)
        ),
        st.tuples(st.sampled_from(PARTS), st.text("=", max_size=3)).map(
            lambda found: f"{found[0]}{found[1]}.{PARTS[1]}.{PARTS[2]}"
        ),
    )
)
def test_never_stricter_than_pyjwt(token: str) -> None:
    found = ours(token)
    expected = pyjwt_header(token)
    if expected is not None:
        assert found == expected


@given(st.dictionaries(st.text(), st.one_of(st.text(), st.integers(), st.none()), max_size=4))
def test_any_json_object_header_reads_alike(header: dict[str, object]) -> None:
    token = f"{segment(header)}.{TOKEN.split('.', 1)[1]}"
    assert ours(token) == header
    expected = pyjwt_header(token)
    assert expected is None or expected == header  # PyJWT also checks `kid` is a string
