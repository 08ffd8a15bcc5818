"""The instructor's own situations: list, new (or a copy), write, check, preview, publish;
and shared upward: export as a content-file entry, promote to the whole site.

Every URL answers 404 to anyone who is not an instructor of the situation's course (a trainee,
another course's instructor), as if it did not exist; a visitor is sent to log in. Staff may
also export any course's situation, and only staff list every course's and promote one.
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q, QuerySet
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from polotrainer.authoring import checking, editor, kinds, photos, publishing
from polotrainer.authoring.audience import authored_for
from polotrainer.authoring.models import Situation
from polotrainer.courses.models import Course
from polotrainer.rules import KINDS
from polotrainer.umpires.roles import is_instructor
from polotrainer.web.requests import UserRequest
from scenarios import diagram, quiz
from scenarios.localize import current_language
from scenarios.models import Scenario, Section
from scenarios.variants import VariantError

PREVIEW_SEEDS = (0, 1, 2)

SHARE_ERRORS = {
    publishing.ShareCode.UNPUBLISHED: gettext_lazy(
        "Publish it to the course first: only a published version can be promoted."
    ),
    publishing.ShareCode.PROMOTED: gettext_lazy(
        "It was promoted to the whole site: it is site content now, and is no longer "
        "published from here."
    ),
}


def _courses(request: UserRequest) -> QuerySet[Course]:
    if not is_instructor(request.user):
        return Course.objects.none()
    return Course.objects.filter(instructors=request.user)


def _course(request: UserRequest, course_id: int) -> Course:
    return get_object_or_404(_courses(request), pk=course_id)


def _situation(request: UserRequest, situation_id: int) -> Situation:
    return get_object_or_404(
        Situation.objects.select_related("course").filter(course__in=_courses(request)),
        pk=situation_id,
    )


def _staff(request: UserRequest) -> None:
    if not (request.user.is_active and request.user.is_staff):
        raise Http404


def _shared(request: UserRequest, situation_id: int) -> Situation:
    """The situation for its course's instructors, and for staff."""
    if request.user.is_active and request.user.is_staff:
        return get_object_or_404(Situation.objects.select_related("course"), pk=situation_id)
    return _situation(request, situation_id)


def _sections() -> list[tuple[str, str]]:
    return [(s.ref, s.label) for s in Section.objects.select_related("rule")]


@login_required
@require_safe
def situations(request: UserRequest, course_id: int) -> HttpResponse:
    course = _course(request, course_id)
    rows = [
        {
            "situation": s,
            "current": s.current,
            "published": publishing.is_published(s),
            "promoted": publishing.is_promoted(s),
        }
        for s in course.situations.prefetch_related("versions__scenario")
    ]
    return render(
        request,
        "authoring/situations.html",
        {
            "course": course,
            "rows": rows,
            "sections": _sections(),
            "kinds": kinds.kinds(),
            "bundled": Scenario.objects.live().select_related("section"),
        },
    )


