"""Every edit form, opened and sent back unchanged as a browser sends it, changes nothing.

The page is parsed into the tree a browser builds (html5lib) and the form's entry list is made
the way HTML's form submission makes it: checked boxes and radios only, each select's selected
options (the first one when none is marked), a textarea's text with its line breaks as CR LF,
and each input's value after its type's value sanitization. That last step is where a page in
the wrong format loses data: a date input whose value is not an ISO date ("26/11/2026") shows
empty and sends "", a datetime-local input sends its value normalized or "", a number input
whose value is not a number sends "". The entries go back urlencoded, with the CSRF checks on.

The course lives in Los Angeles while the server's time zone is Rome's, so a date or time shown
or read in the wrong zone moves. The password forms are left out (they keep nothing to show);
a clinic has no edit form (its settings are chosen once, when it is created).
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from urllib.parse import urlencode, urljoin
from zoneinfo import ZoneInfo

import html5lib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from polotrainer.certificates.models import CourseSetting
from polotrainer.courses import assignments
from polotrainer.courses.exams.models import Accommodation, Exam
from polotrainer.courses.models import Assignment, Cohort, Course, Observation
from polotrainer.umpires.models import Profile
from tests.content import small_rulebook
from tests.people import enrol, make_cohort, make_course, make_exam, person

pytestmark = pytest.mark.django_db

ZONE = "America/Los_Angeles"


# --- what a browser sends ------------------------------------------------------------------------

DATE = re.compile(r"(\d{4,})-(\d\d)-(\d\d)")
TIME = re.compile(r"(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?")
NUMBER = re.compile(r"-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")
NEWLINES = re.compile(r"\r\n|\r|\n")


def _date(text: str) -> str:
    """A date input's value as sent: the same valid date string, or "" (HTML's sanitization)."""
    match = DATE.fullmatch(text)
    if not match:
        return ""
    try:
        date(*map(int, match.groups()))
    except ValueError:
        return ""
    return text


def _time(text: str) -> str:
    """A time input's value as sent: normalized (seconds only when not zero), or ""."""
    match = TIME.fullmatch(text)
    if not match:
        return ""
    hours, minutes, seconds, fraction = match.groups()
    try:
        time(int(hours), int(minutes), int(seconds or 0))
    except ValueError:
        return ""
    fraction = (fraction or "").rstrip("0")
    if fraction:
        return f"{hours}:{minutes}:{seconds}.{fraction}"
    return f"{hours}:{minutes}:{seconds}" if seconds and seconds != "00" else f"{hours}:{minutes}"


def _datetime_local(text: str) -> str:
    """A datetime-local input's value as sent: normalized ("T", no zero seconds), or ""."""
    day, separator, clock = text.partition("T") if "T" in text else text.partition(" ")
    if not separator or not _date(day) or not _time(clock):
        return ""
    return f"{day}T{_time(clock)}"


SANITIZE: dict[str, Callable[[str], str]] = {
    "text": lambda v: NEWLINES.sub("", v),
    "search": lambda v: NEWLINES.sub("", v),
    "tel": lambda v: NEWLINES.sub("", v),
    "password": lambda v: NEWLINES.sub("", v),
    "email": lambda v: NEWLINES.sub("", v).strip(" \t\n\f\r"),
    "url": lambda v: NEWLINES.sub("", v).strip(" \t\n\f\r"),
    "number": lambda v: v if NUMBER.fullmatch(v) else "",
    "date": _date,
    "time": _time,
    "datetime-local": _datetime_local,
    "hidden": lambda v: v,
}
NOT_SENT = {"submit", "reset", "button", "image", "file"}
FIELDS = {"input", "select", "textarea", "button"}


def _text(element: Any) -> str:
    return "".join(element.itertext())


def _option_value(option: Any) -> str:
    value = option.get("value")
    return value if value is not None else " ".join(_text(option).split())


def entries(form: Any) -> list[tuple[str, str]]:
    """The form's entry list, as a browser submits it with the form's first submit button."""
    sent: list[tuple[str, str]] = []
    submitter_seen = False
    for element in form.iter():
        name, tag = element.get("name"), element.tag
        if tag not in FIELDS or element.get("disabled") is not None:
            continue
        kind = (element.get("type") or ("submit" if tag == "button" else "text")).lower()
        if kind == "submit" and not submitter_seen:
            submitter_seen = True
            if name:
                sent.append((name, element.get("value") or ""))
            continue
        if not name or kind in NOT_SENT or tag == "button":
            continue
        if tag == "select":
            options = [o for o in element.iter("option")]
            chosen = [o for o in options if o.get("selected") is not None]
            if element.get("multiple") is None:
                enabled = [o for o in options if o.get("disabled") is None]
                chosen = chosen[-1:] or enabled[:1]
            sent.extend((name, _option_value(o)) for o in chosen)
        elif tag == "textarea":
            sent.append((name, NEWLINES.sub("\r\n", _text(element))))
        elif kind in {"checkbox", "radio"}:
            if element.get("checked") is not None:
                sent.append((name, element.get("value") or "on"))
        else:
            assert kind in SANITIZE, f"the test does not know what a browser sends for {kind}"
            sent.append((name, SANITIZE[kind](element.get("value") or "")))
    return sent


