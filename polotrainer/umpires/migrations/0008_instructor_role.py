"""The instructor role, moved here from the courses app (courses 0004 renamed its table and kept
its rows): the model enters this app's state only, the table is already there."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("umpires", "0007_closed_book"),
        ("courses", "0004_instructor_role_to_umpires"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="InstructorRole",
                    fields=[
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                primary_key=True,
                                related_name="instructor_role",
                                serialize=False,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        ("granted_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "granted_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                ),
            ],
        ),
    ]
