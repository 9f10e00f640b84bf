"""The vocabulary (fogkeeper/web/vocabulary.py) says what the engine and the database call
things in the pack's words: money reads $1,234.00, a status and a role in words, a rule,
item, obligation or action by its title, an employee by name and a training by its date, a
level by its officer, and a reference by the ordinance's sections. That no page shows an
identifier is tests/web/test_identifier_crawl.py's."""

from datetime import date

import pytest

from fogkeeper.registry.models import Agency
from fogkeeper.training.models import Employee, Training
from fogkeeper.web.templatetags.words import money, pack_title, status_word
from fogkeeper.web.vocabulary import (
    choice_words,
    reference_words,
    role_word,
    subject_words,
    text_words,
    unit_word,
)
from tests.records import make_establishment
from tests.web.people import two_agencies


def san_clemente():
    return Agency(code="x", name="x", pack="san-clemente").get_pack()


def test_money_reads_with_cents_and_thousands():
    assert money(428) == "$428.00"
    assert money("428.0") == "$428.00"
    assert money(1234.5) == "$1,234.50"
    assert money(-12) == "-$12.00"
    assert money(None) == ""


def test_a_checklist_item_with_no_finding_is_named_by_a_statement_not_its_question():
    from fogkeeper.rules.packmodel import ChecklistItem

    item = ChecklistItem("bmp.x", "Are drain screens installed?", "", "1.2(a)")
    assert item.statement() == "Not compliant: are drain screens installed"


def test_a_status_a_role_and_a_unit_read_in_words():
    assert status_word("non_compliant") == "Not in compliance"
    assert status_word("compliant") == "In compliance"
    assert role_word("clerk") == "Clerk or hearing officer"
    assert unit_word("violation_days") == "violation days"


def test_the_packs_words_name_rules_items_obligations_and_actions():
    pack = san_clemente()
    # a checklist item's violation is named by what was found, not by the question asked
    assert pack_title(pack, "bmp.drain_screens") == (
        "Drain screens were not installed on all drainage pipes in food preparation areas"
    )
    assert pack_title(pack, "inspection.annual") == "Annual Restaurant Grease Inspection"
    assert pack_title(pack, "inspection.annual_due") == "Annual Restaurant Grease Inspection due"
    assert pack_title(pack, "notice_of_noncompliance") == "Notice of Non-Compliance"


def test_a_level_a_category_and_a_key_read_in_the_packs_words():
    pack = san_clemente()
    assert choice_words(pack, "manager") == "Utilities Manager"
    assert choice_words(pack, "council") == "City Council"
    assert text_words(pack, "limited_food_preparation") == pack.category_title(
        "limited_food_preparation"
    )
    assert text_words(pack, "2 business_days") == "2 business days"
    assert text_words(pack, "see gcd.frequency_review") == "see “Service frequency to review”"


def test_a_reference_cites_the_ordinance_not_the_projects_spec_files():
    pack = san_clemente()
    assert reference_words(pack, "13.30.030(K); RULES.md 11.11") == "13.30.030(K)"
    assert reference_words(pack, "No exceptions (RULES.md 11.11).") == "No exceptions."
    assert reference_words(pack, "RULES.md 1 (report look-back)") == ""


@pytest.mark.django_db
def test_a_finding_about_an_employee_or_a_training_names_it():
    fse = make_establishment(two_agencies()[0], "FSE-1")
    Employee.objects.create(
        establishment=fse, code="E-2", name="Kim Lopez", hired_on=date(2025, 1, 2)
    )
    Training.objects.create(establishment=fse, code="T-12", date=date(2026, 3, 4))
    assert subject_words("E-2", fse) == "Kim Lopez"
    assert subject_words("T-12", fse) == "the training of 2026-03-04"
    assert subject_words("GI-1", fse) == "GI-1"  # a device by the code on its tag
    assert subject_words("FSE-1", fse) == fse.name
