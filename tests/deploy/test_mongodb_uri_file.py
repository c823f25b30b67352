"""`MONGODB_URI_FILE`: the URI read from a file, as a container secret is mounted (it holds the
application user's password), checked as `MONGODB_URI` is; never both; the password never in
an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from settings import Settings, SettingsError

URI = "mongodb://arraygraph:s3cret-pw@mongodb:27017/?replicaSet=rs0&authSource=admin"


def test_the_uri_is_read_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "mongodb-uri"
    path.write_text(URI + "\n", encoding="utf-8")  # as `echo` writes it: the newline is dropped
    assert Settings.from_env({"MONGODB_URI_FILE": str(path)}).mongodb_uri == URI


def test_the_uri_and_its_file_are_never_both_set(tmp_path: Path) -> None:
    path = tmp_path / "mongodb-uri"
    path.write_text(URI, encoding="utf-8")
    with pytest.raises(SettingsError, match="MONGODB_URI and MONGODB_URI_FILE are both set"):
        Settings.from_env({"MONGODB_URI": URI, "MONGODB_URI_FILE": str(path)})


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("http://arraygraph:s3cret-pw@mongodb", "MONGODB_URI must start with mongodb://"),
        ("mongodb://arraygraph:s3cret-pw@/", "MONGODB_URI names no host"),
        ("mongodb://arraygraph:s3cret-pw@mongodb:99999/", "MONGODB_URI: "),
        ("", "MONGODB_URI_FILE: .* is empty"),
    ],
)
def test_a_file_holding_no_usable_uri_is_refused_without_its_password(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "mongodb-uri"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SettingsError, match=message) as refused:
        Settings.from_env({"MONGODB_URI_FILE": str(path)})
    assert "s3cret-pw" not in str(refused.value)


def test_a_missing_file_is_refused_naming_the_variable(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="MONGODB_URI_FILE: cannot read"):
        Settings.from_env({"MONGODB_URI_FILE": str(tmp_path / "absent")})
