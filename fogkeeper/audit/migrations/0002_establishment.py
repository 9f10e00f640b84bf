"""Each audit row names the establishment its record is about (for an establishment's own
trail), and the rows written before are filled from their records where their type allows.

The rows are filled with queryset updates (AuditEvent.save refuses any change), type by type
and in ranges of ids, so that a long trail is filled in bounded statements; nothing else of a
row is touched. An establishment's own rows are filled from their object id, even when it has
since been deleted after its retention period (the field has no database constraint)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import BigIntegerField, OuterRef, Subquery
from django.db.models.functions import Cast

BATCH = 10_000
ESTABLISHMENT = "registry.foodserviceestablishment"
# As fogkeeper.audit.services.TOWARDS_ESTABLISHMENT when this migration was written.
TOWARDS = (
    "establishment",
    "device",
    "service",
    "inspection",
    "training",
    "permit",
    "case",
    "action",
    "invoice",
    "lien",
    "incident",
)
NUMERIC = r"^[0-9]{1,18}$"


def paths(model, depth: int = 4) -> list[str]:
    """The lookups from `model` to its establishment's id, in the order tried."""
    if depth == 0:
        return []
    fields = {f.name: f for f in model._meta.concrete_fields if f.is_relation}
    found = []
    for name in TOWARDS:
        field = fields.get(name)
        if field is None:
            continue
        if field.related_model._meta.label_lower == ESTABLISHMENT:
            found.append(name)
        else:
            found += [f"{name}__{p}" for p in paths(field.related_model, depth - 1)]
    return found


def _ranges(rows, batch: int):
    bounds = rows.aggregate(low=models.Min("pk"), high=models.Max("pk"))
    if bounds["low"] is None:
        return
    for low in range(bounds["low"], bounds["high"] + 1, batch):
        yield low, low + batch


def _fill(events, value, batch: int) -> None:
    for low, high in _ranges(events, batch):
        events.filter(pk__gte=low, pk__lt=high).update(establishment_id=value)


def fill_establishments(apps, schema_editor=None, batch: int = BATCH) -> None:
    AuditEvent = apps.get_model("audit", "AuditEvent")
    unfilled = AuditEvent.objects.filter(establishment__isnull=True, object_id__regex=NUMERIC)
    types = unfilled.order_by().values_list("object_type", flat=True).distinct()
    for label in sorted(types):
        try:
            model = apps.get_model(label)
        except (LookupError, ValueError):
            continue
        object_pk = Cast(OuterRef("object_id"), BigIntegerField())
        if label == ESTABLISHMENT:
            _fill(unfilled.filter(object_type=label), Cast("object_id", BigIntegerField()), batch)
            continue
        for path in paths(model):
            found = model.objects.filter(pk=object_pk).values(path)[:1]
            _fill(unfilled.filter(object_type=label), Subquery(found), batch)


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0001_initial"),
        ("registry", "0006_approved_exception"),
        ("maintenance", "0003_remove_service_manifest_unique_per_hauler_and_more"),
        ("permits", "0004_modifications_plan_reviews"),
        ("inspections", "0004_sample"),
        ("training", "0002_training_log"),
        ("enforcement", "0003_bulk_notice"),
        ("billing", "0002_adjustments_and_liens"),
        ("incidents", "0004_spill_reporting"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="establishment",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="registry.foodserviceestablishment",
            ),
        ),
        migrations.AddIndex(
            model_name="auditevent",
            index=models.Index(fields=["agency", "action"], name="audit_agency_action_idx"),
        ),
        migrations.AddIndex(
            model_name="auditevent",
            index=models.Index(fields=["agency", "object_type"], name="audit_agency_type_idx"),
        ),
        migrations.RunPython(fill_establishments, migrations.RunPython.noop, elidable=True),
    ]
