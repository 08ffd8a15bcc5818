"""Courses: the trainee's side (my courses, joining, assignments) and the instructor's (courses,
cohorts, the join code, assignments, the gradebook, trainees and their observations).

Access is decided by small helpers that return 404 for anything not the user's own: an
instructor reaches only the courses they teach (and only while they hold the role), a trainee
only the cohorts they are in, and a removed trainee nothing of the cohort from that moment.
"""

from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Prefetch, QuerySet
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from polotrainer.courses import access, codes, enrolment, gradebook
from polotrainer.courses import assignments as homework
from polotrainer.courses.exams.models import Exam
from polotrainer.courses.forms import (
    DRILL_MAX,
    AssignmentChangeForm,
    AssignmentForm,
    CohortForm,
    CourseForm,
    JoinForm,
    ObservationForm,
    PersonForm,
    too_many_plays,
)
from polotrainer.courses.models import Assignment, Cohort, Course, Membership, Observation
from polotrainer.throttle import passes, rates
from polotrainer.throttle.addresses import client_ip
from polotrainer.umpires import roles
from polotrainer.umpires.models import InstructorRole
from polotrainer.umpires.roles import instructor_required, is_instructor, staff_required
from polotrainer.web import language, qr
from polotrainer.web.dates import moment
from polotrainer.web.downloads import csv_lines, csv_response
from polotrainer.web.htmx import render_fragment
from polotrainer.web.messages import Message
from polotrainer.web.requests import Request, UserRequest
from scenarios.models import Rule, Section
from scenarios.variants import fresh_seed

JOIN_ERRORS: dict[enrolment.JoinCode, Message] = {
    enrolment.JoinCode.UNKNOWN: gettext_lazy(
        "No cohort has this code. Check it with your instructor: six letters and digits."
    ),
    enrolment.JoinCode.DISABLED: gettext_lazy(
        "This code has been turned off by the instructor. Ask them for the current one."
    ),
    enrolment.JoinCode.EXPIRED: gettext_lazy(
        "This code has expired. Ask your instructor for a new one."
    ),
    enrolment.JoinCode.FULL: gettext_lazy(
        "This cohort is full: it has reached its enrolment limit. Ask your instructor."
    ),
    enrolment.JoinCode.ALREADY: gettext_lazy("You are already in this cohort."),
    enrolment.JoinCode.TEACHER: gettext_lazy(
        "You teach this course: instructors do not join their own cohorts as trainees."
    ),
}
ASSIGNMENT_ERRORS: dict[homework.AssignmentCode, Message] = {
    homework.AssignmentCode.PAST_DUE: gettext_lazy(
        "The due date is in the past: choose today or a later day."
    ),
    homework.AssignmentCode.NO_SCENARIOS: gettext_lazy(
        "There is no situation to practise in what you chose: choose something else."
    ),
    homework.AssignmentCode.NO_DRILLS: gettext_lazy(
        "No situation in what you chose can be played as a drill yet: choose other scene "
        "families or sections, or set questions instead."
    ),
}
STATUS_WORDS = {
    "done": gettext_lazy("Done"),
    "late": gettext_lazy("Done late"),
    "overdue": gettext_lazy("Overdue"),
    "open": gettext_lazy("Open"),
}


# --- access: 404 for anything not one's own ----------------------------------------------------


def _courses_taught(user: User) -> QuerySet[Course]:
    return Course.objects.filter(instructors=user)


def _trainee_of(cohort: Cohort, user_id: int) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("user__profile", "cohort__course"),
        cohort=cohort,
        user_id=user_id,
    )


def _observation_for(request: UserRequest, observation_id: int) -> tuple[Observation, Membership]:
    observation = access.taught(request.user, Observation.objects.all(), observation_id)
    # A removed trainee's observations are out of reach with them.
    return observation, _trainee_of(observation.cohort, observation.trainee_id)


def _own_membership(request: UserRequest, cohort_id: int) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("cohort__course", "user__profile"),
        cohort_id=cohort_id,
        user=request.user,
    )


def _own_assignment(request: UserRequest, assignment_id: int) -> tuple[Assignment, Membership]:
    assignment = access.joined(request.user, Assignment.objects.all(), assignment_id)
    membership = Membership.objects.get(cohort=assignment.cohort, user=request.user)
    return assignment, membership


# --- the trainee's side ------------------------------------------------------------------------


def _people(users: Any) -> str:
    return ", ".join(
        (getattr(u, "profile", None) and u.profile.display_name) or u.get_username() for u in users
    )