@login_required
@require_http_methods(["POST"])
def new(request: UserRequest, course_id: int) -> HttpResponse:
    """A new draft: of a section and a kind, or a copy of a bundled scenario."""
    course = _course(request, course_id)
    copy = request.POST.get("copy", "")
    if copy:
        source = Scenario.objects.live().filter(slug=copy).first()
        if source is None:
            messages.error(request, _("Choose a situation to copy."))
            return redirect("authoring:situations", course.pk)
        entry = publishing.copy_of(source)
    else:
        ref, kind = request.POST.get("section", ""), request.POST.get("kind", "")
        if not Section.objects.filter(ref=ref).exists() or kind not in KINDS:
            messages.error(request, _("Choose the rule section and the kind of ruling."))
            return redirect("authoring:situations", course.pk)
        entry = {"section": ref, "kind": kind, "cites": [ref], "facts": {}, "question": []}
    situation = Situation.objects.create(course=course, entry=entry, created_by=request.user)
    return redirect("authoring:edit", situation.pk)


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: UserRequest, situation_id: int) -> HttpResponse:
    """The editor. Every POST saves what was typed (when it can be read), then Check, Preview
    or Publish; what cannot be read is shown beside its field and nothing is saved over it."""
    situation = _situation(request, situation_id)
    kind = situation.entry["kind"]
    report: checking.Report | None = None
    photo_change: photos.Change | None = None
    if request.method == "POST":
        data: Any = {key: request.POST.getlist(key) for key in request.POST}
        entry, errors = editor.from_data(kind, data)
        photo_change = photos.read(situation, data, request.FILES.get("photo"))
        action = request.POST.get("action", "save")
        if not errors and not photo_change.errors:
            situation.entry = entry
            fields = photos.apply(situation, photo_change)
            situation.save(update_fields=["entry", "updated_at", *fields])
            if action == "preview":
                return redirect("authoring:preview", situation.pk)
            if action == "check":
                report = checking.check(entry, publishing.draft_slug(situation))
                errors = report.errors
            elif action == "publish":
                try:
                    version = publishing.publish(situation, request.user)
                except publishing.NotPublished as refused:
                    report = refused.report
                    errors = report.errors
                except publishing.ShareError as refused:
                    messages.error(request, SHARE_ERRORS[refused.code])
                    return redirect("authoring:edit", situation.pk)
                else:
                    messages.success(
                        request,
                        _("Published (version %(number)s): the course's trainees practise it now.")
                        % {"number": version.number},
                    )
                    return redirect("authoring:edit", situation.pk)
            else:
                messages.success(request, _("Saved."))
                return redirect("authoring:edit", situation.pk)
    else:
        data, errors = editor.to_data(situation.entry), editor.Errors()
    form = editor.build(kind, data, errors, _sections())
    photo_errors = photo_change.errors if photo_change else {}
    return render(
        request,
        "authoring/edit.html",
        {
            "situation": situation,
            "course": situation.course,
            "kind": kind,
            "summary": kinds.kind_name(kind),
            "form": form,
            "photo_controls": _photo_controls(
                situation, data if photo_change else None, photo_errors
            ),
            "photo_url": photos.url(situation) if situation.photo else "",
            "photo_alt": situation.photo_alt.get(current_language(), ""),
            "report": report,
            "failed": bool(errors or photo_errors),
            "current": situation.current,
            "published": publishing.is_published(situation),
            "promoted": publishing.is_promoted(situation),
        },
        status=200 if not (errors or photo_errors) or report is not None else 400,
    )


def _photo_controls(
    situation: Situation, data: Any, errors: dict[str, list[str]]
) -> list[editor.Input]:
    """The photo part of the editor: what was typed is shown again; a file never is."""
    if not data:
        data = {
            "photo_alt_it": [situation.photo_alt.get("it", "")],
            "photo_alt_en": [situation.photo_alt.get("en", "")],
            "photo_gives_away": ["on"] if situation.photo_gives_away else [],
        }

    def control(name: str, label: str, kind: str, **extra: Any) -> editor.Input:
        value = extra.pop("value", (data.get(name) or [""])[0])
        return editor.Input(name, label, kind, value=value, errors=errors.get(name, []), **extra)

    controls = [
        control(
            "photo",
            _("A photo or drawing of the real incident (optional)"),
            "file",
            value="",
            help=_("JPEG, PNG or WebP, at most 5 MB. Its location and camera data are removed."),
        ),
        control("photo_alt_it", _("What the picture shows, in Italian"), "text", lang="it"),
        control("photo_alt_en", _("What the picture shows, in English"), "text", lang="en"),
        control(
            "photo_gives_away",
            _("This picture gives the answer away: never show it on an exam page"),
            "checkbox",
        ),
    ]
    if situation.photo:
        controls.append(control("photo_remove", _("Remove the picture"), "checkbox"))
    return controls


