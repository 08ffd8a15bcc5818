"""The pages: the holder's list and name, the printable certificate, the instructor's cohort
page (issue, revoke, CSV, validity) and the public verify page."""

import csv
import io
from datetime import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polotrainer.certificates import issuing, views
from polotrainer.certificates.models import Certificate, CourseSetting, HolderName
from tests.certificates.support import pass_exam
from tests.people import enrol, person

pytestmark = pytest.mark.django_db


def login(client, user):
    client.force_login(user)
    return client


def test_the_holder_sees_their_certificates_and_not_others(client, world):
    page = login(client, world.trainee_a).get(reverse("certificates:mine")).content.decode()
    assert world.certificate_a.grouped_code in page and "Alice Allieva Rossi" in page
    assert world.certificate_b.grouped_code not in page


def test_the_printable_page_is_bilingual_holders_language_first_with_qr_and_words(client, world):
    Certificate.objects.filter(pk=world.certificate_a.pk).update(language="it")
    url = reverse("certificates:certificate", args=[world.certificate_a.pk])
    response = login(client, world.trainee_a).get(url)
    page = response.content.decode()
    assert page.index('<section class="side" lang="it"') < page.index(
        'lang="en"', page.index("sides")
    )
    assert "Course A (it)" in page and "Course A" in page
    assert "<svg" in page and response.context["verify_url"].startswith(
        "http://testserver/certificates/verify/?c="
    )
    for lang in ("it", "en"):
        with translation.override(lang):
            assert views.code_in_words(world.certificate_a.code) in page


def test_the_qr_points_at_the_configured_verify_address(client, world, install):
    install.CERTIFICATE_VERIFY_URL = "https://verify.example.org/certificates/verify/"
    url = reverse("certificates:certificate", args=[world.certificate_a.pk])
    response = login(client, world.trainee_a).get(url)
    assert response.context["verify_url"].startswith(
        "https://verify.example.org/certificates/verify/?c="
    )
    assert '<p class="url">https://verify.example.org/certificates/verify/</p>' in (
        response.content.decode()
    )


def test_a_holder_without_a_name_is_asked_for_it_before_printing(client, world):
    carla = person("carla", name="Carla")
    enrol(world.cohort_a, carla)
    c = issuing.issue(user=carla, cohort=world.cohort_a, kind="completion")
    client = login(client, carla)
    here = reverse("certificates:certificate", args=[c.pk])
    response = client.get(here)
    assert response.status_code == 302 and response["Location"].startswith(
        reverse("certificates:name")
    )
    # A username or a single word is not a name: refused, nothing saved.
    for bad in ("carla", "Carla", "C4rla B"):
        response = client.post(reverse("certificates:name"), {"full_name": bad, "next": here})
        assert response.status_code == 400
        assert not HolderName.objects.filter(user=carla).exists()
    response = client.post(
        reverse("certificates:name"), {"full_name": "Carla  Bruni", "next": here}
    )
    assert response.status_code == 302 and response["Location"] == here
    assert "Carla Bruni" in client.get(here).content.decode()
    # An outside address in next is ignored.
    response = client.post(
        reverse("certificates:name"), {"full_name": "Carla Bruni", "next": "https://evil.example"}
    )
    assert response["Location"] == reverse("certificates:mine")


def test_an_instructor_issues_by_hand_asking_the_name_when_unknown(client, world):
    dario = person("dario", name="Dario")
    enrol(world.cohort_a, dario)
    client = login(client, world.instructor_a)
    url = reverse("certificates:cohort", args=[world.cohort_a.pk])
    response = client.post(url, {"trainee": dario.pk, "kind": "attendance", "full_name": "Dario"})
    assert response.status_code == 400 and not Certificate.objects.filter(user=dario).exists()
    response = client.post(
        url, {"trainee": dario.pk, "kind": "attendance", "full_name": "Dario Fo"}
    )
    assert response.status_code == 302
    c = Certificate.objects.get(user=dario)
    assert (c.kind, c.holder_name, c.issued_by, c.issued_by_name) == (
        "attendance",
        "Dario Fo",
        world.instructor_a,
        "Ines Istruttrice",
    )
    assert not c.pending


