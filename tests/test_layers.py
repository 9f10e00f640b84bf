"""The import check (scripts/check_imports.py): no module imports from a higher layer of
fogkeeper/layers.py and no modules import each other round a circle; the check fails on a
new one, as a copy of the package with one planted import shows. A copy's files that
are not planted are the package's own text, parsed once for all the module's checks."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("check_imports", ROOT / "scripts/check_imports.py")
assert spec is not None and spec.loader is not None
check_imports = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_imports)


@pytest.fixture(scope="module", autouse=True)
def _each_text_parsed_once():
    """The checks of the package and of its copies read each file's text once for the module
    (check_imports.parse), and let the trees go when it ends."""
    yield
    check_imports.parse.cache_clear()


def test_every_import_keeps_to_the_layers_with_no_circle():
    assert check_imports.problems() == []


@pytest.fixture
def copy(tmp_path) -> Path:
    target = tmp_path / "fogkeeper"
    shutil.copytree(ROOT / "fogkeeper", target, ignore=shutil.ignore_patterns("*.so", "static"))
    return target


def test_it_fails_on_an_import_from_a_higher_layer(copy):
    (copy / "web" / "planted.py").write_text('"""A page\'s helper."""\n')
    with (copy / "registry" / "models.py").open("a") as f:
        f.write("\nfrom fogkeeper.web import planted  # noqa\n")
    assert check_imports.problems(copy) == [
        "fogkeeper.registry.models imports fogkeeper.web.planted, of a higher layer"
    ]


def test_it_fails_on_a_circle_even_inside_a_function(copy):
    with (copy / "locks.py").open("a") as f:
        f.write("\n\ndef planted():\n    from fogkeeper import jobs  # noqa\n")
    with (copy / "jobs.py").open("a") as f:
        f.write("\n\ndef planted():\n    from fogkeeper.locks import Lock  # noqa\n")
    (found,) = check_imports.problems(copy)
    assert found.startswith("circle of 2 modules: fogkeeper.jobs, fogkeeper.locks")


def test_it_names_a_package_in_no_layer(copy):
    (copy / "newarea").mkdir()
    (copy / "newarea" / "__init__.py").write_text("")
    assert check_imports.problems(copy) == ["newarea is in no layer of fogkeeper/layers.py"]


def test_it_fails_on_a_task_queued_by_a_name_not_listed(copy):
    with (copy / "registry" / "services.py").open("a") as f:
        f.write('\n\ndef planted():\n    enqueue("fogkeeper.registry.planted", 1)\n')
    assert check_imports.problems(copy) == [
        "fogkeeper.registry.services queues fogkeeper.registry.planted, a task not listed in TASKS"
    ]


def test_it_fails_on_a_listed_task_queued_by_a_package_not_listed(copy):
    with (copy / "training" / "services.py").open("a") as f:
        f.write('\n\ndef planted():\n    enqueue("fogkeeper.sweep.batch", 1)\n')
    assert check_imports.problems(copy) == [
        "fogkeeper.training.services queues fogkeeper.sweep.batch; TASKS does not list training",
        "fogkeeper.training.services names task fogkeeper.sweep.batch; TASKS does not list "
        "training",
    ]


def test_it_fails_on_a_call_up_the_layers_not_listed(copy):
    with (copy / "sewers" / "services.py").open("a") as f:
        f.write("\nfrom fogkeeper.upcalls import report_of  # noqa\n")
    with (copy / "web" / "apps.py").open("a") as f:
        f.write('\n\ndef planted():\n    provide("planted", print)\n')
    assert check_imports.problems(copy) == [
        "fogkeeper.sewers.services calls report_of; UPCALLS does not list it",
        "fogkeeper.web.apps provides planted, not listed as web's in UPCALLS",
    ]
