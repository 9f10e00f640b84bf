"""The compiled engine (fogkeeper/rules/native.py, `make engine`): it is loaded only when it
was built from today's sources, the plain-Python engine stands in otherwise, and the two
give the same reports."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fogkeeper.rules import native

ROOT = Path(__file__).resolve().parents[2]

REPORTS = """
import sys
from bench.engine import Generator
from bench.engine_compare import digest
from fogkeeper.rules import native
import fogkeeper.rules.checks.devices as devices
print(native.describe())
print(devices.__file__.rsplit(".", 1)[-1])
generator = Generator(20251203)
for i in range(int(sys.argv[1])):
    print(digest(generator.case(i)))
"""


def _run(engine: str, count: int) -> list[str]:
    env = {**os.environ, "FOGKEEPER_ENGINE": engine, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run(
        [sys.executable, "-c", REPORTS, str(count)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_the_compiled_and_the_plain_engine_give_the_same_reports():
    default, plain = _run("", 1500), _run("python", 1500)
    assert plain[:2] == ["plain Python (FOGKEEPER_ENGINE=python)", "py"]
    # a fresh process decides as this one did: compiled after `make engine`
    assert default[0] == native.describe()
    assert default[1] == ("so" if native.state == "compiled" else "py")
    assert len(default) == 1502
    assert default[2:] == plain[2:]


@pytest.fixture
def engine_copy(tmp_path, monkeypatch):
    """The engine's sources in a folder of their own, with a build stamped as current."""
    here = tmp_path / "rules"
    shutil.copytree(native.HERE, here, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    (here / "native.json").unlink(missing_ok=True)
    monkeypatch.setattr(native, "HERE", here)
    monkeypatch.setattr(native, "STAMP", here / "native.json")
    monkeypatch.delenv("FOGKEEPER_ENGINE", raising=False)
    (here / "checks" / "devices.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    stamp = {"sources": native.sources_digest(), "python": sys.implementation.cache_tag}
    native.STAMP.write_text(json.dumps(stamp))
    return here


def test_a_build_from_these_sources_is_loaded(engine_copy):
    assert native._why_not_compiled() is None


def test_a_build_older_than_a_source_is_not_loaded(engine_copy):
    devices = engine_copy / "checks" / "devices.py"
    devices.write_text(devices.read_text() + "\n# changed after the build\n")
    assert "older than their sources" in native._why_not_compiled()


def test_a_change_to_a_module_the_build_read_types_from_counts_too(engine_copy):
    records = engine_copy / "records.py"
    records.write_text(records.read_text().replace("gc=False", "gc=False ", 1))
    assert "older than their sources" in native._why_not_compiled()


def test_a_build_for_another_python_is_not_loaded(engine_copy):
    stamp = json.loads(native.STAMP.read_text())
    native.STAMP.write_text(json.dumps({**stamp, "python": "cpython-399"}))
    assert native._why_not_compiled() == "compiled for cpython-399, not " + (
        sys.implementation.cache_tag
    )


def test_a_build_without_its_stamp_is_not_loaded(engine_copy):
    native.STAMP.unlink()
    assert "no readable native.json" in native._why_not_compiled()


def test_no_build_and_the_plain_engine_asked_for(engine_copy, monkeypatch):
    monkeypatch.setenv("FOGKEEPER_ENGINE", "python")
    assert native._why_not_compiled() == "FOGKEEPER_ENGINE=python"
    monkeypatch.delenv("FOGKEEPER_ENGINE")
    for built in native.compiled_files():
        built.unlink()
    assert native._why_not_compiled().startswith("not compiled")


def test_every_compiled_module_has_its_source():
    for module in native.MODULES:
        assert native.source_of(module).is_file(), module