@login_required
@require_GET
def mine(request: UserRequest) -> HttpResponse:
    """My courses: the cohorts I am in with what is due and my results; what I teach."""
    memberships = list(
        Membership.objects.filter(user=request.user)
        .select_related("cohort__course")
        .prefetch_related(
            Prefetch(
                "cohort__course__instructors",
                queryset=User.objects.select_related("profile").order_by("username"),
            )
        )
    )
    cohorts = [m.cohort for m in memberships]
    work = list(
        Assignment.objects.filter(cohort__in=cohorts)
        .select_related("cohort__course")
        .order_by("due_at", "pk")
    )
    done = homework.progress(work, [request.user.pk])
    tests = list(Exam.objects.filter(cohort__in=cohorts).order_by("opens_at", "pk"))
    observations = Observation.objects.filter(trainee=request.user, cohort__in=cohorts)
    seen: dict[int, list[Observation]] = {}
    for o in observations.select_related("observer__profile"):
        seen.setdefault(o.cohort_id, []).append(o)
    joined = [
        {
            "membership": m,
            "instructors": _people(m.cohort.course.instructors.all()),
            "assignments": [
                (a, done[(a.pk, request.user.pk)]) for a in work if a.cohort_id == m.cohort_id
            ],
            "observations": seen.get(m.cohort_id, []),
            "exams": [e for e in tests if e.cohort_id == m.cohort_id],
        }
        for m in memberships
    ]
    teaching = None
    if is_instructor(request.user):
        teaching = list(
            _courses_taught(request.user).annotate(cohort_count=Count("cohorts", distinct=True))
        )
    context = {
        "joined": joined,
        "teaching": teaching,
        "form": JoinForm(),
        "is_instructor": teaching is not None,
    }
    return render(request, "courses/mine.html", context)


def join_path(code: str) -> str:
    """The join link's path without a language: the trainee's own language is added on arrival
    (Django's locale middleware redirects to it), so one printed QR code serves both."""
    return language.without_language(reverse("courses:join_code", args=[code]))


@never_cache
@require_http_methods(["GET", "POST"])
def join(request: Request) -> HttpResponse:
    """Type a join code; a good one leads to the cohort's join page, a bad one says why."""
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            cohort = _cohort_of_code(request, form.cleaned_data["code"])
        except GuessesPaused:
            context = {"form": JoinForm(), "error": TOO_MANY_GUESSES}
            return render_fragment(
                request, "courses/join.html", context, fragments=("join-form",), status=429
            )
        except enrolment.JoinError as exc:
            form.add_error("code", str(JOIN_ERRORS[exc.code]))
            context = {"form": form, "error_code": exc.code}
            return render_fragment(
                request, "courses/join.html", context, fragments=("join-form",), status=400
            )
        # With the pass, the join that follows is not refused should this address reach the
        # limit meanwhile (a room typing the code while someone there mistypes).
        target = _invite_path(cohort)
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = target
            return response
        return redirect(target)
    if request.method == "POST" and not _may_guess(request):
        context = {"form": JoinForm(), "error": TOO_MANY_GUESSES}
        return render_fragment(
            request, "courses/join.html", context, fragments=("join-form",), status=429
        )
    status = 400 if request.method == "POST" else 200
    return render_fragment(
        request, "courses/join.html", {"form": form}, fragments=("join-form",), status=status
    )


@never_cache
@require_http_methods(["GET", "POST"])
def join_code(request: Request, code: str) -> HttpResponse:
    """The join link: who teaches, what they will see; join (after logging in or signing up)."""
    try:
        cohort = _cohort_of_code(request, code)
    except GuessesPaused:
        context = {"form": JoinForm(initial={"code": code[:20]}), "error": TOO_MANY_GUESSES}
        return render(request, "courses/join.html", context, status=429)
    except enrolment.JoinError as exc:
        context = {"form": JoinForm(initial={"code": code[:20]}), "error_code": exc.code}
        context["error"] = JOIN_ERRORS[exc.code]
        return render(request, "courses/join.html", context, status=404)
    if request.method == "POST":
        if not request.user.is_authenticated:
            back = urlencode({"next": _invite_path(cohort)})
            return redirect(f"{reverse('umpires:login')}?{back}")
        try:
            membership = enrolment.join(request.user, cohort)
        except enrolment.JoinError as exc:
            if exc.code == "already":
                messages.info(request, str(JOIN_ERRORS[enrolment.JoinCode.ALREADY]))
                return redirect("courses:mine")
            context = _invite(request, cohort)
            context["error"] = JOIN_ERRORS[exc.code]
            context["error_code"] = exc.code
            return render(request, "courses/join_cohort.html", context, status=400)
        messages.success(
            request,
            _("You joined %(course)s, %(cohort)s.")
            % {"course": cohort.course.title, "cohort": membership.cohort.name},
        )
        return redirect("courses:mine")
    return render(request, "courses/join_cohort.html", _invite(request, cohort))


