"""Merge fields: the fixed set, filled from a dict; anything else in braces is refused,
naming it."""

from __future__ import annotations

from fogkeeper.communications import merge


def test_it_fills_each_merge_field_with_its_value():
    text = "Dear {operator_name}, {establishment_name} is due {next_due_date}."
    values = {
        "operator_name": "Ana",
        "establishment_name": "Bay Bistro",
        "next_due_date": "July 1, 2026",
    }
    assert merge.fill(text, values) == "Dear Ana, Bay Bistro is due July 1, 2026."


def test_it_keeps_a_doubled_brace_as_one_brace():
    assert merge.problems("Rule {{7.40}} applies", "body") == []
    assert merge.fill("Rule {{7.40}} applies", {}) == "Rule {7.40} applies"


def test_it_refuses_a_merge_field_that_does_not_exist_naming_it():
    (problem,) = merge.problems("Dear {owner_name},", "body")
    assert problem.startswith(
        "The body names the merge field {owner_name}, which does not exist. The merge fields "
        "are: establishment_name, establishment_code,"
    )


def test_it_refuses_attributes_indexes_and_formats_which_could_read_more_than_values():
    for text in (
        "{establishment_name.__class__}",
        "{open_findings[0]}",
        "{agency_name!r}",
        "{status:>40}",
        "{}",
    ):
        assert merge.problems(text, "subject"), text


def test_it_refuses_double_brace_fields_saying_to_write_single_braces():
    (problem,) = merge.problems("Hello {{ establishment.name }}", "subject")
    assert problem == (
        "The subject has {{ establishment.name }}: merge fields take single braces, such as "
        "{establishment_name} (write {{ and }} only for a brace itself)."
    )


def test_it_refuses_a_lone_brace():
    (problem,) = merge.problems("Costs {5", "body")
    assert "opens or closes no merge field" in problem


def test_it_says_statuses_and_findings_in_the_words_of_the_pages():
    from fogkeeper.rules.packs import default_registry
    from fogkeeper.web.vocabulary import STATUS_WORDS, pack_title

    assert merge.STATUS_WORDS is STATUS_WORDS
    pack = default_registry().get("san-clemente")
    keys = [*pack.rules, *pack.checklist, *pack.obligations, *pack.actions, "no.such_thing"]
    assert [pack.words_for(k) for k in keys] == [pack_title(pack, k) for k in keys]
    assert pack.words_for("no.such_thing") == "No such thing"
