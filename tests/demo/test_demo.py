"""`manage.py demo`: a believable program for each jurisdiction, and a staff login. Here what
needs no demo loaded first: the programs themselves, a date refused, a load up to each
agency's today. The loaded demo's tests read one load of their module: without its sweep
(test_demo_loaded.py), and with it (test_demo_swept.py)."""

import re
from datetime import UTC, date, datetime
from io import StringIO

import pytest
import time_machine
from django.core.management import CommandError, call_command

from fogkeeper.compliance.models import SweepRun
from fogkeeper.demo import build_programs
from fogkeeper.rules import evaluate
from fogkeeper.rules.packs import default_registry

from .loading import AS_OF, rules_of_sections_3_to_9


@pytest.mark.django_db
def test_it_refuses_a_date_too_early_for_the_towns_history():
    out = StringIO()
    with pytest.raises(CommandError, match="on or after 2025-01-01"):
        call_command("demo", "--as-of", "2024-06-01", stdout=out)


@pytest.mark.django_db
def test_it_loads_each_program_up_to_today_where_its_agency_is():
    out = StringIO()
    # 22:00 on June 30 in San Clemente is 01:00 on July 1 in Aurora, Ohio
    with time_machine.travel(datetime(2026, 7, 1, 5, 0, tzinfo=UTC), tick=False):
        call_command("demo", "--pack", "us-oh-aurora", "--pack", "san-clemente", stdout=out)

    text = out.getvalue()
    assert re.search(r"\(aurora, pack us-oh-aurora\): .*, histories up to 2026-07-01\n", text)
    assert re.search(r"\(san-clemente, pack san-clemente\): .*, histories up to 2026-06-30\n", text)
    runs = SweepRun.objects.order_by("agency__code").values_list("agency__code", "as_of")
    assert list(runs) == [("aurora", date(2026, 7, 1)), ("san-clemente", date(2026, 6, 30))]


def test_it_is_the_same_program_every_time_for_one_date():
    first = [p.case_files() for p in build_programs(AS_OF)]
    assert first == [p.case_files() for p in build_programs(AS_OF)]


@pytest.mark.parametrize("as_of", [AS_OF, date(2025, 1, 1), date(2028, 2, 29)])
def test_every_rule_fires_in_the_engine_on_the_demo_case_files(as_of):
    for program in build_programs(as_of):
        fired = set()
        for case in program.case_files():
            fired |= {f.rule for f in evaluate(case).findings}
        assert fired == rules_of_sections_3_to_9(default_registry().get(program.pack_id))