JOIN_GUESSES = "join-code-guess"
TOO_MANY_GUESSES = gettext_lazy(
    "Too many wrong codes were typed from this network in the last hour. Open the join link or "
    "scan the QR code your instructor shared: it works even now. Or try again later."
)


class GuessesPaused(Exception):
    """This address has typed JOIN_GUESS_LIMIT wrong codes in the last hour."""


def _cohort_of_code(request: Request, text: str) -> Cohort:
    """The cohort this join code opens, else enrolment.JoinError saying why.

    Wrong codes are counted per address, and an address that typed JOIN_GUESS_LIMIT of them
    in the last hour gets GuessesPaused for any code, right or wrong: the 244 million codes
    stay unguessable, and guessing on learns nothing. Whoever shows they know the cohort
    already is never counted nor paused: the join link's pass (its QR code carries it), a
    member of the cohort, one of its instructors. So a room behind one address joins whatever
    one person there has typed.
    """
    cohort: Cohort | None
    refused: enrolment.JoinError | None = None
    try:
        cohort = enrolment.find(text)
    except enrolment.JoinError as exc:
        cohort, refused = exc.cohort, exc
    if cohort is not None and _knows(request, cohort):
        if refused is not None:
            raise refused
        return cohort
    address = client_ip(request) or "unknown"
    if not rates.allowed(JOIN_GUESSES, address, settings.JOIN_GUESS_LIMIT, rates.HOUR):
        raise GuessesPaused
    if refused is not None:
        if refused.code == "unknown":
            rates.record(JOIN_GUESSES, address, rates.HOUR)
        raise refused
    assert cohort is not None
    return cohort


def _may_guess(request: Request) -> bool:
    """Whether this address may try one more code (a form sent without one still is told)."""
    address = client_ip(request) or "unknown"
    return rates.allowed(JOIN_GUESSES, address, settings.JOIN_GUESS_LIMIT, rates.HOUR)


def _knows(request: Request, cohort: Cohort) -> bool:
    given = request.GET.get(passes.PARAMETER) or request.POST.get(passes.PARAMETER)
    if codes.holds_pass(cohort, given):
        return True
    user = request.user
    return user.is_authenticated and (
        Membership.objects.filter(cohort=cohort, user_id=user.pk).exists()
        or cohort.course.instructors.filter(pk=user.pk).exists()
    )


def _with_pass(path: str, cohort: Cohort) -> str:
    return f"{path}?{passes.PARAMETER}={codes.join_pass(cohort)}"


def _invite_path(cohort: Cohort) -> str:
    """The join page's own address with the pass: where logging in or signing up comes back to."""
    return _with_pass(reverse("courses:join_code", args=[cohort.join_code]), cohort)


def _invite(request: Request, cohort: Cohort) -> dict[str, Any]:
    path = _invite_path(cohort)
    member = (
        request.user.is_authenticated
        and Membership.objects.filter(cohort=cohort, user_id=request.user.pk).exists()
    )
    return {
        "cohort": cohort,
        "course": cohort.course,
        "instructors": _people(cohort.course.instructors.select_related("profile")),
        "already": member,
        "invite_path": path,
        # The sign-in links' way back here, as `next={{ invite_path|urlencode }}` spelt it.
        "signin_query": "next=" + quote(path, safe="/"),
    }


@login_required
@require_http_methods(["GET", "POST"])
def leave(request: UserRequest, cohort_id: int) -> HttpResponse:
    """Leave a cohort (asked once more first): the instructors stop seeing me at once."""
    membership = _own_membership(request, cohort_id)
    if request.method == "POST":
        name = f"{membership.cohort.course.title}, {membership.cohort.name}"
        enrolment.leave(membership)
        messages.success(request, _("You left %(cohort)s.") % {"cohort": name})
        return redirect("courses:mine")
    return _confirm(
        request,
        title=_("Leave this cohort?"),
        text=_(
            "Your instructors will no longer see your progress, and this cohort's assignments "
            "leave your list. Your answers stay yours. To come back you need the join code."
        ),
        subject=f"{membership.cohort.course.title}, {membership.cohort.name}",
        button=_("Leave the cohort"),
        back=reverse("courses:mine"),
    )


