"""The reporting pack is read once and checked as it is read: every value cited, a bad key
named in the error."""

from pathlib import Path

import pytest
import yaml

from fogkeeper.incidents.reporting_pack import (
    DEFAULT,
    PACKS,
    ReportingPackError,
    load,
    reporting_pack,
)


def test_every_deadline_and_category_is_cited():
    pack = reporting_pack()
    assert all("§5.13.1" in c.citation for c in pack.categories.values())
    assert all("Att. E1 §3" in o.citation for o in pack.obligations)


def test_the_states_business_days_skip_its_holidays():
    pack = reporting_pack()
    assert not pack.calendar.is_business_day(pack.calendar.holidays(2025)[0])
    assert len(pack.calendar.holidays(2025)) == 16


def broken(tmp_path: Path, change) -> Path:
    data = yaml.safe_load((PACKS / DEFAULT).read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_it_names_a_deadline_counted_from_nothing_it_knows(tmp_path):
    path = broken(tmp_path, lambda d: d["deadlines"][0].update(counted_from="the moon"))
    with pytest.raises(ReportingPackError, match=r"deadlines\[0\]: counted_from: 'the moon'"):
        load(path)


def test_it_names_a_period_it_cannot_read(tmp_path):
    path = broken(tmp_path, lambda d: d["deadlines"][1].update(period="fortnight"))
    with pytest.raises(ReportingPackError, match=r"deadlines\[1\]: period"):
        load(path)


def test_it_refuses_an_uncited_deadline(tmp_path):
    path = broken(tmp_path, lambda d: d["deadlines"][2].pop("citation"))
    with pytest.raises(ReportingPackError, match=r"deadlines\[2\]: citation: missing"):
        load(path)


def test_it_refuses_holidays_without_their_reference(tmp_path):
    path = broken(tmp_path, lambda d: d["holidays"].pop("reference"))
    with pytest.raises(ReportingPackError, match="holidays: no reference"):
        load(path)
