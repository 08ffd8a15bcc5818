"""The issuing body's place and logo, set by staff, and the logo as the verify page shows it."""

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from polotrainer.certificates import issuing, logos
from polotrainer.certificates.models import IssuerLogo, IssuerProfile
from polotrainer.umpires.roles import staff_required
from polotrainer.web.messages import Message
from polotrainer.web.requests import Request, UserRequest

LOGO_ERRORS: dict[logos.LogoCode, Message] = {
    logos.LogoCode.TOO_BIG: gettext_lazy(
        "The logo file is larger than 1 MB: save it smaller and try again."
    ),
    logos.LogoCode.NOT_IMAGE: gettext_lazy("This file is not a PNG, JPEG, GIF or WebP image."),
    logos.LogoCode.TOO_MANY_PIXELS: gettext_lazy(
        "This image is too large (over 4000 × 4000 pixels): scale it down and try again."  # noqa: RUF001
    ),
}


class IssuerForm(forms.Form):
    place = forms.CharField(
        label=gettext_lazy("Place"),
        max_length=120,
        required=False,
        help_text=gettext_lazy("Printed as “Issued in …”, e.g. Roma. Empty: no place."),
    )
    logo = forms.FileField(
        label=gettext_lazy("Logo"),
        required=False,
        help_text=gettext_lazy("PNG, JPEG, GIF or WebP, at most 1 MB; shown up to 400 pixels."),
    )
    remove_logo = forms.BooleanField(label=gettext_lazy("No logo"), required=False)

    def clean_logo(self) -> IssuerLogo | None:
        upload = self.cleaned_data.get("logo")
        if not upload:
            return None
        if upload.size > logos.MAX_BYTES:
            raise forms.ValidationError(
                LOGO_ERRORS[logos.LogoCode.TOO_BIG], code=logos.LogoCode.TOO_BIG
            )
        try:
            return logos.store(upload.read(logos.MAX_BYTES + 1))
        except logos.BadLogo as bad:
            raise forms.ValidationError(LOGO_ERRORS[bad.code], code=bad.code) from None


@staff_required
@require_http_methods(["GET", "POST"])
def issuer(request: UserRequest) -> HttpResponse:
    """Staff set the place and the logo that new certificates carry (signed, version 3)."""
    profile = IssuerProfile.objects.select_related("logo").first()
    form = IssuerForm(
        request.POST or None,
        request.FILES or None,
        initial={"place": profile.place if profile else ""},
    )
    if request.method == "POST" and form.is_valid():
        profile = profile or IssuerProfile()
        place, logo_id = form.cleaned_data["place"].strip(), profile.logo_id
        if form.cleaned_data["remove_logo"]:
            logo_id = None
        elif form.cleaned_data["logo"] is not None:
            logo_id = form.cleaned_data["logo"].pk
        # Sent back unchanged, nothing is written (not even who saved it).
        if profile.pk is None or (place, logo_id) != (profile.place, profile.logo_id):
            profile.place, profile.logo_id = place, logo_id
            profile.updated_at, profile.updated_by = timezone.now(), request.user
            profile.save()
        messages.success(
            request,
            _("Saved: certificates issued from now on carry this place and logo, signed."),
        )
        return redirect("certificates:issuer")
    context = {"form": form, "profile": profile, "issuer_name": issuing.issuer_name()}
    status = 400 if request.method == "POST" else 200
    return render(request, "certificates/issuer.html", context, status=status)


@require_GET
def logo(request: Request, digest: str) -> HttpResponse:
    """A logo by its digest, as certificates sign it: the same bytes for ever, so cached."""
    row = get_object_or_404(IssuerLogo, digest=digest[:32])
    response = HttpResponse(bytes(row.png), content_type="image/png")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