def test_an_instructor_issues_only_to_their_own_cohorts_members(client, world):
    client = login(client, world.instructor_a)
    url = reverse("certificates:cohort", args=[world.cohort_a.pk])
    for data in (
        {"trainee": world.trainee_b.pk, "kind": "completion"},  # someone else's trainee
        {"trainee": world.trainee_a.pk, "kind": "exam"},  # exams issue themselves
        {"trainee": "x", "kind": "completion"},
    ):
        assert client.post(url, data).status_code == 400
    assert Certificate.objects.filter(cohort=world.cohort_a).count() == 1
    other = reverse("certificates:cohort", args=[world.cohort_b.pk])
    assert (
        client.post(other, {"trainee": world.trainee_b.pk, "kind": "completion"}).status_code == 404
    )


def test_revoking_needs_a_reason_and_says_so_everywhere(client, world):
    c = world.certificate_a
    client = login(client, world.instructor_a)
    url = reverse("certificates:revoke", args=[c.pk])
    assert client.post(url, {"reason": "   "}).status_code == 400
    c.refresh_from_db()
    assert c.revoked_at is None
    assert client.post(url, {"reason": "Copied  answers"}).status_code == 302
    c.refresh_from_db()
    assert (c.revoked_reason, c.revoked_by) == ("Copied answers", world.instructor_a)
    verify = client.get(reverse("certificates:verify"), {"code": c.code}).content.decode()
    assert "Revoked" in verify and "Copied" not in verify  # the reason is not public
    mine = login(client, world.trainee_a).get(reverse("certificates:mine")).content.decode()
    assert "Copied answers" in mine


def test_revoking_someone_elses_certificate_is_404(client, world):
    c = world.certificate_a
    url = reverse("certificates:revoke", args=[c.pk])
    for user in (world.instructor_b, world.trainee_b, world.staff):
        response = login(client, user).post(url, {"reason": "mine now"})
        assert response.status_code in {403, 404}, user
    # The holder cannot revoke their own either (an instructor's decision); Ivan is an
    # instructor, so his refusal is the 404 of someone else's object.
    assert login(client, world.instructor_b).post(url, {"reason": "x"}).status_code == 404
    c.refresh_from_db()
    assert c.revoked_at is None


def test_the_cohort_csv_lists_its_certificates_in_words(client, world):
    client = login(client, world.instructor_a)
    response = client.get(reverse("certificates:cohort_csv", args=[world.cohort_a.pk]))
    text = b"".join(response.streaming_content).decode()
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0][0] == "Code" and len(rows) == 2
    assert rows[1][:6] == [
        world.certificate_a.grouped_code,
        "Alice Allieva Rossi",
        "alice",
        "Exam passed",
        "Exam A",
        "96.5",
    ]
    assert rows[1][9] == "Valid"
    assert world.certificate_b.code not in text


def test_the_course_setting_sets_validity_from_1_to_10_years(client, world):
    client = login(client, world.instructor_a)
    url = reverse("certificates:course_setting", args=[world.course_a.pk])
    for bad in ("0", "11", "two", ""):
        assert client.post(url, {"validity_years": bad}).status_code == 400
    assert client.post(url, {"validity_years": "1"}).status_code == 302
    assert CourseSetting.objects.get(course=world.course_a).validity_years == 1
    other = reverse("certificates:course_setting", args=[world.course_b.pk])
    assert client.post(other, {"validity_years": "5"}).status_code == 404


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_verify_page_is_public_and_says_only_the_certificate(client, world, lang):
    c = world.certificate_a
    page = client.get(f"/{lang}/certificates/verify/", {"c": issuing.token(c)}).content.decode()
    assert {"it": "Valido", "en": "Valid"}[lang] in page
    assert "Alice Allieva Rossi" in page and c.grouped_code in page
    assert "alice@example.org" not in page and "alice" not in page.replace("Alice", "")


