"""Where MongoDB's specifications are not on the machine, the conformance run skips, saying
where it looked and how to provide them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.__main__ import main
from tests.conformance.runner.specs import SPECS_ENV, specs_root


def test_an_absent_folder_skips_saying_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(SPECS_ENV, str(tmp_path / "nowhere"))
    assert specs_root() is None
    assert main([]) == 0
    printed = capsys.readouterr().out
    assert "skipped" in printed and SPECS_ENV in printed and "nowhere" in printed