@login_required
@require_safe
def preview(request: UserRequest, situation_id: int) -> HttpResponse:
    """The draft as a trainee sees it: a few seeds, in both languages, with the diagram and
    the feedback (the right answers and the engine's reasons)."""
    situation = _situation(request, situation_id)
    problem = ""
    variants = []
    try:
        scenario = publishing.unsaved(situation, situation.entry, publishing.draft_slug(situation))
        for seed in PREVIEW_SEEDS:
            for lang in ("it", "en") if current_language() == "it" else ("en", "it"):
                posed = quiz.pose(scenario, seed, lang)
                variants.append(_shown(posed) | {"photo_alt": situation.photo_alt.get(lang, "")})
    except (KeyError, TypeError, ValueError, VariantError, Section.DoesNotExist):
        problem = _("This draft cannot be shown yet: Check it and fix what it names.")
    return render(
        request,
        "authoring/preview.html",
        {
            "situation": situation,
            "course": situation.course,
            "variants": variants,
            "problem": problem,
            "photo_url": photos.url(situation) if situation.photo else "",
        },
    )


@login_required
@require_safe
def export(request: UserRequest, situation_id: int) -> HttpResponse:
    """The situation as an entry of the content files, to download: `content load` takes it."""
    situation = _shared(request, situation_id)
    text, slug = publishing.exported(situation)
    response = HttpResponse(text, content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}.toml"'
    return response


@login_required
@require_safe
def every(request: UserRequest) -> HttpResponse:
    """Staff: every course's situations, to export or promote to the whole site."""
    _staff(request)
    situations = Situation.objects.select_related("course").prefetch_related("versions__scenario")
    rows = [
        {
            "situation": s,
            "current": s.current,
            "published": publishing.is_published(s),
            "promoted": publishing.is_promoted(s),
        }
        for s in situations.order_by("course__title_en", "course_id", "-updated_at", "pk")
    ]
    return render(request, "authoring/every.html", {"rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
def promote(request: UserRequest, situation_id: int) -> HttpResponse:
    """Staff: make the current version site content, for everyone (asked once more first)."""
    _staff(request)
    situation = get_object_or_404(Situation.objects.select_related("course"), pk=situation_id)
    if request.method == "POST":
        try:
            publishing.promote(situation)
        except publishing.ShareError as refused:
            messages.error(request, SHARE_ERRORS[refused.code])
        else:
            messages.success(
                request,
                _(
                    "Promoted: “%(title)s” is site content now. Everyone may practise it, and "
                    "the answers already given to it stay with it."
                )
                % {"title": situation.title},
            )
        return redirect("authoring:every")
    current = situation.current
    refusal = (
        publishing.ShareCode.UNPUBLISHED
        if current is None
        else publishing.ShareCode.PROMOTED
        if not current.scenario.authored
        else None
    )
    return render(
        request,
        "authoring/promote.html",
        {
            "situation": situation,
            "course": situation.course,
            "current": current,
            "refusal": SHARE_ERRORS[refusal] if refusal else "",
        },
    )


def _shown(posed: quiz.Posed) -> dict[str, Any]:
    ruling = posed.variant.ruling
    uid = f"field-{posed.seed}-{posed.lang}"
    field = diagram.render(posed.diagram, posed.lang, uid=uid) if posed.diagram else ""
    return {
        "posed": posed,
        "language": {"it": _("Italian"), "en": _("English")}[posed.lang],
        "field": field,
        "answers": [
            (q, quiz.answer_text(posed, q, q.source.right_answer(ruling))) for q in posed.questions
        ],
        "reasons": quiz.reasons(ruling, posed.lang),
        "explanation": posed.spec.explanation.pick(posed.lang) if posed.spec.explanation else "",
    }


@require_safe
def photo(request: UserRequest, situation_id: int, name: str) -> FileResponse:
    """The picture beside a situation, for its audience: the course's instructors, and once it
    is published the trainees of its cohorts. Anyone else, a visitor too, gets 404."""
    if not request.user.is_authenticated:
        raise Http404
    mine = Q(course__in=_courses(request))
    audience = Q(versions__scenario_id__in=authored_for(request.user.pk))
    situation = Situation.objects.filter(mine | audience, pk=situation_id).exclude(photo="").first()
    if situation is None or photos.file_name(situation) != name:
        raise Http404
    ending = name.rsplit(".", 1)[-1]
    response = FileResponse(
        situation.photo.open("rb"), content_type=photos.CONTENT_TYPES.get(ending, "image/jpeg")
    )
    # The name changes with the picture, so a browser may keep it; no shared cache may.
    response["Cache-Control"] = "private, max-age=86400"
    response["X-Content-Type-Options"] = "nosniff"
    return response