def test_the_qr_url_without_language_lands_in_the_visitors_language(client, world):
    token = issuing.token(world.certificate_a)
    response = client.get("/certificates/verify/", {"c": token}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    assert response["Location"].startswith("/en/certificates/verify/?c=")
    assert client.get(response["Location"]).status_code == 200


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(c=st.text(max_size=200), code=st.text(max_size=50))
def test_the_verify_page_never_fails_on_malformed_input(client, world, c, code):
    for params in ({"c": c}, {"code": code}, {"c": c, "code": code}):
        response = client.get("/en/certificates/verify/", params)
        assert response.status_code in {200, 400}


def test_an_instructor_never_overwrites_the_name_a_trainee_gave(client, world):
    client = login(client, world.instructor_a)
    url = reverse("certificates:cohort", args=[world.cohort_a.pk])
    data = {"trainee": world.trainee_a.pk, "kind": "completion", "full_name": "Someone Else"}
    assert client.post(url, data).status_code == 302
    assert HolderName.objects.get(user=world.trainee_a).full_name == "Alice Allieva Rossi"
    assert Certificate.objects.filter(user=world.trainee_a).latest("pk").holder_name == (
        "Alice Allieva Rossi"
    )


def _halves(page: str) -> dict[str, str]:
    """The printed page's two halves, by language."""
    starts = {lang: page.index(f'<section class="side" lang="{lang}"') for lang in ("it", "en")}
    first, second = sorted(starts, key=starts.get)
    return {first: page[starts[first] : starts[second]], second: page[starts[second] :]}


def test_each_half_of_the_certificate_reads_as_its_language_writes(client, world):
    """The exam's title as the instructor typed it in each language; dates spelt out, day first."""
    when = timezone.make_aware(datetime(2026, 11, 29, 18))
    c = pass_exam(
        world.trainee_a,
        world.cohort_a,
        attempt_id=9,
        when=when,
        title="Final exam",
        title_it="Esame finale",
    )
    url = reverse("certificates:certificate", args=[c.pk])
    halves = _halves(login(client, world.trainee_a).get(url).content.decode())
    assert "“Final exam”" in halves["en"] and "Esame finale" not in halves["en"]
    assert "«Esame finale»" in halves["it"] and "Final exam" not in halves["it"]
    assert "29 November 2026" in halves["en"] and "29 November 2028" in halves["en"]
    assert "29 novembre 2026" in halves["it"] and "29 novembre 2028" in halves["it"]
    assert "Nov." not in halves["en"]


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_verify_page_names_the_exam_in_the_visitors_language(client, world, lang):
    c = pass_exam(
        world.trainee_a, world.cohort_a, attempt_id=10, title="Final exam", title_it="Esame finale"
    )
    page = client.get(f"/{lang}/certificates/verify/", {"code": c.code}).content.decode()
    wanted, other = (
        ("Esame finale", "Final exam") if lang == "it" else ("Final exam", "Esame finale")
    )
    assert wanted in page and other not in page


def test_the_address_under_the_qr_is_printed_whole_with_the_code_to_type(client, world, install):
    url = reverse("certificates:certificate", args=[world.certificate_a.pk])
    install.CERTIFICATE_VERIFY_URL = "https://trainer.circolopoloroma.example/certificates/verify/"
    page = login(client, world.trainee_a).get(url).content.decode()
    printed = page[page.index('<div class="check">') :]
    assert f'<p class="code">{world.certificate_a.grouped_code}</p>' in printed
    assert f'<p class="url">{install.CERTIFICATE_VERIFY_URL}</p>' in printed
    assert "type the code" in printed and "…" not in printed and "?c=" not in printed
    # Too long to type from paper: not printed at all, and the page says only to scan.
    install.CERTIFICATE_VERIFY_URL = "https://" + "very-long-name." * 6 + "example/verify/"
    printed = client.get(url).content.decode()
    printed = printed[printed.index('<div class="check">') :]
    assert 'class="url"' not in printed and "very-long-name" not in printed
    assert "type the code" not in printed and "Scan the QR code" in printed
