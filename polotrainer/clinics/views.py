"""The clinic's screens: the instructor's list, new session and projector with its controls;
the phone's PIN, nickname and round; the results. The live streams are in clinics.stream.

The projector and its controls are the session's instructor's alone (another instructor gets a
404). A phone is whoever holds the session's signed participant cookie (clinics.room).
"""

import json
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any, Literal

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from polotrainer.clinics import answering, control, room, sessions, state, transfer
from polotrainer.clinics.forms import (
    ASSIGNMENT,
    NAMED,
    ImportForm,
    JoinForm,
    PinForm,
    SessionForm,
    SetForm,
    WifiForm,
)
from polotrainer.clinics.models import ClinicSession, ClinicSet, Participant, Round
from polotrainer.throttle import passes
from polotrainer.throttle.addresses import client_ip
from polotrainer.umpires import closedbook
from polotrainer.umpires.models import ClosedBook
from polotrainer.umpires.progress import Person
from polotrainer.umpires.roles import instructor_required
from polotrainer.web import qr
from polotrainer.web.downloads import csv_response
from polotrainer.web.messages import Message
from polotrainer.web.requests import Request, UserRequest
from scenarios import quiz
from scenarios.localize import current_language
from scenarios.models import Rule

PROJECTOR = state.PROJECTOR
PHONE = state.PHONE

PIN_ERRORS: dict[sessions.PinCode, Message] = {
    sessions.PinCode.MALFORMED: gettext_lazy(
        "A game PIN is six digits, as shown on the projector."
    ),
    sessions.PinCode.UNKNOWN: gettext_lazy(
        "No clinic is running with that PIN. Check the digits on the projector."
    ),
    sessions.PinCode.ENDED: gettext_lazy("That clinic has ended."),
    sessions.PinCode.PAUSED: gettext_lazy(
        "Too many wrong PINs from this network. Wait ten minutes, "
        "or scan the QR code on the projector."
    ),
}
JOIN_ERRORS: dict[room.JoinCode, Message] = {
    room.JoinCode.EMPTY: gettext_lazy("Please choose a nickname."),
    room.JoinCode.TOO_LONG: gettext_lazy("That nickname is too long: at most 24 characters."),
    room.JoinCode.TAKEN: gettext_lazy(
        "Someone in this clinic already has that nickname, or one that looks the same: "
        "choose another."
    ),
    room.JoinCode.BAD_TEAM: gettext_lazy("Please choose one of the teams."),
    room.JoinCode.ENDED: gettext_lazy("That clinic has ended."),
}
REFUSALS: dict[answering.Refusal, Message] = {
    answering.Refusal.ENDED: gettext_lazy("The clinic has ended: this answer was not recorded."),
    answering.Refusal.CLOSED: gettext_lazy(
        "Answers for this round are closed: this answer was not recorded."
    ),
    answering.Refusal.EARLY: gettext_lazy(
        "The play has not stopped yet: watch the projector, then send your call. "
        "Nothing was recorded."
    ),
    answering.Refusal.WRONG_ROUND: gettext_lazy(
        "This answer is not for the round on the projector now, so it was not recorded."
    ),
    answering.Refusal.TWICE: gettext_lazy(
        "You have already answered this round: your first answer counts."
    ),
    answering.Refusal.CLOSED_BOOK: gettext_lazy(
        "You are sitting a closed-book exam on this account: this answer was not recorded."
    ),
    # Shown above the questions themselves, each with its own message (quiz.ANSWER_MESSAGES).
    answering.Refusal.INVALID: gettext_lazy("Some answers need a change: nothing was recorded."),
}
#: A phone without this clinic's pass (its cookie): never joined here, or a pass not this one's.
PASS_ERRORS: dict[room.PassCode, Message] = {
    room.PassCode.NO_PASS: gettext_lazy(
        "You are not in this clinic on this phone: join it with a nickname."
    ),
    room.PassCode.TAMPERED: gettext_lazy(
        "This phone's clinic pass is not valid for this clinic, so nothing was recorded. "
        "Join again."
    ),
}
SESSION_ERRORS: dict[sessions.SessionCode, Message] = {
    sessions.SessionCode.NO_SCENARIOS: gettext_lazy("No situation to ask there: choose others."),
    sessions.SessionCode.TOO_MANY_TEAMS: gettext_lazy("At most 12 teams."),
    sessions.SessionCode.NO_PIN: gettext_lazy("The clinic could not be created: try again."),
}
SET_ERRORS: dict[sessions.SetCode, Message] = {
    sessions.SetCode.NOT_ENDED: gettext_lazy(
        "A clinic's situations can be saved as a set once it has ended."
    ),
    sessions.SetCode.NO_NAME: gettext_lazy("Give the set a name."),
    sessions.SetCode.DUPLICATE: gettext_lazy(
        "You already have a set with this name: choose another."
    ),
}
CONTROL_ERRORS: dict[control.ControlCode, Message] = {
    control.ControlCode.UNKNOWN: gettext_lazy("That is not one of the controls."),
    control.ControlCode.ENDED: gettext_lazy("The clinic has ended."),
    control.ControlCode.NOT_NOW: gettext_lazy(
        "That control does not apply at this moment: the screen shows what does."
    ),
}
IMPORT_ERRORS: dict[transfer.TransferCode, Message] = {
    transfer.TransferCode.NOT_JSON: gettext_lazy(
        "That file is not a clinic results file (it is not JSON)."
    ),
    transfer.TransferCode.NOT_CLINIC: gettext_lazy(
        "That file is not a clinic results file from polotrainer."
    ),
    transfer.TransferCode.UNKNOWN_SCENARIOS: gettext_lazy(
        "These situations of the file are not on this site: %(detail)s. Nothing was imported."
    ),
    transfer.TransferCode.ALREADY: gettext_lazy("This clinic has already been imported."),
    transfer.TransferCode.BAD_DATA: gettext_lazy(
        "The file is damaged or incomplete. Nothing was imported."
    ),
}