@login_required
@require_GET
def my_report(request: UserRequest, cohort_id: int) -> HttpResponse:
    """What my instructors see of me in this cohort, exactly as they see it."""
    membership = _own_membership(request, cohort_id)
    context = {"report": gradebook.report(membership), "cohort": membership.cohort, "own": True}
    return render(request, "courses/trainee.html", context)


@login_required
@require_GET
def assignment(request: UserRequest, assignment_id: int) -> HttpResponse:
    """One assignment: what it asks, when it is due, how far I am; start or go on."""
    item, _membership = _own_assignment(request, assignment_id)
    done = homework.progress([item], [request.user.pk])[(item.pk, request.user.pk)]
    context = {"assignment": item, "progress": done, "cohort": item.cohort}
    return render(request, "courses/assignment.html", context)


@login_required
@never_cache
@require_GET
def assignment_next(request: UserRequest, assignment_id: int) -> HttpResponse:
    """The assignment's next question, through ordinary practice, coming back here after it.
    A drill set is started from its page (a POST to the drills), so this leads back there."""
    item, membership = _own_assignment(request, assignment_id)
    if item.is_drill:
        return redirect("courses:assignment", item.pk)
    done = homework.progress([item], [request.user.pk])[(item.pk, request.user.pk)]
    if done.done:
        messages.success(
            request,
            ngettext(
                "Assignment done: %(right)d of %(answered)d answers right.",
                "Assignment done: %(right)d of %(answered)d answers right.",
                done.right,
            )
            % {"answered": done.answered, "right": done.right},
        )
        return redirect("courses:assignment", item.pk)
    scenario = homework.next_scenario(item, membership)
    if scenario is None:
        messages.error(request, _("This assignment has no situation left to practise."))
        return redirect("courses:assignment", item.pk)
    messages.info(
        request,
        ngettext(
            "%(title)s: %(answered)d of %(target)d questions answered.",
            "%(title)s: %(answered)d of %(target)d questions answered.",
            done.answered,
        )
        % {"title": item.title, "answered": done.answered, "target": done.target},
    )
    back = reverse("courses:assignment_next", args=[item.pk])
    url = reverse("practice:question", args=[scenario.slug, fresh_seed()])
    return redirect(f"{url}?then={back}")


# --- the instructor's side ---------------------------------------------------------------------


@instructor_required
@require_http_methods(["GET", "POST"])
def course_new(request: UserRequest) -> HttpResponse:
    """A new course; whoever creates it teaches it."""
    form = CourseForm(
        request.POST or None,
        initial={
            "year": timezone.localdate().year,
            "time_zone": timezone.get_current_timezone_name(),
        },
    )
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            course = form.save(commit=False)
            course.created_by = request.user
            course.save()
            course.instructors.add(request.user)
        messages.success(request, _("Course created. Now add a cohort: trainees join it by code."))
        return redirect("courses:course", course.pk)
    return render(
        request, "courses/course_form.html", {"form": form}, status=_status(request, form)
    )


def _status(request: Request, form: Any) -> int:
    return 400 if request.method == "POST" and form.errors else 200


@instructor_required
@require_GET
def course(request: UserRequest, course_id: int) -> HttpResponse:
    """A course: its cohorts and its instructors."""
    item = access.taught_course(request.user, course_id)
    cohorts = item.cohorts.annotate(trainees=Count("memberships"))
    context = {
        "course": item,
        "cohorts": cohorts,
        "instructors": item.instructors.select_related("profile").order_by("username"),
        "person_form": PersonForm(),
    }
    return render(request, "courses/course.html", context)


@instructor_required
@require_http_methods(["GET", "POST"])
def course_edit(request: UserRequest, course_id: int) -> HttpResponse:
    """Change a course's titles, track, year or time zone."""
    item = access.taught_course(request.user, course_id)
    zone_before = item.time_zone
    form = CourseForm(request.POST or None, instance=item)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            form.save()
            if item.time_zone != zone_before:
                homework.move_due_times(item)
        messages.success(request, _("Course saved."))
        return redirect("courses:course", item.pk)
    context = {"form": form, "course": item}
    return render(request, "courses/course_form.html", context, status=_status(request, form))


