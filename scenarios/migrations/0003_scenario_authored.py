from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scenarios", "0002_scenario_version")]

    operations = [
        migrations.AddField(
            model_name="scenario",
            name="authored",
            field=models.BooleanField(db_index=True, default=False),
        ),
    ]
