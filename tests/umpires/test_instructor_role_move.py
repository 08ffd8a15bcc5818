"""The instructor role's table moved from the courses app to umpires (courses 0004, umpires 0008)
and every role granted before the move is still held after it, by the same person, granted by
the same person at the same moment; and the move runs back as well."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from polotrainer.umpires import roles
from polotrainer.umpires.models import InstructorRole

BEFORE = [("courses", "0003_exam_closed_book"), ("umpires", "0007_closed_book")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_the_roles_granted_before_the_move_survive_it():
    executor = migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User = old.get_model("auth", "User")
    ines = User.objects.create(username="ines")
    marco = User.objects.create(username="marco")
    staff = User.objects.create(username="sara", is_staff=True)
    granted_at = timezone.now().replace(microsecond=0)
    OldRole = old.get_model("courses", "InstructorRole")
    OldRole.objects.create(user_id=ines.pk, granted_by_id=staff.pk, granted_at=granted_at)
    OldRole.objects.create(user_id=marco.pk, granted_by=None, granted_at=granted_at)

    executor = migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    assert InstructorRole._meta.db_table == "umpires_instructorrole"
    rows = InstructorRole.objects.order_by("user__username").values_list(
        "user__username", "granted_by__username", "granted_at"
    )
    assert list(rows) == [("ines", "sara", granted_at), ("marco", None, granted_at)]
    assert roles.is_instructor(InstructorRole.objects.get(user__username="ines").user)
    assert "courses_instructorrole" not in connection.introspection.table_names()


@pytest.mark.django_db(transaction=True)
def test_the_move_runs_back_with_its_rows():
    django_user = InstructorRole._meta.get_field("user").related_model
    ines = django_user.objects.create(username="ines")
    InstructorRole.objects.create(user=ines)
    executor = migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    assert list(old.get_model("courses", "InstructorRole").objects.values_list("user_id")) == [
        (ines.pk,)
    ]
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert InstructorRole.objects.filter(user=ines).exists()
