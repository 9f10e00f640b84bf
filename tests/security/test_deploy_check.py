"""`manage.py check --deploy` under production settings: clean when the environment is set
as .env.example says, and it names what is missing when it is not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "FOGKEEPER_DEBUG": "false",
    "FOGKEEPER_SECRET_KEY": "k7#Qv2pX!9mZr4Lw@8sTn1Yb6Hc3Jd5Fg0Ue*Ai^Ro&Pz%Ks$Mx",
    "FOGKEEPER_ALLOWED_HOSTS": "fog.example.org",
    "FOGKEEPER_HTTPS": "true",
    "DATABASE_URL": "sqlite:////tmp/fogkeeper-deploy-check.sqlite3",
}


def deploy_check(**overrides: str | None) -> subprocess.CompletedProcess:
    # Nothing of the test run leaks in (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE).
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOGKEEPER_", "DJANGO_"))}
    env.update(PRODUCTION)
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_it_passes_the_deploy_check_with_production_settings():
    result = deploy_check()
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_it_fails_the_deploy_check_until_https_is_on():
    result = deploy_check(FOGKEEPER_HTTPS=None)
    assert result.returncode == 1
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr


def test_it_fails_the_deploy_check_with_the_development_key():
    result = deploy_check(FOGKEEPER_SECRET_KEY=None)
    assert result.returncode == 1
    assert "security.W009" in result.stderr
