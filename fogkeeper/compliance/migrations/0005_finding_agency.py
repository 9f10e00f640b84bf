import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def backfill(apps, schema_editor):
    """Each finding's and schedule item's agency: its establishment's."""
    FoodServiceEstablishment = apps.get_model("registry", "FoodServiceEstablishment")
    agency = Subquery(
        FoodServiceEstablishment.objects.filter(pk=OuterRef("establishment_id")).values("agency")
    )
    for name in ("Finding", "ScheduleItem"):
        apps.get_model("compliance", name).objects.update(agency=agency)


def agency_field(related_name, help_text, null):
    return models.ForeignKey(
        db_index=False,
        help_text=help_text,
        null=null,
        on_delete=django.db.models.deletion.CASCADE,
        related_name=related_name,
        to="registry.agency",
    )


FINDING_HELP = "the establishment's, so that the agency's findings are counted without it"


class Migration(migrations.Migration):

    dependencies = [
        ("compliance", "0004_finding_open_by_establishment"),
        ("registry", "0002_foodserviceestablishment_latitude_and_more"),
    ]

    operations = [
        migrations.AddField(
            model_name="finding",
            name="agency",
            field=agency_field("findings", FINDING_HELP, null=True),
        ),
        migrations.AddField(
            model_name="scheduleitem",
            name="agency",
            field=agency_field("schedule_items", "the establishment's", null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="finding",
            name="agency",
            field=agency_field("findings", FINDING_HELP, null=False),
        ),
        migrations.AlterField(
            model_name="scheduleitem",
            name="agency",
            field=agency_field("schedule_items", "the establishment's", null=False),
        ),
        migrations.RemoveIndex(model_name="finding", name="finding_open_violation"),
        migrations.RemoveIndex(model_name="finding", name="finding_violation_closed"),
        migrations.RemoveIndex(model_name="scheduleitem", name="schedule_item_obligation"),
        migrations.AddIndex(
            model_name="finding",
            index=models.Index(
                condition=models.Q(("open", True), ("severity", "violation")),
                fields=["agency", "rule", "establishment"],
                name="finding_agency_open_violation",
            ),
        ),
        migrations.AddIndex(
            model_name="finding",
            index=models.Index(
                condition=models.Q(("severity", "violation")),
                fields=["agency", "closed_on", "since", "establishment"],
                name="finding_agency_violation",
            ),
        ),
        migrations.AddIndex(
            model_name="scheduleitem",
            index=models.Index(
                fields=["agency", "obligation", "due", "establishment"],
                name="schedule_item_agency",
            ),
        ),
    ]
