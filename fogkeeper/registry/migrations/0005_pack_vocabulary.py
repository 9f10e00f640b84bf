"""Device kinds and establishment categories come from the agency's pack (validated in
the models' clean), not from fixed choices."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0004_merge_0003_fse_agency_name_0003_servicecontract"),
    ]

    operations = [
        migrations.AlterField(
            model_name="foodserviceestablishment",
            name="category",
            field=models.CharField(
                blank=True,
                help_text="one of the pack's categories (its default if blank)",
                max_length=40,
            ),
        ),
        migrations.AlterField(
            model_name="greasecontroldevice",
            name="kind",
            field=models.CharField(help_text="one of the pack's device kinds", max_length=40),
        ),
    ]
