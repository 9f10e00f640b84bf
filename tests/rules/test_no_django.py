"""The engine is plain Python: fogkeeper.rules and the CLI import no Django."""

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "fogkeeper" / "rules"

EVALUATE_WITHOUT_DJANGO = textwrap.dedent(
    """
    import importlib.util
    import json
    import sys
    from datetime import date

    import fogkeeper.cli
    import fogkeeper.rules
    from tests.rules.builders import sc_case
    report = fogkeeper.rules.evaluate(fogkeeper.rules.parse_case(sc_case()), date(2025, 6, 30))
    print(json.dumps({
        "status": report.status,
        "django": sorted(m for m in sys.modules if m == "django" or m.startswith("django.")),
        "stub_on_path": importlib.util.find_spec("django") is not None,
    }))
    """
)


def django_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        found += [f"{path.name}:{node.lineno}: {n}" for n in names if n.split(".")[0] == "django"]
    return found


def test_it_finds_a_django_import_when_there_is_one(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom django.db import models\nimport django.conf as c\n")
    assert django_imports(sample) == ["sample.py:2: django.db", "sample.py:3: django.conf"]


def test_it_imports_no_django_in_any_engine_module():
    modules = sorted(RULES_DIR.rglob("*.py"))
    assert len(modules) > 10
    assert [hit for m in modules for hit in django_imports(m)] == []


def test_it_evaluates_a_case_without_loading_django(tmp_path):
    # A stand-in django package on the path: any import of it would show in sys.modules.
    (tmp_path / "django").mkdir()
    (tmp_path / "django" / "__init__.py").write_text("")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    proc = subprocess.run(
        [sys.executable, "-c", EVALUATE_WITHOUT_DJANGO],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result == {"status": "compliant", "django": [], "stub_on_path": True}