# --- the instructor's side --------------------------------------------------------------------


def _own(request: UserRequest, session_id: int) -> ClinicSession:
    """The instructor's own session, else 404 (someone else's session does not exist for them)."""
    return get_object_or_404(ClinicSession, pk=session_id, instructor=request.user)


@instructor_required
@require_safe
def index(request: UserRequest) -> HttpResponse:
    """The instructor's clinics, running and past, each with its rounds and their rules."""
    mine = list(ClinicSession.objects.filter(instructor=request.user)[:100])
    per_rule: dict[int, Counter[int]] = defaultdict(Counter)
    for session_id, rule in Round.objects.filter(session__in=mine).values_list(
        "session_id", "scenario__rule"
    ):
        per_rule[session_id][rule] += 1
    rules = Rule.objects.in_bulk({n for c in per_rule.values() for n in c})
    clinics = [
        (c, sum(per_rule[c.pk].values()), [rules[n] for n in sorted(per_rule[c.pk])]) for c in mine
    ]
    return render(request, "clinics/index.html", {"clinics": clinics})


@instructor_required
@require_http_methods(["GET", "HEAD", "POST"])
def new(request: UserRequest) -> HttpResponse:
    """A new session: where its rounds come from, how many, the scoring options, the teams."""
    initial: dict[str, Any] = {}
    chosen_set = request.GET.get("set", "")
    if request.method != "POST" and chosen_set.isascii() and chosen_set.isdigit():
        named = ClinicSet.objects.filter(pk=int(chosen_set[:12]), instructor=request.user).first()
        if named is not None:
            initial = {"source": NAMED, "named_set": named.pk, "title": named.name}
    form = SessionForm(request.POST or None, instructor=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        source = sessions.Source(
            scope=data["source"],
            scenarios=list(data["scenarios"] or ()),
            rule=data["rule"],
            sections=list(data["sections"] or ()),
            assignment=data["assignment"] if data["source"] == ASSIGNMENT else None,
            named=data["named_set"] if data["source"] == NAMED else None,
            audience=request.user.pk,
        )
        try:
            created = sessions.create(
                request.user,
                data["title"],
                source,
                rounds=data["rounds"],
                time_limit=data["time_limit"],
                speed_bonus=data["speed_bonus"],
                streaks=data["streaks"],
                teams=data["teams"],
                drills=data["drills"],
            )
        except sessions.SessionError as exc:
            form.add_error(None, str(SESSION_ERRORS[exc.code]))
        else:
            return redirect("clinics:projector", created.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "clinics/new.html", {"form": form}, status=status)


def _projector_context(request: Request, session: ClinicSession) -> dict[str, Any]:
    snap = state.current(session.pk)
    if snap is None:
        raise Http404
    context = state.projector_context(snap, current_language(), request)
    counts = state.pulse(session.pk)
    if counts is not None:
        context.update(participant_count=counts.participants, answered_count=counts.answered)
    context.update(wifi_form=WifiForm(), poll=request.GET.get("poll") == "1")
    return context


@instructor_required
@never_cache
@require_safe
def projector(request: UserRequest, session_id: int) -> HttpResponse:
    """The projector: PIN, join QR, live count, the round, the reveal, the leaderboard."""
    session = _own(request, session_id)
    return render(request, PROJECTOR, _projector_context(request, session))


@instructor_required
@never_cache
@require_safe
def projector_state(request: UserRequest, session_id: int) -> HttpResponse:
    """The projector's stage now (the fallback when the stream is not there, and resync)."""
    session = _own(request, session_id)
    return render(request, f"{PROJECTOR}#stage", _projector_context(request, session))


@instructor_required
@require_POST
def act(request: UserRequest, session_id: int) -> HttpResponse:
    """One control: show, close, reveal, leaderboard, next, back, skip, end."""
    session = _own(request, session_id)
    action = request.POST.get("action", "")
    try:
        session = control.act(session.pk, action)
    except control.ControlError as exc:
        if not request.htmx:
            messages.error(request, str(CONTROL_ERRORS[exc.code]))
            return redirect("clinics:projector", session.pk)
        context = _projector_context(request, session)
        context["control_error"] = CONTROL_ERRORS[exc.code]
        return render(request, f"{PROJECTOR}#stage", context, status=409)
    if not request.htmx:
        return redirect("clinics:projector", session.pk)
    return render(request, f"{PROJECTOR}#stage", _projector_context(request, session))


@instructor_required
@require_POST
def save_set(request: UserRequest, session_id: int) -> HttpResponse:
    """The ended clinic's situations, in order, as a named set of its instructor's."""
    session = _own(request, session_id)
    form = SetForm(request.POST)
    form.is_valid()  # the field takes any text: save_set says what is wrong with it
    try:
        named = sessions.save_set(session, form.cleaned_data.get("name", ""))
    except sessions.SetError as exc:
        if exc.code == sessions.SetCode.NOT_ENDED:
            messages.error(request, str(SET_ERRORS[exc.code]))
            return redirect("clinics:projector", session.pk)
        form.add_error("name", str(SET_ERRORS[exc.code]))
        context = _projector_context(request, session)
        context["set_form"] = form
        return render(request, PROJECTOR, context, status=400)
    messages.success(
        request,
        _("Saved as the set “%(name)s”: choose it when you create a new clinic.")
        % {"name": named.name},
    )
    return redirect("clinics:projector", session.pk)


@instructor_required
@require_POST
def wifi(request: UserRequest, session_id: int) -> HttpResponse:
    """The Wi-Fi QR code for the projector: made from what was typed and stored nowhere."""
    session = _own(request, session_id)
    form = WifiForm(request.POST)
    context: dict[str, Any] = {"clinic": session, "wifi_form": form}
    if form.is_valid():
        context["wifi_qr"] = qr.wifi(
            form.cleaned_data["ssid"],
            form.cleaned_data["password"],
            _("QR code to join the Wi-Fi network"),
        )
        context["wifi_ssid"] = form.cleaned_data["ssid"]
        context["wifi_form"] = WifiForm()  # the password is not written back into the page
    status = 200 if form.is_valid() else 400
    if request.htmx:
        response = render(request, f"{PROJECTOR}#wifi", context, status=status)
    else:
        full = _projector_context(request, session)
        full.update(context)
        response = render(request, PROJECTOR, full, status=status)
    response["Cache-Control"] = "no-store"
    return response


@instructor_required
@require_safe
def results_csv(request: UserRequest, session_id: int) -> StreamingHttpResponse:
    """Every answer of the session, per participant and question, in words and codes."""
    session = _own(request, session_id)
    return csv_response(
        transfer.csv_lines(session, current_language()), f"clinic-{session.pk}-results.csv"
    )


@instructor_required
@require_safe
def export(request: UserRequest, session_id: int) -> HttpResponse:
    """The results and attendance as a file another install imports."""
    session = _own(request, session_id)
    data = transfer.export(session, request.get_host())
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json"
    )
    day = timezone.localdate(session.created_at).isoformat()
    response["Content-Disposition"] = f'attachment; filename="clinic-{day}-{session.pk}.json"'
    return response


