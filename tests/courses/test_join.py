"""Joining a cohort by code or link (signing up on the way), leaving it, being removed."""

from datetime import timedelta

import pytest
from django.utils import timezone

from polotrainer.courses.models import Membership
from tests.conftest import PASSWORD
from tests.courses.conftest import enrol, make_cohort, make_course, person

pytestmark = pytest.mark.django_db


@pytest.fixture
def cohort():
    return make_cohort(make_course(person("ines", instructor=True)), "Spring")


def test_a_code_typed_in_small_letters_leads_to_the_join_page(client, cohort):
    client.force_login(person("alice"))
    response = client.post("/en/courses/join/", {"code": f" {cohort.join_code.lower()} "})
    assert response.status_code == 302
    assert response["Location"] == f"/en/courses/join/{cohort.join_code}/"
    assert not Membership.objects.exists()  # not yet: the join page tells what is seen first


def test_the_join_page_says_what_the_instructors_will_see_then_joins(client, cohort):
    alice = person("alice")
    client.force_login(alice)
    url = f"/en/courses/join/{cohort.join_code}/"
    html = client.get(url).content.decode()
    assert "What your instructors will see" in html
    assert "Nothing you answered before joining is shown to them." in html
    assert "Ines" in html and "Spring" in html
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == "/en/courses/"
    membership = Membership.objects.get()
    assert (membership.user, membership.cohort) == (alice, cohort)
    assert timezone.now() - membership.joined_at < timedelta(seconds=5)
    assert "Spring" in client.get("/en/courses/").content.decode()


def test_the_link_without_a_language_opens_in_the_visitors_language(client, cohort):
    response = client.get(
        f"/courses/join/{cohort.join_code}/", headers={"accept-language": "en-GB"}
    )
    assert response.status_code == 302
    assert response["Location"] == f"/en/courses/join/{cohort.join_code}/"


def test_a_visitor_signs_up_on_the_way_and_comes_back_to_join(client, cohort):
    url = f"/en/courses/join/{cohort.join_code}/"
    html = client.get(url).content.decode()
    signup = f"/en/account/signup/?next={url}"
    assert f'href="{signup}"' in html
    assert client.post(url)["Location"].startswith("/en/account/login/")
    form = client.get(signup).content.decode()
    assert f'name="next" value="{url}"' in form
    response = client.post(
        "/en/account/signup/",
        {
            "username": "newbie",
            "email": "newbie@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": url,
        },
    )
    assert response.status_code == 302 and response["Location"] == url
    client.post(url)
    assert Membership.objects.get().user.username == "newbie"


def test_logging_in_on_the_way_comes_back_to_join(client, cohort):
    person("alice")
    url = f"/en/courses/join/{cohort.join_code}/"
    response = client.post(
        "/en/account/login/", {"username": "alice", "password": PASSWORD, "next": url}
    )
    assert response["Location"] == url


@pytest.mark.parametrize(
    ("setup", "code", "sentence"),
    [
        ("wrong", "unknown", "No cohort has this code"),
        ("malformed", "unknown", "No cohort has this code"),
        ("disabled", "disabled", "turned off"),
        ("expired", "expired", "has expired"),
    ],
)
def test_a_code_that_does_not_work_says_why_and_joins_nothing(
    client, cohort, setup, code, sentence
):
    typed = cohort.join_code
    if setup == "wrong":
        typed = "WWWWWW" if typed != "WWWWWW" else "XXXXXX"
    elif setup == "malformed":
        typed = "0O1I5S"
    elif setup == "disabled":
        cohort.join_enabled = False
        cohort.save()
    else:
        cohort.join_expires_at = timezone.now() - timedelta(minutes=1)
        cohort.save()
    client.force_login(person("alice"))
    response = client.post("/en/courses/join/", {"code": typed})
    assert response.status_code == 400
    assert response.context["error_code"] == code
    assert sentence in response.content.decode()
    link = client.get(f"/en/courses/join/{typed}/")
    assert link.status_code == 404 and sentence in link.content.decode()
    assert client.post(f"/en/courses/join/{typed}/").status_code == 404
    assert not Membership.objects.exists()


