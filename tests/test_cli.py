"""The `fogkeeper` command, run as a real process (CASEFILE.md "Errors" and "Output")."""

import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

from fogkeeper.rules.packs import default_registry
from tests.rules.builders import sc_case, town_case

ROOT = Path(__file__).resolve().parents[1]


def fogkeeper(*args, timeout: int = 120, preexec_fn=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fogkeeper.cli", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        preexec_fn=preexec_fn,
    )


def write(path: Path, case: dict) -> Path:
    if path.suffix == ".json":
        path.write_text(json.dumps(case))
    else:
        path.write_text(yaml.safe_dump(case, sort_keys=False))
    return path


def named(est_id: str, **changes) -> dict:
    """A compliant San Clemente case for establishment `est_id`, with `changes` merged in."""
    case = sc_case(**changes)
    case["establishment"]["id"] = est_id
    return case


def lines_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def stderr_paths(proc: subprocess.CompletedProcess, file: Path) -> list[str]:
    """The field path of each stderr line, checking each line names `file` first."""
    lines = proc.stderr.splitlines()
    assert all(line.startswith(f"{file}: ") for line in lines), lines
    return [line[len(f"{file}: ") :].split(": ")[0] for line in lines]


# evaluate


def test_it_prints_one_json_report_for_one_file(tmp_path):
    proc = fogkeeper("evaluate", write(tmp_path / "case.yaml", named("FSE-1")))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["establishment"] == "FSE-1"
    assert report["jurisdiction"] == "san-clemente"
    assert report["as_of"] == "2025-06-30"


def test_it_reads_a_json_case_file(tmp_path):
    proc = fogkeeper("evaluate", write(tmp_path / "case.json", named("FSE-J")))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["establishment"] == "FSE-J"


IMPORTED_FOR_EVALUATE = """
import contextlib, io, json, sys
from fogkeeper.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["evaluate", sys.argv[1]])
print(json.dumps([code, sorted(m for m in sys.modules if m.split(".")[0] == "pydantic")]))
"""


