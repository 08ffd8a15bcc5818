"""Issuing: on a passed exam (the courses app's signal), by an instructor's hand, with the name
pending until the holder gives it; revoking, by hand or when a pass is withdrawn; and what
survives the holder's account."""

from datetime import date, datetime, time

import pytest
from django.utils import timezone

from polotrainer.certificates import issuing
from polotrainer.certificates.models import Certificate, CourseSetting, HolderName, Kind
from polotrainer.certificates.verification import Status, verify_code, verify_token
from polotrainer.courses.exams.signals import exam_pass_withdrawn
from tests.certificates.support import new_key, pass_exam
from tests.people import enrol, person

pytestmark = pytest.mark.django_db


def test_a_passed_exam_issues_one_certificate_with_its_details(world):
    when = timezone.make_aware(datetime(2026, 3, 1, 23, 30))  # local day 1 March
    c = pass_exam(world.trainee_a, world.cohort_a, attempt_id=7, score=95.04, when=when)
    assert (c.kind, c.exam_title, str(c.score_percent)) == (Kind.EXAM, "Final", "95.0")
    assert (c.issued_on, c.expires_on) == (date(2026, 3, 1), date(2028, 3, 1))
    assert (c.holder_name, c.issuer_name, c.issued_by) == ("Alice Allieva Rossi", "Club A", None)
    assert (c.course_title_en, c.track, c.year, c.language) == ("Course A", "outdoor", 2026, "en")
    # The signal sent again (a re-grade that passes again) issues nothing more.
    pass_exam(world.trainee_a, world.cohort_a, attempt_id=7, score=97, when=when)
    assert Certificate.objects.filter(attempt_id=7).count() == 1


def test_validity_is_the_courses_setting(world):
    CourseSetting.objects.create(course=world.course_a, validity_years=1)
    leap = timezone.make_aware(datetime.combine(date(2028, 2, 29), time(12)))
    c = pass_exam(world.trainee_a, world.cohort_a, attempt_id=8, when=leap)
    assert c.expires_on == date(2029, 2, 28)


def test_a_withdrawn_pass_revokes_its_certificate_and_a_new_pass_issues_again(world):
    c = world.certificate_a
    exam_pass_withdrawn.send(sender=None, attempt_id=101, reason="Re-graded: 93% < 95%")
    c.refresh_from_db()
    assert c.revoked_at is not None and c.revoked_reason == "Re-graded: 93% < 95%"
    assert verify_token(issuing.token(c)).status == Status.REVOKED
    again = pass_exam(world.trainee_a, world.cohort_a, attempt_id=101)
    assert again.pk != c.pk and verify_code(again.code).status == Status.VALID
    exam_pass_withdrawn.send(sender=None, attempt_id=999, reason="unknown attempt")  # no error


def test_without_a_name_the_certificate_waits_and_is_signed_when_it_is_given(world):
    carla = person("carla", name="Carla")
    enrol(world.cohort_a, carla)
    c = pass_exam(carla, world.cohort_a, attempt_id=55)
    assert c.pending and c.holder_name == "" and c.payload == ""
    assert verify_code(c.code).status == Status.INVALID  # nothing to verify yet
    issuing.set_name(carla, "Carla Bruni Tedeschi")
    c.refresh_from_db()
    assert not c.pending and c.holder_name == "Carla Bruni Tedeschi"
    assert verify_code(c.code).status == Status.VALID
    # A later change of name is for later certificates: the signed one keeps its name.
    issuing.set_name(carla, "Carla Tedeschi")
    assert verify_code(c.code).claims.name == "Carla Bruni Tedeschi"


def test_without_a_key_certificates_wait_and_sign_pending_signs_them(world, install):
    install.CERTIFICATE_SIGNING_KEY = ""
    c = issuing.issue(user=world.trainee_a, cohort=world.cohort_a, kind=Kind.ATTENDANCE)
    assert c.pending and c.holder_name == "Alice Allieva Rossi"
    install.CERTIFICATE_SIGNING_KEY = new_key()
    assert issuing.complete_pending() == 1
    assert verify_code(c.code).status == Status.VALID


def test_deleting_the_account_keeps_the_certificate_verifiable(world):
    c = world.certificate_a
    world.trainee_a.delete()
    c.refresh_from_db()
    assert c.user is None and c.holder_name == "Alice Allieva Rossi"
    assert not HolderName.objects.filter(full_name="Alice Allieva Rossi").exists()
    verdict = verify_code(c.code)
    assert verdict.status == Status.VALID and verdict.claims.name == "Alice Allieva Rossi"


def test_deleting_the_course_keeps_the_certificate_verifiable(world):
    c = world.certificate_a
    world.course_a.delete()
    c.refresh_from_db()
    assert c.course is None and c.cohort is None
    assert verify_code(c.code).claims.course_en == "Course A"


def test_an_altered_database_row_is_not_valid(world):
    Certificate.objects.filter(pk=world.certificate_a.pk).update(holder_name="Mallory Evil")
    # The row says Mallory, but what is verified is what was signed.
    assert verify_code(world.certificate_a.code).claims.name == "Alice Allieva Rossi"
    Certificate.objects.filter(pk=world.certificate_a.pk).update(
        payload=issuing.signing.b64e(b'[1,"x"]')
    )
    assert verify_code(world.certificate_a.code).status == Status.INVALID
