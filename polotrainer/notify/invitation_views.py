"""Invitations: an instructor invites a list into a cohort; the invited join from the link."""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from polotrainer.courses import access
from polotrainer.notify import invitations
from polotrainer.notify.invitations import LineCode, RefusalCode
from polotrainer.notify.models import Invitation, InvitationStatus
from polotrainer.umpires.roles import instructor_required
from polotrainer.web.inputs import Textarea
from polotrainer.web.messages import Message
from polotrainer.web.requests import Request, UserRequest

PROBLEMS: dict[LineCode, Message] = {
    LineCode.MALFORMED: gettext_lazy("not an address, nor “name, address”"),
    LineCode.TOO_LONG: gettext_lazy("beyond the first 500 lines"),
    LineCode.MEMBER: gettext_lazy("already in this cohort"),
    LineCode.FULL: gettext_lazy("no place left: the cohort's enrolment limit is reached"),
}
REFUSALS: dict[RefusalCode, Message] = {
    RefusalCode.WITHDRAWN: gettext_lazy("This invitation was withdrawn by the instructor."),
    RefusalCode.USED: gettext_lazy("This invitation has already been used by another account."),
    RefusalCode.FULL: gettext_lazy("This cohort is full: ask the instructor for a place."),
    RefusalCode.TEACHER: gettext_lazy("You teach this course: instructors are not trainees of it."),
    RefusalCode.CLOSED: gettext_lazy(
        "This cohort takes no new trainees now: ask the instructor to open it again."
    ),
}


class InviteForm(forms.Form):
    addresses = forms.CharField(
        label=gettext_lazy("E-mail addresses"),
        widget=Textarea(attrs={"rows": 8}),
        max_length=100_000,
        help_text=gettext_lazy(
            "One a line: an address, or “name, address” (a CSV file's lines), optionally "
            "followed by it or en for that person's language."
        ),
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Language of the invitations"),
        choices=settings.LANGUAGES,
        help_text=gettext_lazy("For the lines that do not say one."),
    )


def _invitation_for(request: UserRequest, invitation_id: int) -> Invitation:
    return get_object_or_404(
        Invitation.objects.select_related("cohort__course").filter(
            invitations.for_instructor(request.user)
        ),
        pk=invitation_id,
    )


@instructor_required
@require_http_methods(["GET", "POST"])
def cohort_invitations(request: UserRequest, cohort_id: int) -> HttpResponse:
    """Paste addresses to invite; see who was invited, joined, or could not be reached."""
    cohort = access.taught_cohort(request.user, cohort_id)
    form = InviteForm(request.POST or None, initial={"language": get_language()})
    problems: list[tuple[invitations.Problem, str]] = []
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            lines, bad = invitations.parse(form.cleaned_data["addresses"])
            outcome = invitations.invite(
                cohort,
                lines,
                by=request.user,
                language=form.cleaned_data["language"],
                base=request.build_absolute_uri("/"),
            )
            problems = [(p, str(PROBLEMS[p.code])) for p in bad + outcome.problems]
            _report(request, outcome, len(problems))
            if not problems:
                return redirect("notify:cohort_invitations", cohort.pk)
            status = 200 if outcome.invited or outcome.again else 400
    context = {
        "cohort": cohort,
        "course": cohort.course,
        "form": form,
        "problems": sorted(problems, key=lambda item: item[0].number),
        "invitations": cohort.invitations.order_by("status", "email"),
        "mail_enabled": settings.MAIL_ENABLED,
        "places_left": invitations.places_left(cohort),
        "base": request.build_absolute_uri("/"),
    }
    return render(request, "notify/invitations.html", context, status=status)


def _report(request: HttpRequest, outcome: invitations.Outcome, problems: int) -> None:
    if outcome.invited:
        messages.success(
            request,
            ngettext(
                "%(count)s address invited.", "%(count)s addresses invited.", len(outcome.invited)
            )
            % {"count": len(outcome.invited)},
        )
    if outcome.again:
        messages.info(
            request,
            ngettext(
                "%(count)s address was invited already: its invitation was sent again.",
                "%(count)s addresses were invited already: their invitations were sent again.",
                len(outcome.again),
            )
            % {"count": len(outcome.again)},
        )
    if problems:
        messages.error(
            request,
            ngettext(
                "%(count)s line was not invited: see below.",
                "%(count)s lines were not invited: see below.",
                problems,
            )
            % {"count": problems},
        )


@instructor_required
@require_POST
def invitation_resend(request: UserRequest, invitation_id: int) -> HttpResponse:
    """Send an invitation once more (one withdrawn is invited again)."""
    invitation = _invitation_for(request, invitation_id)
    if invitation.status == InvitationStatus.JOINED:
        messages.info(request, _("%(email)s has joined already.") % {"email": invitation.email})
    elif not settings.MAIL_ENABLED:
        messages.info(request, _("This site sends no mail: share the invitation's link instead."))
    else:
        if invitation.status == InvitationStatus.WITHDRAWN:
            invitation.status = InvitationStatus.INVITED
            invitation.save(update_fields=["status"])
        if invitations.mail(invitation, request.build_absolute_uri("/")):
            messages.success(request, _("Sent again to %(email)s.") % {"email": invitation.email})
        else:
            messages.error(
                request,
                _("The mail server refused the mail to %(email)s: %(error)s")
                % {"email": invitation.email, "error": invitation.error},
            )
    return redirect("notify:cohort_invitations", invitation.cohort_id)


@instructor_required
@require_POST
def invitation_withdraw(request: UserRequest, invitation_id: int) -> HttpResponse:
    """Withdraw an invitation: its link no longer joins."""
    invitation = _invitation_for(request, invitation_id)
    if invitations.withdraw(invitation):
        messages.success(
            request, _("The invitation of %(email)s is withdrawn.") % {"email": invitation.email}
        )
    else:
        messages.info(request, _("%(email)s has joined already.") % {"email": invitation.email})
    return redirect("notify:cohort_invitations", invitation.cohort_id)


@never_cache
@require_http_methods(["GET", "POST"])
def invitation(request: Request, token: str) -> HttpResponse:
    """The invitation's link: join on one click (after logging in or signing up)."""
    found = Invitation.objects.select_related("cohort__course").filter(token=token[:64]).first()
    if found is None:
        context: dict[str, Any] = {
            "title": _("No invitation has this address"),
            "message": _("Check that the whole link was copied from the mail."),
        }
        return render(request, "error.html", context, status=404)
    context = {"invitation": found, "cohort": found.cohort, "course": found.cohort.course}
    user = request.user
    if found.status == InvitationStatus.WITHDRAWN:
        context["refusal"] = REFUSALS[RefusalCode.WITHDRAWN]
        return render(request, "notify/invitation.html", context, status=410)
    if request.method == "POST":
        if not user.is_authenticated:
            return redirect(f"{reverse('umpires:login')}?{urlencode({'next': request.path})}")
        try:
            membership = invitations.accept(found, user)
        except invitations.Refused as refused:
            context["refusal"] = REFUSALS[refused.code]
            return render(request, "notify/invitation.html", context, status=400)
        if membership is None:
            messages.info(request, _("You are in this cohort already."))
        else:
            messages.success(
                request,
                _("You joined %(course)s, %(cohort)s.")
                % {"course": found.cohort.course.title, "cohort": found.cohort.name},
            )
        return redirect("courses:mine")
    context["signin_query"] = urlencode({"next": request.path})
    return render(request, "notify/invitation.html", context)