@instructor_required
@require_POST
def course_instructor_add(request: UserRequest, course_id: int) -> HttpResponse:
    """Add a co-instructor: someone who already holds the instructor role."""
    item = access.taught_course(request.user, course_id)
    form = PersonForm(request.POST)
    if form.is_valid():
        person: User = form.cleaned_data["person"]
        if not is_instructor(person):
            messages.error(
                request,
                _(
                    "%(name)s is not an instructor yet: staff grant the role first, then add "
                    "them here."
                )
                % {"name": person.get_username()},
            )
        elif item.instructors.filter(pk=person.pk).exists():
            messages.info(
                request,
                _("%(name)s already teaches this course.") % {"name": person.get_username()},
            )
        else:
            item.instructors.add(person)
            messages.success(
                request,
                _("%(name)s now teaches this course too.") % {"name": person.get_username()},
            )
    else:
        messages.error(request, " ".join(str(e) for e in form.errors["person"]))
    return redirect("courses:course", item.pk)


@instructor_required
@require_http_methods(["GET", "POST"])
def course_instructor_remove(request: UserRequest, course_id: int, user_id: int) -> HttpResponse:
    """Stop someone teaching the course; the last instructor cannot leave it untaught."""
    item = access.taught_course(request.user, course_id)
    person = get_object_or_404(item.instructors.all(), pk=user_id)
    back = reverse("courses:course", args=[item.pk])
    if item.instructors.count() <= 1:
        messages.error(request, _("A course needs at least one instructor: add another one first."))
        return redirect(back)
    if request.method == "POST":
        item.instructors.remove(person)
        messages.success(
            request,
            _("%(name)s no longer teaches this course.") % {"name": person.get_username()},
        )
        return redirect(back if person != request.user else reverse("courses:mine"))
    return _confirm(
        request,
        title=_("Remove this instructor from the course?"),
        text=_("They will no longer see the course, its cohorts or its gradebook."),
        subject=_people([person]),
        button=_("Remove the instructor"),
        back=back,
    )


@instructor_required
@require_http_methods(["GET", "POST"])
def cohort_new(request: UserRequest, course_id: int) -> HttpResponse:
    """A new cohort of the course, with its join code."""
    item = access.taught_course(request.user, course_id)
    form = CohortForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        cohort = form.save(commit=False)
        cohort.course = item
        cohort.join_expires_at = _code_end(form, item)
        codes.give_new_code(cohort)
        messages.success(request, _("Cohort created. Give your trainees the code or the link."))
        return redirect("courses:cohort", cohort.pk)
    context = {"form": form, "course": item}
    return render(request, "courses/cohort_form.html", context, status=_status(request, form))


def _code_end(form: CohortForm, item: Course) -> datetime | None:
    day = form.cleaned_data.get("join_expires_on")
    return homework.end_of(day, item) if day else None


@instructor_required
@require_http_methods(["GET", "POST"])
def cohort_edit(request: UserRequest, cohort_id: int) -> HttpResponse:
    """Rename a cohort, change its enrolment limit or the last day its code works."""
    cohort = access.taught_cohort(request.user, cohort_id)
    day = None
    if cohort.join_expires_at:  # stored as the midnight after the last day
        end = timezone.localtime(cohort.join_expires_at, homework.zone(cohort.course))
        day = end.date() - timedelta(days=1)
    form = CohortForm(request.POST or None, instance=cohort, initial={"join_expires_on": day})
    if request.method == "POST" and form.is_valid():
        cohort = form.save(commit=False)
        cohort.join_expires_at = _code_end(form, cohort.course)
        cohort.save(update_fields=["name", "max_trainees", "join_expires_at"])
        messages.success(request, _("Cohort saved."))
        return redirect("courses:cohort", cohort.pk)
    context = {"form": form, "course": cohort.course, "cohort": cohort}
    return render(request, "courses/cohort_form.html", context, status=_status(request, form))


def _cohort_context(request: Request, cohort: Cohort) -> dict[str, Any]:
    address = request.build_absolute_uri(join_path(cohort.join_code))
    # The link to share, and its QR code, carry the pass: it joins even from an address paused
    # for wrong codes. The projector shows the short address, to type.
    link = _with_pass(address, cohort)
    expired = cohort.join_expires_at is not None and cohort.join_expires_at <= timezone.now()
    return {
        "cohort": cohort,
        "course": cohort.course,
        "join_link": link,
        "join_address": address,
        "qr": qr.link(link, _("QR code of the join link")),
        "code_expired": expired,
        "code_end": cohort.join_expires_at
        and timezone.localtime(cohort.join_expires_at, homework.zone(cohort.course)),
    }


