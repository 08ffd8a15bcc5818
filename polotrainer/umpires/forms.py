"""Account forms: sign up, profile, password change and reset, account deletion.

Every form that takes the current password checks it through polotrainer.throttle, so wrong
passwords there count and pause like wrong passwords at log-in.
"""

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.contrib.auth.models import User
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from polotrainer.throttle.guessing import forgive, password_matches
from polotrainer.umpires.models import Profile
from polotrainer.web.requests import UserRequest


class LoginForm(AuthenticationForm):
    """Django's log-in form, refusing a username longer than any account can have.

    Django sets the field's max_length after building it, so it only reaches the widget; an
    overlong username went on to authenticate() and into django-axes' 255-character column,
    which PostgreSQL refuses.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        if isinstance(username, forms.CharField) and username.max_length:
            username.validators.append(MaxLengthValidator(username.max_length))


class SignupForm(UserCreationForm[User]):
    """Username, email (for password resets) and a password checked by the validators.

    Usernames are public handles, so "taken" is said; whether an email address is registered
    is never said (the address's owner is told by mail instead, see views.signup).
    """

    email = forms.EmailField(
        label=_("Email"),
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
        return str(self.cleaned_data["email"]).strip()


class ProfileForm(forms.ModelForm[Profile]):
    class Meta:
        model = Profile
        fields = ("display_name", "language")


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's password change, with the old password checked like a log-in."""

    def __init__(self, request: UserRequest, *args: Any, **kwargs: Any) -> None:
        self.request = request
        super().__init__(request.user, *args, **kwargs)

    def clean_old_password(self) -> str:
        old_password = str(self.cleaned_data["old_password"])
        if not password_matches(self.request, self.user, old_password):
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password


if TYPE_CHECKING:
    _SetPasswordForm = SetPasswordForm[User]
else:  # SetPasswordForm is a plain Form: not generic at run time
    _SetPasswordForm = SetPasswordForm


class ForgivingSetPasswordForm(_SetPasswordForm):
    """The new password from a reset link; the link proved the mailbox, so past wrong
    passwords for the account are forgotten and it can log in everywhere again."""

    def save(self, commit: bool = True) -> Any:
        user = super().save(commit=commit)
        forgive(user.get_username())
        return user


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for its password again."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        self.request = request
        self.user = request.user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = str(self.cleaned_data["password"])
        if not password_matches(self.request, self.user, password):
            raise forms.ValidationError(
                _("That is not your password: nothing was deleted."), code="wrong_password"
            )
        return password
