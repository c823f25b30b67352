"""`tools/check_layers.py`: dependencies run app -> schema -> resolvers -> store -> embedded
(the sealed packages: test_check_layers_sealed.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from check_layers import main
from tests.tools.support import REPO_ROOT, run_check


def check(
    root: Path, files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str]]:
    return run_check(main, root, files, capsys)


def test_resolvers_must_not_import_schema_web_app_or_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (
        "from schema.b import C\nimport web.state\nfrom app import create_app\nimport cli\n"
        "from store.sensors import SensorStore\nimport settings\n"
    )
    assert check(tmp_path, {"resolvers/a.py": source}, capsys) == (
        1,
        [
            "resolvers/a.py:1: resolvers.a imports schema.b: resolvers/ must not import schema/",
            "resolvers/a.py:2: resolvers.a imports web.state: resolvers/ must not import web/",
            "resolvers/a.py:3: resolvers.a imports app: resolvers/ must not import app.py",
            "resolvers/a.py:4: resolvers.a imports cli: resolvers/ must not import cli.py",
        ],
    )


def test_store_must_not_import_the_layers_above_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = "import resolvers\nfrom schema import schema\nimport web\nimport pymongo\n"
    assert check(tmp_path, {"store/s.py": source}, capsys) == (
        1,
        [
            "store/s.py:1: store.s imports resolvers: store/ must not import resolvers/",
            "store/s.py:2: store.s imports schema: store/ must not import schema/",
            "store/s.py:3: store.s imports web: store/ must not import web/",
        ],
    )


def test_schema_must_not_import_web_app_or_cli_and_web_must_not_import_app_or_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "schema/s.py": "import web.health\nimport resolvers.sensors\n",
        "web/w.py": "from cli import main\nimport schema\n",
        "app.py": "import web\nimport schema\nimport resolvers\nimport store\nimport embedded\n",
        "cli.py": "import app\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "schema/s.py:1: schema.s imports web.health: schema/ must not import web/",
            "web/w.py:1: web.w imports cli: web/ must not import cli.py",
        ],
    )


def test_relative_imports_are_resolved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {
        "resolvers/__init__.py": "from .paging import page\n",
        "resolvers/sub/x.py": "from ...schema import types\nfrom .. import paging\n",
        "schema/__init__.py": "from .. import web, store\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "resolvers/sub/x.py:1: resolvers.sub.x imports schema: "
            "resolvers/ must not import schema/",
            "schema/__init__.py:1: schema imports web: schema/ must not import web/",
        ],
    )


def test_imports_under_type_checking_and_in_functions_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from resolvers.context import Context\n"
        "def later() -> None:\n"
        "    import schema\n"
        "import resolvers.loaders\n"
    )
    assert check(tmp_path, {"store/s.py": source}, capsys) == (
        1,
        [
            "store/s.py:3: store.s imports resolvers.context: store/ must not import resolvers/",
            "store/s.py:5: store.s imports schema: store/ must not import schema/",
            "store/s.py:6: store.s imports resolvers.loaders: store/ must not import resolvers/",
        ],
    )


def test_the_top_level_tests_bench_tools_and_venv_are_not_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "tests/embedded/test_x.py": "import app\n",
        "bench/embedded/x.py": "import app\n",
        "tools/store/x.py": "import app\n",
        ".venv/lib/store/x.py": "import app\n",
        "store/tests/x.py": "import app\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        ["store/tests/x.py:1: store.tests.x imports app: store/ must not import app.py"],
    )


def test_a_clean_tree_exits_0_with_a_one_line_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "app.py": "import web\nimport settings\n",
        "web/w.py": "import schema\n",
        "schema/s.py": "import resolvers\n",
        "resolvers/r.py": "import store\n",
        "store/database.py": "import embedded\nimport pymongo\n",
        "embedded/e.py": "import mongomock_ng\n",
    }
    assert check(tmp_path, files, capsys) == (
        0,
        ["check-layers: 6 modules, dependencies run one way"],
    )


def test_the_repository_keeps_its_layers(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(REPO_ROOT)
    assert code == 0, capsys.readouterr().out


def test_only_the_database_handle_opens_the_engine_and_no_layer_skips_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "store/database.py": "from embedded import EmbeddedEngine\n",
        "resolvers/r.py": "from embedded import EmbeddedEngine\n",
        "schema/s.py": "import embedded.rules\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "resolvers/r.py:1: resolvers.r imports embedded: resolvers/ must not import embedded/",
            "schema/s.py:1: schema.s imports embedded.rules: schema/ must not import embedded/",
        ],
    )


def test_store_sub_packages_are_store_and_only_the_handle_at_the_top_opens_the_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "store/database.py": "from embedded import EmbeddedEngine\n",
        "store/chat/database.py": "from embedded import EmbeddedEngine\n",
        "store/chat/pages.py": "from store.buckets import buckets\nimport resolvers\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "store/chat/database.py:1: store.chat.database imports embedded:"
            " store/ imports embedded/ only in store/database.py",
            "store/chat/pages.py:2: store.chat.pages imports resolvers:"
            " store/ must not import resolvers/",
        ],
    )


def test_bench_must_not_import_the_test_helpers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {"bench/b.py": "from tests.support import free_port\nfrom app import create_app\n"}
    assert check(tmp_path, files, capsys) == (
        1,
        ["bench/b.py:1: bench.b imports tests.support: bench/ must not import tests/"],
    )


def test_settings_must_not_import_any_layer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "settings/__init__.py": "from settings.values import SettingsError\n",
        "settings/values.py": "import os\nfrom store.times import as_utc\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "settings/values.py:2: settings.values imports store.times: "
            "settings must not import arraygraph (every layer imports it)"
        ],
    )
