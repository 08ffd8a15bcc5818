"""Certificates: the holder's list and name, the printable page, the instructor's cohort list
(issue by hand, revoke, CSV, the course's validity) and the public verify page.

Access: the holder sees their own certificates; an instructor of the course sees and revokes
its certificates; anything else is a 404, like a missing id. The verify page is public and says
nothing about the holder beyond what the certificate itself says.
"""

from collections.abc import Iterator, Sequence
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.http import HttpResponse, HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.safestring import SafeString
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from polotrainer.certificates import issuing, revocations, signing, verification
from polotrainer.certificates.forms import (
    ImportForm,
    IssueForm,
    NameForm,
    RevokeForm,
    SettingForm,
    TrustForm,
)
from polotrainer.certificates.models import (
    Certificate,
    CourseSetting,
    HolderName,
    Kind,
    TrustedIssuer,
)
from polotrainer.courses import access
from polotrainer.courses.models import Cohort, Course, Membership, Track
from polotrainer.umpires.roles import instructor_required, is_instructor, staff_required
from polotrainer.web import qr
from polotrainer.web.downloads import csv_lines, csv_response
from polotrainer.web.messages import Message
from polotrainer.web.requests import Request, UserRequest

#: The NATO spelling alphabet, the same in both languages; digits are said in the language.
NATO = {
    "A": "Alfa", "B": "Bravo", "C": "Charlie", "D": "Delta", "E": "Echo", "F": "Foxtrot",
    "G": "Golf", "H": "Hotel", "J": "Juliett", "K": "Kilo", "L": "Lima", "M": "Mike",
    "N": "November", "P": "Papa", "R": "Romeo", "T": "Tango", "W": "Whiskey", "X": "X-ray",
    "Y": "Yankee",
}  # fmt: skip
DIGITS = {
    "3": gettext_lazy("three"),
    "4": gettext_lazy("four"),
    "6": gettext_lazy("six"),
    "7": gettext_lazy("seven"),
    "8": gettext_lazy("eight"),
    "9": gettext_lazy("nine"),
}
#: Beyond these lengths (characters) the printed certificate uses smaller type.
LONG_NAME, LONG_TEXT = 50, 200
#: A verify address longer than this is not printed under the QR code (which carries it):
#: wrapped over more lines than the column holds, nobody would type it.
LONG_ADDRESS = 80
#: QR versions above this (more than 97 modules a side) are printed larger.
DENSE = 20
LIST_ERRORS: dict[revocations.ListCode, Message] = {
    revocations.ListCode.MALFORMED: gettext_lazy(
        "This is not a revocation list: paste the whole text of the file."
    ),
    revocations.ListCode.UNKNOWN_ISSUER: gettext_lazy(
        "This list is signed by an issuer this site does not trust."
    ),
    revocations.ListCode.OWN: gettext_lazy("This is this site's own list."),
    revocations.ListCode.BAD_SIGNATURE: gettext_lazy(
        "This list has been altered: its signature does not match."
    ),
    revocations.ListCode.OLDER: gettext_lazy(
        "This list is not newer than the one already imported from its issuer."
    ),
    revocations.ListCode.NO_KEY: gettext_lazy(
        "This site has no signing key yet, so it has no list of its own (README: Certificates)."
    ),
}
STATUS_WORDS = {
    "valid": gettext_lazy("Valid"),
    "expired": gettext_lazy("Expired"),
    "revoked": gettext_lazy("Revoked"),
    "pending": gettext_lazy("Waiting for the holder's name"),
}


def code_in_words(code: str) -> str:
    """The code spelt out for reading aloud: NATO letters, digits in the current language."""
    groups = [code[:5], code[5:]]
    return " \u2013 ".join(" ".join(str(DIGITS.get(c) or NATO[c]) for c in g) for g in groups)


def qr_code(url: str, label: str) -> tuple[SafeString, bool]:
    """The verify URL as an inline SVG QR code, and whether it is dense (printed larger): a long
    certificate's code stays readable on paper (web.qr.printed)."""
    svg, version = qr.printed(url, label)
    return svg, version > DENSE


def listed(certificate: Certificate) -> tuple[Certificate, str, str]:
    status = status_of(certificate)
    return certificate, status, str(STATUS_WORDS[status])


def status_of(certificate: Certificate) -> str:
    if certificate.revoked_at:
        return "revoked"
    if certificate.pending:
        return "pending"
    return "expired" if timezone.localdate() > certificate.expires_on else "valid"