@instructor_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_file(request: UserRequest) -> HttpResponse:
    """Import a clinic run elsewhere (a laptop at a club) so that it counts here."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = transfer.load(form.cleaned_data["file"].read())
            imported = transfer.import_(data, request.user)
        except transfer.TransferError as exc:
            form.add_error("file", str(IMPORT_ERRORS[exc.code]) % {"detail": exc.detail})
        else:
            messages.success(request, _("Clinic imported: %(title)s.") % {"title": imported.title})
            return redirect("clinics:index")
    status = 400 if request.method == "POST" else 200
    return render(request, "clinics/import.html", {"form": form}, status=status)


# --- the phone's side ---------------------------------------------------------------------------


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def enter(request: Request) -> HttpResponse:
    """Type the game PIN (or scan the projector's QR code, which skips this). The form sends it
    by GET (`?pin=`), as the home page's PIN box does: a reload asks nothing and sends no form
    again. A right PIN answers with the join page at once (or the phone's page, if it has
    joined), no redirect."""
    typed = (
        request.POST if request.method == "POST" else request.GET if "pin" in request.GET else None
    )
    form = PinForm(typed)
    status = 200
    code = ""
    if typed is not None and form.is_valid():
        try:
            session = sessions.find(
                form.cleaned_data["pin"], client_ip(request) or "", _known(request)
            )
        except sessions.PinError as exc:
            form.add_error("pin", str(PIN_ERRORS[exc.code]))
            status = 429 if exc.code == "paused" else 400
            code = exc.code
        else:
            # The join form's action carries the pass: the nickname that follows is not
            # stopped should the address reach the limit meanwhile (this phone knows the PIN).
            return _arrive(request, session)
    elif typed is not None:
        status = 400
    return render(request, "clinics/enter.html", {"form": form, "code": code}, status=status)


def _known(request: Request) -> Callable[[ClinicSession], bool]:
    """Whether this phone has shown it knows a session: it has joined it, or carries the join
    link's pass. Such a phone is never stopped by the PIN limit (clinics.sessions)."""
    given = request.GET.get(passes.PARAMETER) or request.POST.get(passes.PARAMETER)

    def known(session: ClinicSession) -> bool:
        return room.has_joined(request, session) or sessions.holds_pass(session, given)

    return known


def _session_by_pin(request: Request, pin: str) -> ClinicSession:
    """The running session of the PIN in the address, else PinRefused saying why."""
    try:
        return sessions.find(pin, client_ip(request) or "", _known(request))
    except sessions.PinError as exc:
        raise PinRefused(exc.code) from None


class PinRefused(Exception):
    def __init__(self, code: sessions.PinCode) -> None:
        super().__init__(code)
        self.code = code


def _pin_refused(request: Request, code: sessions.PinCode) -> HttpResponse:
    status = 429 if code == "paused" else 404
    context = {"form": PinForm(), "pin_error": PIN_ERRORS[code], "code": code}
    return render(request, "clinics/enter.html", context, status=status)


def _phone_context(
    request: Request,
    session: ClinicSession,
    me: Participant,
    given: dict[str, Any] | Literal[False] | None = False,
) -> dict[str, Any]:
    """The phone's page; `given`: its answers to the round on screen if the caller has them
    (False: read them now)."""
    snap = state.of(session)
    if snap is None:
        raise Http404
    lang = current_language()
    if given is False:
        given = state.given_now(snap, me)
    held = closedbook.closed_book(Person(user_id=me.user_id)) if me.user_id else None
    context = snap.context(lang)
    context.update(snap.mine(me, lang, given, held=held is not None))
    if held is not None:
        context.update(closedbook.notice(held))
    context.update(
        answered=given is not None,
        answer_url=state.answer_url(session),
        poll=request.GET.get("poll") == "1",
    )
    return context


def _arrive(request: Request, session: ClinicSession) -> HttpResponse:
    """What a phone that has found the session sees: its own page if it has joined, else the
    join form (none for an account sitting a closed-book exam)."""
    try:
        me = room.participant_of(request, session)
    except room.TokenError:
        me = None
    if me is not None:
        return render(request, PHONE, _phone_context(request, session, me))
    return _join_page(request, session, JoinForm(), held=_held(request))


def _held(request: Request) -> ClosedBook | None:
    """The closed-book exam this account sits, if any."""
    if not request.user.is_authenticated:
        return None
    return closedbook.closed_book(Person(user_id=request.user.pk))


def _join_page(
    request: Request,
    session: ClinicSession,
    form: JoinForm,
    *,
    held: ClosedBook | None,
    status: int = 200,
) -> HttpResponse:
    """The join page; `held`: the closed-book exam this account sits (`_held`), asked once."""
    if held is not None:
        # An account sitting a closed-book exam joins no clinic until it is over.
        context = {"clinic": session} | closedbook.notice(held)
        return render(request, "clinics/join.html", context, status=403)
    context = {
        "clinic": session,
        "form": form,
        "teams": list(session.teams.all()),
        "chosen_team": request.POST.get("team", ""),
        "join_action": sessions.join_path(session),
    }
    return render(request, "clinics/join.html", context, status=status)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def play(request: Request, pin: str) -> HttpResponse:
    """The phone: join with a nickname, then follow the rounds and answer."""
    try:
        session = _session_by_pin(request, pin)
    except PinRefused as exc:
        response = _pin_refused(request, exc.code)
        if request.htmx:
            # The join form's htmx swaps no 404 or 429: the page, reloaded, says why.
            response["HX-Refresh"] = "true"
        return response
    if request.method != "POST":
        return _arrive(request, session)
    form = JoinForm(request.POST)
    held = _held(request)
    if not form.is_valid() or held is not None:
        return _join_page(request, session, form, status=400, held=held)
    team_raw = request.POST.get("team", "")
    team_id = (
        int(team_raw) if team_raw.isascii() and team_raw.isdigit() and len(team_raw) < 12 else None
    )
    teams = session.teams.exists()
    try:
        me = room.join(
            session,
            form.cleaned_data["nickname"],
            request.user,
            current_language(),
            team_id if teams else None,
            has_teams=teams,
        )
    except room.JoinError as exc:
        form.add_error(None if exc.code == "bad_team" else "nickname", str(JOIN_ERRORS[exc.code]))
        return _join_page(request, session, form, held=None, status=400)
    address = reverse("clinics:play", args=[session.pin])
    if request.htmx:
        # The join form's htmx swaps the phone's page in at once (one request, not two), and
        # the address becomes the phone's page's: a reload or a return shows it, posting
        # nothing again.
        context = _phone_context(request, session, me, given=None)
        context["lang_next"] = address
        response = render(request, PHONE, context)
        response["HX-Replace-Url"] = address
    else:
        response = redirect(address)  # Post/Redirect/Get without JavaScript
    room.remember(response, me, secure=settings.SESSION_COOKIE_SECURE)
    return response


@never_cache
@require_http_methods(["GET", "HEAD"])
def join_link(request: Request, pin: str) -> HttpResponse:
    """The projector's QR code's link, whose address carries no language: the join page in the
    phone's own (LocaleMiddleware reads its cookie, else Accept-Language), without a redirect
    to /<lang>/play/... first. An address with no pass is sent on there as before (a 404
    LocaleMiddleware turns into that redirect), so a PIN typed into it is counted once."""
    if passes.PARAMETER not in request.GET:
        return HttpResponse(status=404)
    return play(request, pin)


def _participant_or_error(request: Request, session: ClinicSession) -> Participant | room.PassCode:
    try:
        return room.participant_of(request, session)
    except room.TokenError as exc:
        return exc.code


@never_cache
@require_safe
def phone_state(request: Request, pin: str) -> HttpResponse:
    """The phone's stage and own part now: the fallback when the stream is not there, and the
    resync when the phone wakes. With ?v= the version it shows, 204 when nothing changed."""
    try:
        session = _session_by_pin(request, pin)
    except PinRefused as exc:
        return _pin_refused(request, exc.code)
    me = _participant_or_error(request, session)
    if isinstance(me, str):
        return HttpResponse(status=403)
    shown = request.GET.get("v", "")
    if shown.isascii() and shown.isdigit() and len(shown) < 12 and int(shown) == session.version:
        return HttpResponse(status=204)
    return render(request, f"{PHONE}#live", _phone_context(request, session, me))


@require_POST
def answer(request: Request, pin: str) -> HttpResponse:
    """A phone's answers to the round on screen: recorded once, or a clear reason why not."""
    try:
        session = _session_by_pin(request, pin)
    except PinRefused as exc:
        return _pin_refused(request, exc.code)
    me = _participant_or_error(request, session)
    if isinstance(me, str):
        return _refused(request, session, None, me, status=403)
    snap = state.of(session)
    if snap is None:
        raise Http404
    posed = snap.pose(current_language())
    round_raw = request.POST.get("round", "")
    round_id = (
        int(round_raw)
        if round_raw.isascii() and round_raw.isdigit() and len(round_raw) < 19
        else None
    )
    if posed is None:
        return _refused(request, session, me, answering.Refusal.WRONG_ROUND)
    submitted = {key: request.POST.getlist(key) for key in request.POST}
    try:
        result = answering.submit(session, me, round_id, posed, submitted, current=snap.current)
    except answering.AnswerRefused as exc:
        if exc.code == "invalid":
            context = _phone_context(request, session, me)
            context["items"] = [
                quiz.Marked(m.question, m.values, quiz.answer_message(m.error)) if m.error else m
                for m in exc.items
            ]
            context["has_errors"] = True
            context["answered"] = False
            return render(request, f"{PHONE}#live", context, status=400)
        if exc.code == answering.Refusal.EARLY:
            # A drill round's play is not over: the choices stay in the form, to send at the stop.
            context = _phone_context(request, session, me)
            context["items"] = [
                quiz.Marked(m.question, m.values) for m in quiz.check(posed, submitted).items
            ]
            context["answered"] = False
            context["refusal"] = REFUSALS[exc.code]
            return render(request, f"{PHONE}#live", context, status=409)
        return _refused(request, session, me, exc.code)
    if not request.htmx:
        return redirect("clinics:play", session.pin)
    given = {row.question: row.answer for row in result.answers}
    return render(request, f"{PHONE}#live", _phone_context(request, session, me, given))


def _refused(
    request: Request,
    session: ClinicSession,
    me: Participant | None,
    code: answering.Refusal | room.PassCode,
    status: int = 409,
) -> HttpResponse:
    message = REFUSALS[code] if isinstance(code, answering.Refusal) else PASS_ERRORS[code]
    if me is None:
        context = {
            "clinic": session,
            "form": JoinForm(),
            "teams": list(session.teams.all()),
            "refusal": message,
            "join_action": sessions.join_path(session),
        }
        return render(request, "clinics/join.html", context, status=status)
    context = _phone_context(request, session, me)
    context["refusal"] = message
    if not request.htmx:
        return render(request, PHONE, context, status=status)
    return render(request, f"{PHONE}#live", context, status=status)