def test_a_refused_code_answers_htmx_with_the_form_alone(client, cohort):
    client.force_login(person("alice"))
    response = client.post(
        "/en/courses/join/",
        {"code": "WWWWWW"},
        headers={"HX-Request": "true", "HX-Target": "join-form"},
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert html.lstrip().startswith('<form id="join-form"') and "<html" not in html
    assert "No cohort has this code" in html


def test_a_good_code_answers_htmx_with_a_redirect(client, cohort):
    client.force_login(person("alice"))
    response = client.post(
        "/en/courses/join/",
        {"code": cohort.join_code},
        headers={"HX-Request": "true", "HX-Target": "join-form"},
    )
    assert response.status_code == 204
    assert response["HX-Redirect"] == f"/en/courses/join/{cohort.join_code}/"


def test_an_italian_trainee_reads_the_refusal_in_italian(client, cohort):
    client.force_login(person("alice"))
    response = client.post("/it/courses/join/", {"code": "WWWWWW"})
    assert "Nessun gruppo ha questo codice" in response.content.decode()


def test_a_full_cohort_refuses_the_next_trainee(client, cohort):
    cohort.max_trainees = 1
    cohort.save()
    enrol(cohort, person("alice"))
    client.force_login(person("bob"))
    response = client.post(f"/en/courses/join/{cohort.join_code}/")
    assert response.status_code == 400
    assert response.context["error_code"] == "full"
    assert "This cohort is full" in response.content.decode()
    assert Membership.objects.count() == 1


def test_joining_twice_keeps_one_membership_and_says_so(client, cohort):
    alice = person("alice")
    first = enrol(cohort, alice, days_ago=3)
    client.force_login(alice)
    response = client.post(f"/en/courses/join/{cohort.join_code}/", follow=True)
    assert "You are already in this cohort." in response.content.decode()
    assert list(Membership.objects.all()) == [first]
    assert Membership.objects.get().joined_at == first.joined_at


def test_an_instructor_cannot_join_their_own_cohort(client, cohort):
    client.force_login(cohort.course.instructors.get())
    response = client.post(f"/en/courses/join/{cohort.join_code}/")
    assert response.context["error_code"] == "teacher"
    assert not Membership.objects.exists()


def test_a_reset_code_stops_the_old_one_and_keeps_the_trainees(client, cohort):
    alice = enrol(cohort, person("alice")).user
    old = cohort.join_code
    client.force_login(cohort.course.instructors.get())
    client.post(f"/en/courses/cohort/{cohort.pk}/code/", {"action": "reset"})
    cohort.refresh_from_db()
    assert cohort.join_code != old
    client.force_login(person("bob"))
    assert client.post(f"/en/courses/join/{old}/").status_code == 404
    assert list(Membership.objects.values_list("user", flat=True)) == [alice.pk]


def test_the_code_panel_answers_htmx_with_itself(client, cohort):
    client.force_login(cohort.course.instructors.get())
    response = client.post(
        f"/en/courses/cohort/{cohort.pk}/code/",
        {"action": "disable"},
        headers={"HX-Request": "true", "HX-Target": "join-panel"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="join-panel"')
    assert "Turn the code on" in html and "<html" not in html
    cohort.refresh_from_db()
    assert not cohort.join_enabled
    again = client.post(f"/en/courses/cohort/{cohort.pk}/code/", {"action": "enable"})
    assert again.status_code == 302
    cohort.refresh_from_db()
    assert cohort.join_enabled
    bad = client.post(f"/en/courses/cohort/{cohort.pk}/code/", {"action": "explode"})
    assert bad.status_code == 400


def test_the_cohort_page_shows_code_link_and_qr(client, cohort):
    client.force_login(cohort.course.instructors.get())
    html = client.get(f"/en/courses/cohort/{cohort.pk}/").content.decode()
    assert cohort.join_code[:3] in html and cohort.join_code[3:] in html
    assert f"http://testserver/courses/join/{cohort.join_code}/" in html
    assert '<svg role="img"' in html


def test_leaving_asks_first_then_the_cohort_is_gone(client, cohort):
    alice = person("alice")
    enrol(cohort, alice)
    client.force_login(alice)
    url = f"/en/courses/cohort/{cohort.pk}/leave/"
    assert "Leave this cohort?" in client.get(url).content.decode()
    assert Membership.objects.exists()
    assert client.post(url)["Location"] == "/en/courses/"
    assert not Membership.objects.exists()
    assert client.get(url).status_code == 404
    assert "Spring" not in client.get("/en/courses/").content.decode()


def test_a_removed_trainee_loses_the_cohort_at_once(client, cohort):
    alice = person("alice")
    enrol(cohort, alice)
    ines = cohort.course.instructors.get()
    client.force_login(ines)
    url = f"/en/courses/cohort/{cohort.pk}/trainees/{alice.pk}/remove/"
    assert "Remove this trainee" in client.get(url).content.decode()
    client.post(url)
    assert not Membership.objects.exists()
    assert client.get(f"/en/courses/cohort/{cohort.pk}/trainees/{alice.pk}/").status_code == 404
    client.force_login(alice)
    assert client.get(f"/en/courses/cohort/{cohort.pk}/me/").status_code == 404
    assert "Spring" not in client.get("/en/courses/").content.decode()


def test_guessing_codes_is_stopped_after_the_limit_and_a_good_code_waits_too(
    client, cohort, settings
):
    settings.JOIN_GUESS_LIMIT = 3
    for guess in ("AAAAAA", "BBBBBB", "CCCCCC"):
        assert client.post("/en/courses/join/", {"code": guess}).status_code == 400
    refused = client.post("/en/courses/join/", {"code": cohort.join_code})
    assert refused.status_code == 429
    assert "Too many wrong codes" in refused.content.decode()
    # The link form of a code is the same guess and is refused the same way, in Italian too.
    linked = client.get("/it/courses/join/DDDDDD/")
    assert linked.status_code == 429 and "Troppi codici sbagliati" in linked.content.decode()
    assert not Membership.objects.exists()


def test_mistyped_codes_that_stay_under_the_limit_still_join(client, cohort, settings):
    settings.JOIN_GUESS_LIMIT = 3
    client.force_login(person("alice"))
    for guess in ("AAAAAA", "BBBBBB"):
        client.post("/en/courses/join/", {"code": guess})
    assert client.post("/en/courses/join/", {"code": cohort.join_code}).status_code == 302


def test_a_refused_guess_answers_htmx_with_the_form_saying_why(client, cohort, settings):
    settings.JOIN_GUESS_LIMIT = 0
    response = client.post(
        "/en/courses/join/", {}, headers={"HX-Request": "true", "HX-Target": "join-form"}
    )
    assert response.status_code == 429
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="join-form"') and "Too many wrong codes" in html
