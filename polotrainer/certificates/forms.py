"""Forms of the certificates: the holder's name, issuing by hand, revoking, the course setting."""

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from polotrainer.certificates import issuing, revocations, signing
from polotrainer.certificates.models import CourseSetting, Kind, TrustedIssuer
from polotrainer.web import inputs
from polotrainer.web.messages import Message

NAME_ERRORS: dict[issuing.NameCode, Message] = {
    issuing.NameCode.EMPTY: _("Write your full name."),
    issuing.NameCode.LONG: _("A name of at most 120 characters, please."),
    issuing.NameCode.ONE_WORD: _(
        "Write your first name and your surname, as on an identity document: at least two words."
    ),
    issuing.NameCode.CHARACTERS: _(
        "A name has letters only (apostrophes, dots and hyphens are fine)."
    ),
}


class FullNameField(forms.CharField):
    def clean(self, value: Any) -> str:
        value = super().clean(value)
        if not value and not self.required:
            return ""
        try:
            return issuing.clean_full_name(value)
        except issuing.NameProblem as problem:
            raise forms.ValidationError(NAME_ERRORS[problem.code], code=problem.code) from None


class NameForm(forms.Form):
    full_name = FullNameField(
        label=_("Your full name"),
        max_length=200,
        help_text=_(
            "First name and surname as they should be printed: certificates are signed with it "
            "and cannot be changed afterwards."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )


class IssueForm(forms.Form):
    trainee = forms.TypedChoiceField(label=_("Trainee"), coerce=int)
    kind = forms.ChoiceField(
        label=_("What it certifies"),
        choices=[(k.value, k.label) for k in (Kind.ATTENDANCE, Kind.COMPLETION)],
        widget=forms.RadioSelect,
        initial=Kind.COMPLETION,
    )
    full_name = FullNameField(
        label=_("The trainee's full name"),
        required=False,
        max_length=200,
        help_text=_(
            "Needed only if the trainee has not given it yet; left empty, the certificate waits "
            "until they do."
        ),
    )

    def __init__(self, trainees: list[tuple[User, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trainee"].choices = [  # type: ignore[attr-defined]
            (user.pk, f"{label} ({user.get_username()})") for user, label in trainees
        ]


class RevokeForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=300,
        help_text=_("Shown to the holder and to the course's instructors, not on the verify page."),
        widget=forms.TextInput,
    )

    def clean_reason(self) -> str:
        reason = " ".join(self.cleaned_data["reason"].split())
        if not reason:
            raise forms.ValidationError(_("Say why it is revoked."), code="required")
        return reason


class SettingForm(forms.ModelForm[CourseSetting]):
    class Meta:
        model = CourseSetting
        fields = ("validity_years",)
        labels = {"validity_years": _("Certificates are valid for (years)")}
        help_texts = {"validity_years": _("From 1 to 10; certificates already issued keep theirs.")}


class TrustForm(forms.Form):
    name = forms.CharField(label=_("Issuer's name"), max_length=120)
    key = forms.CharField(
        label=_("Public key"),
        max_length=200,
        help_text=_("The line `manage.py certificates public-key` prints there: ed25519:…"),
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give the issuer a name."), code="required")
        return name

    def clean_key(self) -> str:
        text = self.cleaned_data["key"].split()[0] if self.cleaned_data["key"].split() else ""
        try:
            public = signing.parse_public(text)
        except ValueError:
            raise forms.ValidationError(
                _("This is not an Ed25519 public key (ed25519: and 43 characters)."), code="key"
            ) from None
        if TrustedIssuer.objects.filter(key_id=signing.key_id(public)).exists():
            raise forms.ValidationError(_("This key is already trusted."), code="duplicate")
        return signing.public_text(public)


class ImportForm(forms.Form):
    revocations = forms.CharField(
        label=_("Revocation list"),
        max_length=revocations.MAX_LIST,
        widget=inputs.Textarea(attrs={"rows": 4}),
        help_text=_("Paste the text of the list another site exported."),
    )