@instructor_required
@require_GET
def cohort(request: UserRequest, cohort_id: int) -> HttpResponse:
    """A cohort: how to join it, its trainees and its assignments."""
    item = access.taught_cohort(request.user, cohort_id)
    people = gradebook.members(item)
    work = list(item.assignments.order_by("due_at", "pk"))
    done = homework.progress(work, [m.user_id for m in people])
    context = _cohort_context(request, item) | {
        "trainees": people,
        "assignments": [(a, sum(done[(a.pk, m.user_id)].done for m in people)) for a in work],
        "trainee_count": len(people),
        "exams": list(item.exams.order_by("opens_at", "pk")),
    }
    return render(request, "courses/cohort.html", context)


@instructor_required
@require_POST
def cohort_code(request: UserRequest, cohort_id: int) -> HttpResponse:
    """Reset the join code (the old one stops working), turn it off, or on again."""
    item = access.taught_cohort(request.user, cohort_id)
    action = request.POST.get("action")
    if action == "reset":
        codes.give_new_code(item)
        note = _("New join code: %(code)s. The old code and link no longer work.") % {
            "code": item.join_code
        }
    elif action in {"disable", "enable"}:
        item.join_enabled = action == "enable"
        item.save(update_fields=["join_enabled"])
        note = (
            _("The join code works again.")
            if item.join_enabled
            else _("The join code is turned off: nobody can join until you turn it on.")
        )
    else:
        return HttpResponse(_("Unknown action."), status=400, content_type="text/plain")
    if request.htmx:
        context = _cohort_context(request, item) | {"note": note}
        return render_fragment(request, "courses/cohort.html", context, fragments=("join-panel",))
    messages.success(request, note)
    return redirect(f"{reverse('courses:cohort', args=[item.pk])}#join-panel")


@instructor_required
@require_GET
def cohort_code_show(request: UserRequest, cohort_id: int) -> HttpResponse:
    """The code, the link and the QR code, large, for a projector or a printout."""
    item = access.taught_cohort(request.user, cohort_id)
    return render(request, "courses/code.html", _cohort_context(request, item))


@instructor_required
@require_GET
def cohort_gradebook(request: UserRequest, cohort_id: int) -> HttpResponse:
    """Trainees x sections mastery, assignments and last activity; sortable, weakest first."""
    item = access.taught_cohort(request.user, cohort_id)
    book = gradebook.build(item, request.GET.get("sort", gradebook.DEFAULT_SORT))
    context = {"book": book, "cohort": item, "course": item.course, "status": STATUS_WORDS}
    return render_fragment(request, "courses/gradebook.html", context, fragments=("gradebook",))


@instructor_required
@require_GET
def cohort_gradebook_csv(request: UserRequest, cohort_id: int) -> StreamingHttpResponse:
    """The gradebook as CSV, in the instructor's language, streamed row by row."""
    item = access.taught_cohort(request.user, cohort_id)
    book = gradebook.build(item, request.GET.get("sort", gradebook.DEFAULT_SORT))
    words = {
        "trainee": _("Trainee"),
        "username": _("Username"),
        "joined": _("Joined"),
        "last": _("Last activity"),
        "overall": _("Overall mastery (%)"),
        "rule": _("Rule"),
        "answered": _("answered"),
        "right": _("right"),
        "status": _("status"),
        "observations": _("Observations"),
        "latest_observation": _("Latest observation"),
    } | {k: str(v) for k, v in STATUS_WORDS.items()}
    words |= {f"assignment-{a.pk}": _assignment_label(a) for a in book.assignments}
    words |= {f"exam-{e.pk}": e.title for e in book.exams}
    words |= {"best": _("best"), "passed": _("passed"), "yes": _("yes"), "no": _("no")}
    words |= {
        "calls": _("plays called"),
        "accuracy": _("accuracy"),
        "median_time": _("median decision time"),
    }
    name = slugify(f"{item.course.title}-{item.name}") or "cohort"
    return csv_response(csv_lines(gradebook.csv_rows(book, words)), f"gradebook-{name}.csv")


def _assignment_label(a: Assignment) -> str:
    return _("%(title)s, due %(day)s") % {"title": a.title, "day": a.due_on.isoformat()}


