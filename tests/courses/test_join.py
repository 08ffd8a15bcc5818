"""Joining a cohort by code or link (signing up on the way), leaving it, being removed."""

from datetime import timedelta
from urllib.parse import quote, urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from polotrainer.courses import codes
from polotrainer.courses.codes import join_pass
from polotrainer.courses.models import Membership
from polotrainer.throttle.models import Hit
from tests.people import PASSWORD, enrol, make_cohort, make_course, person

pytestmark = pytest.mark.django_db


@pytest.fixture
def cohort():
    return make_cohort(make_course(person("ines", instructor=True)), "Spring")


def test_a_code_typed_in_small_letters_leads_to_the_join_page(client, cohort):
    client.force_login(person("alice"))
    response = client.post("/en/courses/join/", {"code": f" {cohort.join_code.lower()} "})
    assert response.status_code == 302
    assert response["Location"] == f"/en/courses/join/{cohort.join_code}/?k={join_pass(cohort)}"
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
    # Back to the join page with its pass: not refused should the address reach the limit.
    url = f"/en/courses/join/{cohort.join_code}/?k={join_pass(cohort)}"
    html = client.get(url).content.decode()
    signup = f"/en/account/signup/?next={quote(url)}"
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
    assert response["HX-Redirect"] == f"/en/courses/join/{cohort.join_code}/?k={join_pass(cohort)}"


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


# --- the limit never stops the room behind the guesser's address ---------------------------------

ROOM = "203.0.113.5"
STRONG = "a-long-unusual-passphrase-91"


def shared_link(cohort):
    """The join link as the instructor's cohort page gives it to share (and its QR code)."""
    ines = Client()
    ines.force_login(cohort.course.instructors.get())
    link = ines.get(f"/en/courses/cohort/{cohort.pk}/").context["join_link"]
    return urlsplit(link)._replace(scheme="", netloc="").geturl()


def guess_wrong_codes(count):
    guesser = Client(REMOTE_ADDR=ROOM)
    for n in range(count):
        guesser.post("/en/courses/join/", {"code": "AAAAA" + "ABCDEFGHJK"[n % 10]})


def test_a_room_past_the_guess_limit_still_joins_with_the_shared_link(cohort, settings):
    settings.JOIN_GUESS_LIMIT = 3
    guess_wrong_codes(5)
    for n in range(3):
        trainee = Client(REMOTE_ADDR=ROOM)
        trainee.force_login(person(f"trainee{n}"))
        page = trainee.get("/en" + shared_link(cohort))
        assert page.status_code == 200, n
        assert "What your instructors will see" in page.content.decode()
        joined = trainee.post("/en" + shared_link(cohort))
        assert joined.status_code == 302 and joined["Location"] == "/en/courses/"
    assert Membership.objects.count() == 3
    assert Hit.objects.filter(bucket="join-code-guess").count() == 3


def test_a_visitor_paused_room_signs_up_through_the_shared_link_and_joins(cohort, settings):
    settings.JOIN_GUESS_LIMIT = 1
    guess_wrong_codes(1)
    visitor = Client(REMOTE_ADDR=ROOM)
    link = "/en" + shared_link(cohort)
    html = visitor.get(link).content.decode()
    signup = f"/en/account/signup/?next={quote(link)}"
    assert f'href="{signup}"' in html
    visitor.post(
        signup,
        {
            "username": "newbie",
            "email": "newbie@example.org",
            "password1": STRONG,
            "password2": STRONG,
            "next": link,
        },
    )
    assert visitor.post(link).status_code == 302
    assert Membership.objects.filter(user__username="newbie").exists()


def test_over_the_limit_a_typed_code_is_refused_alike_right_or_wrong(client, cohort, settings):
    settings.JOIN_GUESS_LIMIT = 2
    guess_wrong_codes(2)
    newcomer = Client(REMOTE_ADDR=ROOM)
    newcomer.force_login(person("alice"))
    right = newcomer.post("/it/courses/join/", {"code": cohort.join_code})
    wrong = newcomer.post("/it/courses/join/", {"code": "BBBBBB"})
    assert right.status_code == wrong.status_code == 429
    assert right.content.decode().replace(str(right.context["csrf_token"]), "") == (
        wrong.content.decode().replace(str(wrong.context["csrf_token"]), "")
    )
    assert "Troppi codici sbagliati" in right.content.decode()
    english = newcomer.get(f"/en/courses/join/{cohort.join_code}/")
    assert english.status_code == 429
    assert "scan the QR code your instructor shared" in english.content.decode()
    assert not Membership.objects.exists()


def test_a_code_typed_in_time_joins_after_the_room_is_paused(cohort, settings):
    settings.JOIN_GUESS_LIMIT = 2
    alice = Client(REMOTE_ADDR=ROOM)
    alice.force_login(person("alice"))
    typed = alice.post("/en/courses/join/", {"code": cohort.join_code})
    assert typed.status_code == 302
    guess_wrong_codes(2)
    page = alice.get(typed["Location"]).content.decode()
    assert f'action="{typed["Location"]}"' in page
    assert alice.post(typed["Location"]).status_code == 302
    assert Membership.objects.filter(user__username="alice").exists()


def test_members_and_instructors_reopen_the_link_whatever_the_count(cohort, settings):
    settings.JOIN_GUESS_LIMIT = 1
    alice = person("alice")
    enrol(cohort, alice)
    guess_wrong_codes(1)
    member = Client(REMOTE_ADDR=ROOM)
    member.force_login(alice)
    page = member.get(f"/en/courses/join/{cohort.join_code}/")
    assert page.status_code == 200 and "You are already in this cohort." in page.content.decode()
    teacher = Client(REMOTE_ADDR=ROOM)
    teacher.force_login(cohort.course.instructors.get())
    assert teacher.get(f"/en/courses/join/{cohort.join_code}/").status_code == 200


def test_a_new_code_voids_the_old_links_pass(cohort, settings):
    settings.JOIN_GUESS_LIMIT = 1
    old = shared_link(cohort)
    codes.give_new_code(cohort)
    guess_wrong_codes(1)
    stale = Client(REMOTE_ADDR=ROOM).get("/en" + old)
    assert stale.status_code == 429
    assert Client(REMOTE_ADDR=ROOM).get("/en" + shared_link(cohort)).status_code == 200
