"""Account forms: sign up, profile, account deletion."""

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from polotrainer.umpires.models import Profile


class SignupForm(UserCreationForm):
    """Username, e-mail (unique, for password resets) and a password checked by the validators."""

    email = forms.EmailField(
        label=_("E-mail"),
        help_text=_("Used only to reset your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=80,
        required=False,
        help_text=_("How the app greets you; leave empty to use your username."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")
        # Our own wording: Django's Italian catalog runs two of its sentences together here.
        help_texts = {
            "username": _("Up to 150 characters: letters, digits and @ . + - _ only."),
        }

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account with this e-mail address already exists."), code="email_taken"
            )
        return email


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("display_name", "language")


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for its password again."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password: nothing was deleted."), code="wrong_password"
            )
        return password