@instructor_required
@require_GET
def trainee(request: UserRequest, cohort_id: int, user_id: int) -> HttpResponse:
    """One trainee as their instructors see them: since joining, nothing before."""
    item = access.taught_cohort(request.user, cohort_id)
    membership = _trainee_of(item, user_id)
    context = {"report": gradebook.report(membership), "cohort": item, "own": False}
    return render(request, "courses/trainee.html", context)


@instructor_required
@require_http_methods(["GET", "POST"])
def trainee_remove(request: UserRequest, cohort_id: int, user_id: int) -> HttpResponse:
    """Remove a trainee from the cohort (asked once more first)."""
    item = access.taught_cohort(request.user, cohort_id)
    membership = _trainee_of(item, user_id)
    name = gradebook.display_name(membership)
    back = reverse("courses:cohort", args=[item.pk])
    if request.method == "POST":
        enrolment.leave(membership)
        messages.success(request, _("%(name)s is no longer in this cohort.") % {"name": name})
        return redirect(back)
    return _confirm(
        request,
        title=_("Remove this trainee from the cohort?"),
        text=_(
            "They lose the cohort at once: its assignments and your observations leave their "
            "list, and you stop seeing their progress. They can join again only with the join "
            "code: reset it if they should not."
        ),
        subject=name,
        button=_("Remove the trainee"),
        back=back,
    )