def test_it_evaluates_a_valid_case_file_without_importing_pydantic(tmp_path):
    # pydantic takes about 0.1 s to import: only a file the fast types refuse needs it
    path = write(tmp_path / "case.json", named("FSE-1"))
    proc = subprocess.run(
        [sys.executable, "-c", IMPORTED_FOR_EVALUATE, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [0, []]


def test_it_prints_one_json_line_per_file_in_the_order_given(tmp_path):
    b = write(tmp_path / "b.json", named("FSE-B"))
    a = write(tmp_path / "a.yaml", named("FSE-A"))
    c = write(tmp_path / "c.yaml", town_case(establishment={"id": "FSE-C"}))
    proc = fogkeeper("evaluate", b, a, c)
    assert proc.returncode == 0, proc.stderr
    assert [r["establishment"] for r in lines_of(proc.stdout)] == ["FSE-B", "FSE-A", "FSE-C"]


def test_it_evaluates_every_case_file_of_a_folder_in_sorted_order(tmp_path):
    write(tmp_path / "b.yaml", named("FSE-B"))
    write(tmp_path / "a.json", named("FSE-A"))
    write(tmp_path / "c.yaml", named("FSE-C"))
    (tmp_path / "notes.txt").write_text("not a case file")
    proc = fogkeeper("evaluate", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [r["establishment"] for r in lines_of(proc.stdout)] == ["FSE-A", "FSE-B", "FSE-C"]


def test_it_lets_as_of_override_the_files_own(tmp_path):
    proc = fogkeeper(
        "evaluate", write(tmp_path / "case.yaml", named("FSE-1")), "--as-of", "2025-01-02"
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["as_of"] == "2025-01-02"


def test_it_evaluates_a_file_without_as_of_when_given_as_of(tmp_path):
    case = named("FSE-1")
    del case["as_of"]
    proc = fogkeeper("evaluate", write(tmp_path / "case.yaml", case), "--as-of", "2025-03-01")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["as_of"] == "2025-03-01"


def test_it_prints_a_readable_summary_naming_the_establishment_and_its_status(tmp_path):
    path = write(tmp_path / "case.yaml", named("FSE-1", permit=None))
    proc = fogkeeper("evaluate", path, "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert "FSE-1" in proc.stdout
    assert "not in compliance" in proc.stdout.lower()
    assert "permit.missing" in proc.stdout


def test_it_says_in_text_when_an_establishment_is_in_compliance(tmp_path):
    path = write(tmp_path / "case.yaml", named("FSE-1"))
    proc = fogkeeper("evaluate", path, "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert "in compliance" in proc.stdout.lower()
    assert "not in compliance" not in proc.stdout.lower()


def test_it_gives_the_establishments_name_in_the_text_summary(tmp_path):
    path = write(tmp_path / "case.yaml", named("FSE-1"))
    proc = fogkeeper("evaluate", path, "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert "Pier Taqueria" in proc.stdout


# errors


def test_it_exits_2_with_one_stderr_line_per_problem_and_no_report(tmp_path):
    device = {"id": "GI-1", "kind": "interceptor", "installed_on": "2025-02-30"}
    case = named("FSE-1", establishment={"colour": "red"}, devices=[device])
    path = write(tmp_path / "bad.yaml", case)
    proc = fogkeeper("evaluate", path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert sorted(stderr_paths(proc, path)) == ["devices[0].installed_on", "establishment.colour"]


def test_it_names_the_field_of_a_broken_reference_on_stderr(tmp_path):
    service = {"id": "M-1", "device": "GI-9", "date": "2025-03-02"}
    path = write(tmp_path / "bad.json", named("FSE-1", services=[service]))
    proc = fogkeeper("evaluate", path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert stderr_paths(proc, path) == ["services[0].device"]


def test_it_prints_no_report_when_one_file_of_several_is_bad(tmp_path):
    good = write(tmp_path / "a.yaml", named("FSE-A"))
    bad = write(tmp_path / "b.yaml", named("FSE-B", as_of="2025-02-30"))
    also_good = write(tmp_path / "c.yaml", named("FSE-C"))
    proc = fogkeeper("evaluate", good, bad, also_good)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert stderr_paths(proc, bad) == ["as_of"]


def test_it_exits_2_for_a_path_that_does_not_exist(tmp_path):
    missing = tmp_path / "nowhere.yaml"
    proc = fogkeeper("evaluate", missing)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert str(missing) in proc.stderr


def test_it_exits_2_for_a_file_that_is_not_yaml(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("jurisdiction: [san-clemente\n")
    proc = fogkeeper("evaluate", path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert str(path) in proc.stderr


def test_it_exits_2_for_an_as_of_that_is_not_a_date(tmp_path):
    proc = fogkeeper("evaluate", write(tmp_path / "case.yaml", named("FSE-1")), "--as-of", "soon")
    assert proc.returncode == 2
    assert proc.stdout == ""


# packs


def test_it_lists_both_packs_with_ordinance_effective_date_and_rule_count():
    proc = fogkeeper("packs")
    assert proc.returncode == 0, proc.stderr
    for pack in default_registry().all():
        line = next(ln for ln in proc.stdout.splitlines() if ln.startswith(pack.id))
        assert pack.ordinance in line
        assert pack.effective.isoformat() in line
        assert f" {pack.rule_count} " in line


def test_it_shows_each_parameter_of_a_pack_with_its_citation():
    proc = fogkeeper("packs", "show", "san-clemente", "--as-of", "2025-01-01")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    pack = default_registry().get("san-clemente")
    for name, param in pack.parameters.items():
        line = next(ln for ln in lines if ln.strip().startswith(f"{name} = "))
        assert param.values[-1].reference in line


def test_it_shows_each_checklist_question_with_the_words_of_its_finding():
    proc = fogkeeper("packs", "show", "town-10-02", "--as-of", "2025-01-01")
    assert proc.returncode == 0, proc.stderr
    item = default_registry().get("town-10-02").checklist["bmp.hood_maintenance"]
    shown = f"  bmp.hood_maintenance: {item.question}  [10.02.070(E)]\n    if not: {item.finding}\n"
    assert shown in proc.stdout


def test_it_exits_2_for_an_unknown_pack():
    proc = fogkeeper("packs", "show", "laguna-beach", "--as-of", "2025-01-01")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "laguna-beach" in proc.stderr


def test_it_exits_2_for_a_date_before_the_pack_took_effect():
    proc = fogkeeper("packs", "show", "town-10-02", "--as-of", "2023-03-29")
    assert proc.returncode == 2
    assert proc.stdout == ""


def test_it_shows_a_pack_on_the_day_it_took_effect():
    proc = fogkeeper("packs", "show", "town-10-02", "--as-of", "2023-03-30")
    assert proc.returncode == 0, proc.stderr
    assert "gcd.accumulation_limit = 0.25" in proc.stdout


# hostile files (issue 37, item 9): refused in words, quickly, in little memory

BOMB = "\n".join(  # 9 ** 9 strings from 600 bytes, if the aliases are expanded
    [f"a0: &a0 [{', '.join(['lol'] * 9)}]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
)
DEEP = 100_000
MEMORY = 1024**3  # the child's address space: a regression fails rather than eats the machine


def _capped() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def capped_fogkeeper(*args) -> subprocess.CompletedProcess:
    return fogkeeper(*args, timeout=20, preexec_fn=_capped)


def test_it_refuses_a_case_file_whose_aliases_would_expand_past_the_cap(tmp_path):
    case = yaml.safe_dump(named("FSE-1"), sort_keys=False)
    path = tmp_path / "bomb.yaml"  # as_of's "not a date" once spelt all 9 ** 9 strings out
    path.write_text(BOMB + "\n" + re.sub(r"^as_of: .*$", "as_of: *a8", case, flags=re.M))
    proc = capped_fogkeeper("evaluate", path)
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr[-2000:]
    assert proc.stderr.startswith(f"{path}: its YAML aliases (*name) repeat more than 10,000")


def test_it_refuses_case_files_nested_too_deep(tmp_path):
    deep_json, deep_yaml = tmp_path / "deep.json", tmp_path / "deep.yaml"
    deep_json.write_text('{"a": ' * DEEP + "1" + "}" * DEEP)
    deep_yaml.write_text("[" * DEEP + "]" * DEEP)
    proc = capped_fogkeeper("evaluate", deep_json, deep_yaml)
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr[-2000:]
    assert proc.stderr.splitlines() == [
        f"{deep_json}: is nested deeper than 100 levels",
        f"{deep_yaml}: is nested deeper than 100 levels",
    ]


def bombed_pack(tmp_path: Path) -> Path:
    import shutil

    pack = shutil.copytree(ROOT / "tests/rules/packs/imaginary-town", tmp_path / "imaginary-town")
    (pack / "checklist.yaml").write_text(BOMB)
    return pack


def test_packs_check_names_a_pack_file_whose_aliases_would_expand_past_the_cap(tmp_path):
    proc = capped_fogkeeper("packs", "check", bombed_pack(tmp_path))
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "imaginary-town/checklist.yaml: its YAML aliases (*name) repeat more" in proc.stdout


def test_evaluate_refuses_a_pack_whose_aliases_would_expand_past_the_cap(tmp_path):
    case = write(tmp_path / "case.yaml", named("FSE-1"))
    proc = capped_fogkeeper("evaluate", case, "--packs", bombed_pack(tmp_path))
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr[-2000:]
    assert "checklist.yaml: its YAML aliases (*name) repeat more than 10,000" in proc.stderr
