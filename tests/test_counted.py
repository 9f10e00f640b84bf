"""Counts agree with their nouns wherever code words them (fogkeeper.formats.counted)."""

from django.template import Context, Template

from fogkeeper.formats import counted


def test_one_is_singular_and_others_plural_with_thousands_marked():
    assert counted(1, "overdue pump-out") == "1 overdue pump-out"
    assert counted(0, "finding") == "0 findings"
    assert counted(1204, "establishment") == "1,204 establishments"
    assert counted(2, "batch", "batches") == "2 batches"


def test_the_template_filters_count_the_same():
    shown = Template('{% load counts %}{{ 1|counted:"batch,batches" }}; {{ 3|noun:"overflow" }}')
    assert shown.render(Context()) == "1 batch; overflows"


def test_the_examples_in_the_formats_docstrings_hold():
    import doctest

    import fogkeeper.formats

    assert doctest.testmod(fogkeeper.formats).failed == 0