@instructor_required
@require_http_methods(["GET", "POST"])
def observation_new(request: UserRequest, cohort_id: int, user_id: int) -> HttpResponse:
    """Record having watched the trainee umpire a real game."""
    item = access.taught_cohort(request.user, cohort_id)
    membership = _trainee_of(item, user_id)
    form = ObservationForm(request.POST or None, initial={"observed_on": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        observation = form.save(commit=False)
        observation.cohort = item
        observation.trainee = membership.user
        observation.observer = request.user
        observation.save()
        messages.success(request, _("Observation recorded. The trainee can read it."))
        return redirect("courses:trainee", item.pk, user_id)
    context = {"form": form, "membership": membership, "cohort": item}
    return render(request, "courses/observation_form.html", context, status=_status(request, form))


@instructor_required
@require_http_methods(["GET", "POST"])
def observation_edit(request: UserRequest, observation_id: int) -> HttpResponse:
    """Correct an observation."""
    observation, membership = _observation_for(request, observation_id)
    form = ObservationForm(request.POST or None, instance=observation)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Observation saved."))
        return redirect("courses:trainee", observation.cohort_id, observation.trainee_id)
    context = {
        "form": form,
        "membership": membership,
        "cohort": observation.cohort,
        "observation": observation,
    }
    return render(request, "courses/observation_form.html", context, status=_status(request, form))


@instructor_required
@require_http_methods(["GET", "POST"])
def observation_delete(request: UserRequest, observation_id: int) -> HttpResponse:
    """Delete an observation recorded by mistake (asked once more first)."""
    observation, _membership = _observation_for(request, observation_id)
    back = reverse("courses:trainee", args=[observation.cohort_id, observation.trainee_id])
    if request.method == "POST":
        observation.delete()
        messages.success(request, _("Observation deleted."))
        return redirect(back)
    return _confirm(
        request,
        title=_("Delete this observation?"),
        text=_("The trainee will no longer see it. This cannot be undone."),
        subject=f"{observation.observed_on.isoformat()} · {observation.game}",
        button=_("Delete the observation"),
        back=back,
    )


@instructor_required
@require_http_methods(["GET", "POST"])
def assignment_new(request: UserRequest, cohort_id: int) -> HttpResponse:
    """Set practice for the cohort: a rule, sections or chosen situations, a number, a date."""
    item = access.taught_cohort(request.user, cohort_id)
    today = homework.today_in(item.course)
    form = AssignmentForm(request.POST or None, initial={"due_on": today}, audience=request.user.pk)
    error_code = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            created = homework.create(
                item,
                scope=data["scope"],
                questions=data["questions"],
                due_on=data["due_on"],
                note=data["note"],
                rule=data["rule"],
                sections=list(data["sections"] or ()),
                scenarios=list(data["scenarios"] or ()),
                kind=data["kind"],
                families=list(data["families"] or ()),
                by=request.user,
            )
        except homework.AssignmentError as exc:
            error_code = exc.code
            field = "due_on" if exc.code == "past_due" else None
            form.add_error(field, str(ASSIGNMENT_ERRORS[exc.code]))
        else:
            messages.success(
                request,
                _("Assignment set: %(title)s, due %(day)s.")
                % {"title": created.title, "day": moment(created.due_on, "date")},
            )
            return redirect("courses:cohort", item.pk)
    context = {
        "form": form,
        "cohort": item,
        "course": item.course,
        "rules": Rule.objects.all(),
        "sections": Section.objects.offered(),
        "today": today,
        "error_code": error_code,
    }
    return render(request, "courses/assignment_form.html", context, status=_status(request, form))


@instructor_required
@require_http_methods(["GET", "POST"])
def assignment_edit(request: UserRequest, assignment_id: int) -> HttpResponse:
    """Move the due date, change the number of questions or the note."""
    item = access.taught(request.user, Assignment.objects.all(), assignment_id)
    form = AssignmentChangeForm(
        request.POST or None,
        initial={"questions": item.questions, "due_on": item.due_on, "note": item.note},
    )
    posted = request.method == "POST" and form.is_valid()
    if posted and item.is_drill and form.cleaned_data["questions"] > DRILL_MAX:
        form.add_error("questions", too_many_plays())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            homework.change(
                item, questions=data["questions"], due_on=data["due_on"], note=data["note"]
            )
        except homework.AssignmentError as exc:
            form.add_error("due_on", str(ASSIGNMENT_ERRORS[exc.code]))
        else:
            messages.success(request, _("Assignment saved."))
            return redirect("courses:cohort", item.cohort_id)
    context = {
        "form": form,
        "assignment": item,
        "cohort": item.cohort,
        "course": item.cohort.course,
    }
    return render(request, "courses/assignment_form.html", context, status=_status(request, form))


@instructor_required
@require_http_methods(["GET", "POST"])
def assignment_delete(request: UserRequest, assignment_id: int) -> HttpResponse:
    """Withdraw an assignment (the answers given to it stay in each trainee's history)."""
    item = access.taught(request.user, Assignment.objects.all(), assignment_id)
    back = reverse("courses:cohort", args=[item.cohort_id])
    if request.method == "POST":
        item.delete()
        messages.success(request, _("Assignment withdrawn."))
        return redirect(back)
    return _confirm(
        request,
        title=_("Withdraw this assignment?"),
        text=_(
            "It leaves the trainees' lists and the gradebook. The answers they gave stay in "
            "their own history."
        ),
        subject=item.title,
        button=_("Withdraw the assignment"),
        back=back,
    )


# --- staff: the instructor role ----------------------------------------------------------------


@staff_required
@require_http_methods(["GET", "POST"])
def instructors(request: UserRequest) -> HttpResponse:
    """Who holds the instructor role; grant it to someone by username or e-mail."""
    form = PersonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        person: User = form.cleaned_data["person"]
        if roles.grant(person, by=request.user):
            messages.success(
                request,
                _("%(name)s is now an instructor.") % {"name": person.get_username()},
            )
        else:
            messages.info(
                request,
                _("%(name)s is already an instructor.") % {"name": person.get_username()},
            )
        return redirect("courses:instructors")
    holders = (
        InstructorRole.objects.select_related("user__profile", "granted_by")
        .annotate(courses=Count("user__courses_taught"))
        .order_by("user__username")
    )
    context = {"holders": holders, "form": form}
    return render(request, "courses/instructors.html", context, status=_status(request, form))


@staff_required
@require_http_methods(["GET", "POST"])
def instructor_revoke(request: UserRequest, user_id: int) -> HttpResponse:
    """Take the instructor role away (asked once more first)."""
    holder = get_object_or_404(InstructorRole.objects.select_related("user__profile"), pk=user_id)
    back = reverse("courses:instructors")
    if request.method == "POST":
        roles.revoke(holder.user)
        messages.success(
            request,
            _("%(name)s is no longer an instructor.") % {"name": holder.user.get_username()},
        )
        return redirect(back)
    return _confirm(
        request,
        title=_("Take the instructor role away?"),
        text=_(
            "They can no longer create courses or open the ones they teach. Their courses stay "
            "as they are, and come back to them if the role is granted again."
        ),
        subject=_people([holder.user]),
        button=_("Take the role away"),
        back=back,
    )


def _confirm(
    request: Request, *, title: str, text: str, subject: str, button: str, back: str
) -> HttpResponse:
    """The page that asks once more before something is removed; it posts to the same URL."""
    context = {"title": title, "text": text, "subject": subject, "button": button, "back": back}
    return render(request, "courses/confirm.html", context)