def served_form(html: str, page_url: str, action: str) -> Any:
    """The page's form that posts to `action` (a form without one posts to the page)."""
    tree = html5lib.HTMLParser(namespaceHTMLElements=False).parse(html)
    found = [
        f
        for f in tree.iter("form")
        if (f.get("method") or "get").lower() == "post"
        and urljoin(page_url, f.get("action") or page_url) == urljoin(page_url, action)
    ]
    assert len(found) == 1, f"{len(found)} forms post to {action} on {page_url}"
    return found[0]


def test_the_browser_model_sends_what_a_browser_sends():
    assert [_date(v) for v in ("2026-11-26", "26/11/2026", "2026-02-30", "")] == [
        "2026-11-26",
        "",
        "",
        "",
    ]
    assert _datetime_local("2026-11-26T09:30:00") == "2026-11-26T09:30"
    assert _datetime_local("2026-11-26 09:30") == "2026-11-26T09:30"
    assert _datetime_local("26/11/2026 09:30") == ""
    assert _time("09:30:15.500") == "09:30:15.5"
    assert SANITIZE["number"]("1.500") == "1.500" and SANITIZE["number"]("1,5") == ""
    html = (
        '<form method="post"><input name="a" value="x"><input type="checkbox" name="b" value="1">'
        '<input type="checkbox" name="b" value="2" checked><select name="c"><option value="">-'
        '<option value="z">Z</select><textarea name="d">\nline\none</textarea>'
        '<input type="date" name="e" value="26/11/2026"><button name="f" value="go">Go</button>'
        '<button name="g" value="no">No</button></form>'
    )
    assert entries(served_form(html, "/p/", "")) == [
        ("a", "x"),
        ("b", "2"),
        ("c", ""),
        ("d", "line\r\none"),
        ("e", ""),
        ("f", "go"),
    ]


# --- the edit forms ------------------------------------------------------------------------------


def _row(model: type, pk: int, *also: str) -> dict[str, Any]:
    """Every column of the row, and the many-to-many fields named."""
    row = model.objects.filter(pk=pk).values().get()
    if also:
        item = model.objects.get(pk=pk)
        row |= {name: sorted(o.pk for o in getattr(item, name).all()) for name in also}
    return row


@dataclass
class Story:
    """An instructor's course in Los Angeles, everything in it set away from the defaults."""

    instructor: Any
    trainee: Any
    course: Course
    cohort: Cohort
    assignment: Assignment
    observation: Observation
    exam: Exam
    accommodation: Accommodation
    setting: CourseSetting


@pytest.fixture
def story() -> Story:
    return make_story()


def make_story() -> Story:
    assert settings.TIME_ZONE != ZONE
    rulebook = small_rulebook()
    teacher = person("ines", instructor=True, name="Ines Istruttrice")
    Profile.objects.filter(user=teacher).update(language="it")
    trainee = person("alice", name="Alice Allieva")
    course = make_course(teacher, "Umpire course")
    Course.objects.filter(pk=course.pk).update(time_zone=ZONE, track="arena", year=2027)
    course.refresh_from_db()
    today = assignments.today_in(course)
    # Days after the 12th, so a day and a month cannot be read the other way round.
    last_day = date(today.year + 1, 11, 26)
    cohort = make_cohort(
        course,
        "Primavera 2027, Roma",
        max_trainees=1500,
        join_expires_at=assignments.end_of(last_day, course),
    )
    enrol(cohort, trainee)
    work = assignments.create(
        cohort,
        scope="sections",
        sections=[rulebook["3a-one"].section],
        questions=12,
        due_on=date(today.year + 1, 3, 17),
        note="Ripassate la 3.a.\nPoi la 3.b.",
        by=teacher,
    )
    seen = Observation.objects.create(
        cohort=cohort,
        trainee=trainee,
        observer=teacher,
        observed_on=today - timedelta(days=19),
        game="Rossi v Bianchi, Roma",
        outcome="needs_work",
        rating="C2",
        notes="Buona posizione.\nFischio in ritardo.",
    )
    la = ZoneInfo(ZONE)
    exam = make_exam(
        cohort,
        list(rulebook.values()),
        pass_percent=88,
        time_limit_minutes=45,
        opens_at=datetime(today.year + 1, 5, 14, 9, 30, tzinfo=la),
        closes_at=datetime(today.year + 1, 5, 21, 17, 45, tzinfo=la),
        attempts_allowed=3,
        cooldown_hours=36,
    )
    extra = Accommodation.objects.create(
        exam=exam, user=trainee, extra_minutes=15, extra_attempts=1
    )
    setting = CourseSetting.objects.create(course=course, validity_years=3)
    return Story(teacher, trainee, course, cohort, work, seen, exam, extra, setting)


