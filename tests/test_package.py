"""The wheel ships the code under `sitemap_lint` with the schemas, and works from a fresh venv."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
    )
    (built,) = out.glob("sitemap_lint-*.whl")
    return built


def test_wheel_contents(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert "sitemap_lint" in tops
    assert "linter" not in tops and "schemas" not in tops
    for schema in ("sitemap.xsd", "siteindex.xsd", "bundle-urlset.xsd", "sitemap-video.xsd"):
        assert f"sitemap_lint/schemas/{schema}" in names
    assert "sitemap_lint/domain/langtags.txt" in names  # the language-tag table
    assert any(name.endswith("entry_points.txt") for name in names)


def test_installed_wheel_lints_outside_the_repository(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=False)
    bin_dir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    python = bin_dir / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # Dependencies come from this environment (no network); the package itself from the wheel.
    Path(site, "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", site, str(wheel)],
        check=True,
    )
    work = tmp_path / "elsewhere"
    work.mkdir()
    sample = work / "sitemap.xml"
    sample.write_bytes((FIXTURES / "valid" / "sitemap.xml").read_bytes())
    located = subprocess.run(
        [str(python), "-c", "import sitemap_lint; print(sitemap_lint.__file__)"],
        cwd=work,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert located.startswith(site)
    run = subprocess.run(
        [str(python), "-m", "sitemap_lint", "--now", "2025-06-01", "sitemap.xml"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "no problems found" in run.stdout
    broken = work / "broken.xml"
    broken.write_text('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>')
    run = subprocess.run(
        [str(python), "-m", "sitemap_lint", "--format", "json", "broken.xml"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1
    assert '"code": "ST008"' in run.stdout