def verify_address(request: Request) -> str:
    """The public verify page: the configured address, else this site's own, without a
    language (the visitor's own is chosen on arrival)."""
    return settings.CERTIFICATE_VERIFY_URL or request.build_absolute_uri("/certificates/verify/")


def verify_url(request: Request, certificate: Certificate) -> str:
    """The verify URL the QR code carries: the verify page with the signed certificate."""
    base = verify_address(request)
    joiner = "&" if "?" in base else "?"
    return f"{base}{joiner}{urlencode({'c': issuing.token(certificate)})}"


# --- access: 404 for anything not one's own ----------------------------------------------------


def _visible(user: User) -> QuerySet[Certificate]:
    """The holder's own certificates, and those of the courses the user teaches."""
    mine = Q(user=user)
    if is_instructor(user):
        mine |= Q(course__instructors=user)
    return Certificate.objects.filter(mine).distinct()


def _teaches(certificate: Certificate, user: User) -> bool:
    return bool(
        certificate.course_id
        and is_instructor(user)
        and Course.objects.filter(pk=certificate.course_id, instructors=user).exists()
    )


def _safe_next(request: Request, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


# --- the holder's side --------------------------------------------------------------------------


@login_required
@require_GET
def mine(request: UserRequest) -> HttpResponse:
    """My certificates, my name on them, and (instructors) the cohorts I teach."""
    own = Certificate.objects.filter(user=request.user).order_by("-pk")
    certificates = [listed(c) for c in own]
    taught = None
    if is_instructor(request.user):
        taught = list(
            Cohort.objects.filter(course__instructors=request.user)
            .select_related("course")
            .order_by("-course__year", "course__title_en", "name")
        )
    context = {
        "certificates": certificates,
        "name": HolderName.objects.filter(user=request.user).first(),
        "taught": taught,
        "status_words": STATUS_WORDS,
    }
    return render(request, "certificates/mine.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def name(request: UserRequest) -> HttpResponse:
    """Your name on certificates: asked once, before the first certificate is printed."""
    current = HolderName.objects.filter(user=request.user).first()
    form = NameForm(request.POST or None, initial={"full_name": current and current.full_name})
    if request.method == "POST" and form.is_valid():
        issuing.set_name(request.user, form.cleaned_data["full_name"])
        messages.success(request, _("Your name on certificates is saved."))
        return redirect(_safe_next(request, reverse("certificates:mine")))
    status = 400 if request.method == "POST" else 200
    waiting = Certificate.objects.filter(user=request.user, signature="").count()
    context = {
        "form": form,
        "current": current,
        "waiting": waiting,
        "next": _safe_next(request, ""),
    }
    return render(request, "certificates/name.html", context, status=status)


def _side(certificate: Certificate, lang: str) -> dict[str, Any]:
    with translation.override(lang):
        return {
            "lang": lang,
            "course": certificate.course_title_it if lang == "it" else certificate.course_title_en,
            "track": str(Track(certificate.track).label),
            "words": code_in_words(certificate.code),
        }


@login_required
@require_GET
def certificate(request: UserRequest, certificate_id: int) -> HttpResponse:
    """The certificate as an A4 page to print (or save as PDF), in both languages."""
    item = get_object_or_404(_visible(request.user), pk=certificate_id)
    teaches = _teaches(item, request.user)
    if item.pending and item.user_id == request.user.pk:
        issuing.complete(item)  # a key configured since, or a name given elsewhere
        if item.pending and not HolderName.objects.filter(user=request.user).exists():
            here = reverse("certificates:certificate", args=[item.pk])
            return redirect(f"{reverse('certificates:name')}?{urlencode({'next': here})}")
    first = item.language if item.language in ("it", "en") else settings.LANGUAGE_CODE
    languages = [first, "en" if first == "it" else "it"]
    url = "" if item.pending else verify_url(request, item)
    address = verify_address(request)
    context = {
        "item": item,
        "status": status_of(item),
        "status_words": STATUS_WORDS,
        "sides": [_side(item, lang) for lang in languages],
        "verify_url": url,  # what the QR code holds
        # Printed whole, or not at all: with it, the code is enough to check the certificate.
        "verify_address": "" if len(address) > LONG_ADDRESS else address,
        "qr": qr_code(url, _("QR code of the verify address")) if url else ("", False),
        "teaches": teaches,
        "own": item.user_id == request.user.pk,
        # Long names and titles are printed smaller, so the page stays one page.
        "long": len(item.holder_name) > LONG_NAME
        or max(
            len(item.course_title_it) + len(item.exam_title_it),
            len(item.course_title_en) + len(item.exam_title_en),
        )
        > LONG_TEXT,
    }
    return render(request, "certificates/certificate.html", context)


# --- the instructor's side ----------------------------------------------------------------------


def _trainees(cohort: Cohort) -> list[tuple[User, str]]:
    members = Membership.objects.filter(cohort=cohort).select_related(
        "user__profile", "user__certificate_name"
    )
    out = []
    for m in members.order_by("user__username"):
        known = getattr(m.user, "certificate_name", None)
        profile = getattr(m.user, "profile", None)
        label = (known and known.full_name) or (profile and profile.display_name) or ""
        out.append((m.user, label or m.user.get_username()))
    return out


@instructor_required
@require_http_methods(["GET", "POST"])
def cohort(request: UserRequest, cohort_id: int) -> HttpResponse:
    """A cohort's certificates: issue one by hand, revoke, download the list."""
    item = access.taught_cohort(request.user, cohort_id)
    trainees = _trainees(item)
    form = IssueForm(trainees, request.POST or None)
    if request.method == "POST" and form.is_valid():
        trainee = next(u for u, _label in trainees if u.pk == form.cleaned_data["trainee"])
        full_name = form.cleaned_data["full_name"]
        if full_name:
            # Only when the trainee has given none: their own word on their name stands.
            HolderName.objects.get_or_create(user=trainee, defaults={"full_name": full_name})
        issued = issuing.issue(
            user=trainee, cohort=item, kind=form.cleaned_data["kind"], by=request.user
        )
        if issued.pending:
            messages.warning(
                request,
                _(
                    "Certificate %(code)s is issued and waits for the trainee's full name: "
                    "they are asked for it when they open it."
                )
                % {"code": issued.grouped_code},
            )
        else:
            messages.success(
                request, _("Certificate %(code)s is issued.") % {"code": issued.grouped_code}
            )
        return redirect("certificates:cohort", cohort_id=item.pk)
    rows = [listed(c) for c in Certificate.objects.filter(cohort=item).order_by("-pk")]
    context = {
        "cohort": item,
        "course": item.course,
        "form": form,
        "rows": rows,
        "status_words": STATUS_WORDS,
        "validity": issuing.validity_years(item.course),
        "has_trainees": bool(trainees),
        "no_key": signing.signing_key() is None,
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "certificates/cohort.html", context, status=status)


@instructor_required
@require_GET
def cohort_csv(request: UserRequest, cohort_id: int) -> StreamingHttpResponse:
    """The cohort's certificates as CSV, in the instructor's language."""
    item = access.taught_cohort(request.user, cohort_id)
    rows = Certificate.objects.filter(cohort=item).select_related("user").order_by("pk")
    header = [
        _("Code"),
        _("Holder"),
        _("Username"),
        _("What it certifies"),
        _("Exam"),
        _("Score (%)"),
        _("Issued by"),
        _("Issued on"),
        _("Expires on"),
        _("Status"),
        _("Revoked on"),
        _("Reason"),
    ]

    def table() -> Iterator[Sequence[object]]:
        yield header
        for c in rows:
            yield (
                [
                    c.grouped_code,
                    c.holder_name,
                    c.user.get_username() if c.user else "",
                    Kind(c.kind).label,
                    c.exam_title,
                    "" if c.score_percent is None else str(c.score_percent),
                    c.issued_by_name or c.issuer_name,
                    c.issued_on.isoformat(),
                    c.expires_on.isoformat(),
                    STATUS_WORDS[status_of(c)],
                    timezone.localdate(c.revoked_at).isoformat() if c.revoked_at else "",
                    c.revoked_reason,
                ]
            )

    name = slugify(f"{item.course.title}-{item.name}") or "cohort"
    return csv_response(csv_lines(table()), f"certificates-{name}.csv")


@instructor_required
@require_http_methods(["GET", "POST"])
def revoke(request: UserRequest, certificate_id: int) -> HttpResponse:
    """Revoke a certificate of a course I teach, with a reason."""
    item = access.taught(request.user, Certificate.objects.all(), certificate_id, course="course")
    form = RevokeForm(request.POST or None)
    if request.method == "POST" and item.revoked_at is None and form.is_valid():
        issuing.revoke(item, form.cleaned_data["reason"], by=request.user)
        messages.success(
            request, _("Certificate %(code)s is revoked.") % {"code": item.grouped_code}
        )
        if item.cohort_id:
            return redirect("certificates:cohort", cohort_id=item.cohort_id)
        return redirect("certificates:certificate", certificate_id=item.pk)
    status = 400 if request.method == "POST" else 200
    context = {"item": item, "form": form}
    return render(request, "certificates/revoke.html", context, status=status)


@instructor_required
@require_http_methods(["GET", "POST"])
def course_setting(request: UserRequest, course_id: int) -> HttpResponse:
    """How long the course's certificates are valid."""
    course = access.taught_course(request.user, course_id)
    setting = CourseSetting.objects.filter(course=course).first() or CourseSetting(course=course)
    form = SettingForm(request.POST or None, instance=setting)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saved."))
        back = _safe_next(request, reverse("certificates:mine"))
        return HttpResponseRedirect(back)
    status = 400 if request.method == "POST" else 200
    context = {"course": course, "form": form, "next": _safe_next(request, "")}
    return render(request, "certificates/setting.html", context, status=status)


# --- staff: keys, trusted issuers, revocation lists ------------------------------------------


@staff_required
@require_http_methods(["GET", "POST"])
def keys(request: UserRequest) -> HttpResponse:
    """This site's public key, the issuers it trusts, and revocation lists in and out."""
    key = signing.signing_key()
    trust = TrustForm(request.POST if "trust" in request.POST else None)
    load = ImportForm(request.POST if "import" in request.POST else None)
    if request.method == "POST":
        if trust.is_bound and trust.is_valid():
            public = signing.parse_public(trust.cleaned_data["key"])
            TrustedIssuer.objects.create(
                name=trust.cleaned_data["name"],
                key_id=signing.key_id(public),
                public_key=trust.cleaned_data["key"],
            )
            messages.success(
                request, _("%(name)s is trusted.") % {"name": trust.cleaned_data["name"]}
            )
            return redirect("certificates:keys")
        if load.is_bound and load.is_valid():
            try:
                row = revocations.load(load.cleaned_data["revocations"])
            except revocations.ListProblem as problem:
                load.add_error("revocations", LIST_ERRORS[problem.code])
            else:
                count = row.issuer.revocations.count()
                messages.success(
                    request,
                    ngettext(
                        "The list of %(name)s is imported: %(count)s revoked.",
                        "The list of %(name)s is imported: %(count)s revoked.",
                        count,
                    )
                    % {"name": row.issuer.name, "count": count},
                )
                return redirect("certificates:keys")
    issuers = TrustedIssuer.objects.select_related("revocation_list").order_by("-own", "name")
    context = {
        "public": signing.public_text(key.public_key()) if key else "",
        "key_id": signing.key_id(key.public_key()) if key else "",
        "issuer_name": issuing.issuer_name(),
        "issuers": issuers,
        "trust": trust,
        "load": load,
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "certificates/keys.html", context, status=status)


@staff_required
@require_GET
def revocation_list(request: UserRequest) -> HttpResponse:
    """This site's signed revocation list, to import on another site."""
    try:
        text = revocations.export()
    except revocations.ListProblem:
        messages.error(request, _("This site has no signing key: it cannot sign a list."))
        return redirect("certificates:keys")
    response = HttpResponse(text + "\n", content_type="text/plain; charset=utf-8")
    day = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="revocations-{day}.txt"'
    return response


# --- the public verify page ---------------------------------------------------------------------


@require_GET
def verify(request: Request) -> HttpResponse:
    """Anyone checks a certificate: by the signed URL of its QR code, or by its code."""
    token = request.GET.get("c", "")
    code = request.GET.get("code", "")
    verdict = None
    if token:
        verdict = verification.verify_token(token)
    elif code:
        verdict = verification.verify_code(code)
    side = None
    if verdict and verdict.claims:
        claims = verdict.claims
        lang = translation.get_language() or settings.LANGUAGE_CODE
        side = {
            "course": claims.course_it if lang == "it" else claims.course_en,
            "track": str(Track(claims.track).label) if claims.track in Track.values else "",
            "kind": str(Kind(claims.kind).label) if claims.kind in Kind.values else "",
            "code": f"{claims.code[:5]}-{claims.code[5:]}",
            "exam": claims.exam(lang),
        }
    context = {"verdict": verdict, "side": side, "code": code[:40]}
    response = render(request, "certificates/verify.html", context)
    response["X-Robots-Tag"] = "noindex"  # holders' names are not for search engines
    response["Referrer-Policy"] = "no-referrer"
    return response
