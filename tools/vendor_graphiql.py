"""Vendor GraphiQL: the files Strawberry's GraphiQL page loads from a CDN, taken at the versions
the page pins from the npm registry (`npm pack`), into web/graphiql/assets/.

`python tools/vendor_graphiql.py` reads the installed Strawberry's static/graphiql.html, packs
each package@version it names, checks every file against the page's own `integrity` hash (a
mismatch stops the run and writes nothing), and rewrites web/graphiql/assets/ whole: the files,
each package's licence, and manifest.json (package, version, file, sha384 SRI hash, licence).
Run it after upgrading Strawberry when its page asks for other versions: until then the server
refuses to start with GraphiQL on (web/graphiql/page.py names this script).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from importlib.metadata import version as installed_version
from pathlib import Path

from strawberry.http.ides import get_graphql_ide_html

from sources import ROOT

ASSETS = ROOT / "web" / "graphiql" / "assets"
PAGE = "graphiql.html"  # Strawberry's page (MIT, strawberry-graphql), as vendored
# src="https://unpkg.com/<package>@<version>/<path>" integrity="sha384-...", as the page has them.
CDN_FILE = re.compile(
    r'(?:src|href)="(?P<url>https://unpkg\.com/(?P<package>(?:@[^/@"]+/)?[^/@"]+)'
    r'@(?P<version>[^/"]+)/(?P<path>[^"]+))"\s+integrity="(?P<sri>sha384-[^"]+)"'
)
LICENCE_NAMES = re.compile(r"package/(LICEN[CS]E)(\.md|\.txt)?", re.IGNORECASE)


@dataclass(frozen=True)
class Wanted:
    url: str
    package: str
    version: str
    path: str
    sri: str

    @property
    def slug(self) -> str:
        return f"{self.package.removeprefix('@').replace('/', '-')}-{self.version}"


@dataclass(frozen=True)
class Packed:
    tarball: Path
    integrity: str  # the registry's hash of the tarball, checked by npm
    licence: str  # the SPDX id package.json declares
    repository: str
    licence_text: str | None


def sri(data: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def wanted_files(template: str) -> list[Wanted]:
    found = [Wanted(**m.groupdict()) for m in CDN_FILE.finditer(template)]
    if not found:
        sys.exit("vendor-graphiql: no unpkg.com file with an integrity hash in Strawberry's page")
    return found


def repository_of(manifest: dict[str, object]) -> str:
    repo = manifest.get("repository", "")
    url = repo.get("url", "") if isinstance(repo, dict) else str(repo)
    url = re.sub(r"^(git\+)?(https?|git)://", "https://", str(url))
    return url.removesuffix(".git").rstrip("/")


def pack(package: str, version: str, into: Path) -> Packed:
    """`npm pack package@version`: the tarball (npm checks it against the registry's hash)."""
    spec = f"{package}@{version}"
    out = subprocess.run(
        ["npm", "pack", spec, "--json", "--pack-destination", str(into)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    info = json.loads(out)[0]
    tarball = into / info["filename"]
    with tarfile.open(tarball) as tar:
        meta = json.loads(read_member(tar, "package/package.json"))
        licences = [m for m in tar.getnames() if LICENCE_NAMES.fullmatch(m)]
        text = read_member(tar, licences[0]).decode() if licences else None
    return Packed(tarball, info["integrity"], meta["license"], repository_of(meta), text)


def read_member(tar: tarfile.TarFile, name: str) -> bytes:
    member = tar.extractfile(name)
    if member is None:
        sys.exit(f"vendor-graphiql: {name} is not a file in the tarball")
    return member.read()


def licence_file(key: str, packed: dict[str, Packed]) -> str:
    """The package's licence; one that ships none gets its declaration, and the licence of a
    package published from the same repository where there is one."""
    own = packed[key]
    if own.licence_text is not None:
        return own.licence_text
    text = (
        f"{key} ships no licence file. Its package.json declares the licence {own.licence}, and "
        f"it is published from {own.repository}.\n"
    )
    for other_key, other in sorted(packed.items()):
        if other.repository == own.repository and other.licence_text is not None:
            text += f"\nThe licence of that repository, as {other_key} ships it:\n\n"
            text += other.licence_text
            break
    return text


def write_assets(target: Path, files: list[Wanted], packed: dict[str, Packed]) -> None:
    """Every file checked against the page's hash, then the licences and the manifest."""
    entries = []
    for want in files:
        key = f"{want.package}@{want.version}"
        with tarfile.open(packed[key].tarball) as tar:
            data = read_member(tar, f"package/{want.path}")
        if sri(data) != want.sri:
            sys.exit(f"vendor-graphiql: {want.url} is {sri(data)}, the page pins {want.sri}")
        name = f"{want.slug}-{Path(want.path).name}"
        (target / name).write_bytes(data)
        licence = f"{want.slug}.LICENSE"
        (target / licence).write_text(licence_file(key, packed), encoding="utf-8")
        entries.append(
            {
                "file": name,
                "package": want.package,
                "version": want.version,
                "path": want.path,
                "url": want.url,
                "sha384": want.sri,
                "tarball": packed[key].integrity,
                "license": packed[key].licence,
                "license_file": licence,
            }
        )
    manifest = {
        "generated_by": "tools/vendor_graphiql.py",
        "strawberry_graphql": installed_version("strawberry-graphql"),
        "assets": entries,
    }
    text = json.dumps(manifest, indent=2) + "\n"
    (target / "manifest.json").write_text(text, encoding="utf-8")


def main() -> int:
    template = get_graphql_ide_html("graphiql")
    files = wanted_files(template)
    with tempfile.TemporaryDirectory() as work:
        tarballs, staged = Path(work, "npm"), Path(work, "assets")
        tarballs.mkdir()
        staged.mkdir()
        keys = sorted({(f.package, f.version) for f in files})
        packed = {f"{p}@{v}": pack(p, v, tarballs) for p, v in keys}
        write_assets(staged, files, packed)
        # The page itself, as this Strawberry release ships it: served from here, so that a
        # later Strawberry (another page, other versions) cannot break the offline IDE.
        (staged / PAGE).write_text(template, encoding="utf-8")
        licence = importlib.metadata.distribution("strawberry-graphql").read_text(
            "licenses/LICENSE"
        )
        (staged / "strawberry-graphql.LICENSE").write_text(licence or "MIT", encoding="utf-8")
        shutil.rmtree(ASSETS, ignore_errors=True)
        shutil.copytree(staged, ASSETS)
    for want in files:
        print(f"vendor-graphiql: {want.package}@{want.version} {want.path} ({want.sri})")
    print(f"vendor-graphiql: {len(files)} files and their licences in {ASSETS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