@dataclass(frozen=True)
class Case:
    """An edit page, the form on it, and the rows that form writes."""

    name: str
    page: Callable[[Story], str]  # the URL name and its arguments, in reverse()'s terms
    action: Callable[[Story], str]
    rows: Callable[[Story], list[dict[str, Any]]]
    saves: bool = True


def _url(name: str, *args: int) -> str:
    return reverse(name, args=args)


CASES = [
    Case(
        "course",
        lambda s: _url("courses:course_edit", s.course.pk),
        lambda s: "",
        lambda s: [_row(Course, s.course.pk, "instructors")],
    ),
    Case(
        "cohort",
        lambda s: _url("courses:cohort_edit", s.cohort.pk),
        lambda s: "",
        lambda s: [_row(Cohort, s.cohort.pk)],
    ),
    Case(
        "assignment",
        lambda s: _url("courses:assignment_edit", s.assignment.pk),
        lambda s: "",
        lambda s: [_row(Assignment, s.assignment.pk, "sections", "scenarios")],
    ),
    Case(
        "observation",
        lambda s: _url("courses:observation_edit", s.observation.pk),
        lambda s: "",
        lambda s: [_row(Observation, s.observation.pk)],
    ),
    Case(
        "exam",
        lambda s: _url("courses:exam_edit", s.exam.pk),
        lambda s: "",
        lambda s: [_row(Exam, s.exam.pk)],
    ),
    # Extra time is given on the results page, from a form that starts blank: sent as served, it
    # asks for the trainee and the extra time already given stays.
    Case(
        "accommodation",
        lambda s: _url("courses:exam_results", s.exam.pk),
        lambda s: _url("courses:exam_accommodation", s.exam.pk),
        lambda s: list(Accommodation.objects.order_by("pk").values()),
        saves=False,
    ),
    Case(
        "certificate settings",
        lambda s: _url("certificates:course_setting", s.course.pk),
        lambda s: "",
        lambda s: [_row(CourseSetting, s.setting.pk)],
    ),
    Case(
        "profile",
        lambda s: _url("umpires:profile"),
        lambda s: _url("umpires:profile"),
        lambda s: [_row(Profile, s.instructor.profile.pk)],
    ),
]


@pytest.mark.parametrize("language", ["it", "en"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_an_edit_form_sent_back_unchanged_changes_nothing(story, case, language):
    client = Client(enforce_csrf_checks=True)
    client.force_login(story.instructor)
    with translation.override(language):
        page, action = case.page(story), case.action(story)
    before = case.rows(story)
    served = client.get(page)
    assert served.status_code == 200
    form = served_form(served.content.decode(), page, action)
    sent = entries(form)
    response = client.post(
        urljoin(page, form.get("action") or page),
        urlencode(sent),
        content_type="application/x-www-form-urlencoded",
    )
    if case.saves:
        assert response.status_code == 302, (sent, response.context["form"].errors.as_data())
    else:
        errors = response.context["accommodation_form"].errors.as_data()
        assert (response.status_code, errors["trainee"][0].code) == (400, "required")
    assert case.rows(story) == before, sent


# --- every date and time input, on every form page ----------------------------------------------

HTML_VALUE = {"date": _date, "time": _time, "datetime-local": _datetime_local}


def _form_pages(s: Story) -> list[str]:
    return [c.page(s) for c in CASES] + [
        _url("courses:cohort_new", s.course.pk),
        _url("courses:assignment_new", s.cohort.pk),
        _url("courses:observation_new", s.cohort.pk, s.trainee.pk),
        _url("courses:exam_new", s.cohort.pk),
    ]


@pytest.mark.parametrize("language", ["it", "en"])
def test_every_date_and_time_input_is_served_in_htmls_own_format(story, client, language):
    client.force_login(story.instructor)
    with translation.override(language):
        pages = _form_pages(story)
        exam_page = _url("courses:exam_edit", story.exam.pk)
        new_work = _url("courses:assignment_new", story.cohort.pk)
        new_seen = _url("courses:observation_new", story.cohort.pk, story.trainee.pk)
    shown: dict[tuple[str, str], str] = {}
    for page in pages:
        tree = html5lib.HTMLParser(namespaceHTMLElements=False).parse(client.get(page).content)
        for element in tree.iter("input"):
            kind, value = element.get("type", "text"), element.get("value")
            if kind in HTML_VALUE and value:
                assert HTML_VALUE[kind](value) == value, (page, element.get("name"), value)
                shown[page, element.get("name")] = value
    # The exam's times are the course's wall clock, not the server's.
    la = ZoneInfo(ZONE)
    assert shown[exam_page, "opens_at"] == f"{story.exam.opens_at.astimezone(la):%Y-%m-%dT%H:%M}"
    assert shown[exam_page, "closes_at"] == f"{story.exam.closes_at.astimezone(la):%Y-%m-%dT%H:%M}"
    # A new assignment starts on today where the course is; a new observation on today.
    assert shown[new_work, "due_on"] == assignments.today_in(story.course).isoformat()
    assert shown[new_seen, "observed_on"] == timezone.localdate().isoformat()
