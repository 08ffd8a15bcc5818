"""The instructor role moves to the umpires app, beside the people it is about (issue 21).

Its table is renamed (courses_instructorrole -> umpires_instructorrole) with every row in it;
the courses app forgets the model here and umpires 0008 takes it over, in state only.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("courses", "0003_exam_closed_book"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name="instructorrole", table="umpires_instructorrole"),
            ],
            state_operations=[
                migrations.DeleteModel(name="InstructorRole"),
            ],
        ),
    ]
