import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('registry', '0010_hauler_certification'),
    ]

    operations = [
        migrations.CreateModel(
            name='IntervalApproval',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('days', models.PositiveIntegerField(help_text='the interval approved, in days')),
                ('approved_on', models.DateField()),
                ('approved_by', models.CharField(help_text='the official who approved it', max_length=200)),
                ('reference', models.CharField(help_text='the letter or resolution number', max_length=80)),
                ('ends_on', models.DateField(blank=True, help_text='its last day, if it ends', null=True)),
                ('device', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='interval_approvals', to='registry.greasecontroldevice')),
            ],
            options={
                'ordering': ['device', 'approved_on', 'id'],
            },
        ),
    ]
