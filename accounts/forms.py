"""Forms of the accounts pages: sign up (username and password, no e-mail), log in (behind the
lockout of accounts/limits.py) and new API tokens."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User

from accounts import limits

# The profile lives at /accounts/<username>/, so a user named like one of the other pages there
# could never be reached; "." and ".." would be folded away by browsers.
RESERVED_USERNAMES = frozenset({"signup", "login", "logout", "tokens"})


class SignUpForm(UserCreationForm[User]):
    """Django's own sign-up form: username and the password twice, checked by the validators."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and (username.lower() in RESERVED_USERNAMES or not username.strip(".")):
            raise forms.ValidationError(
                "This username is reserved. Please choose another.", code="reserved"
            )
        return username


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        max_length=80,
        label="Token name",
        help_text="What the token is for, e.g. “import script on my laptop”.",
    )


class ThrottledLoginMixin:
    """Says why a log-in must wait, instead of the usual "wrong password", and keeps the
    refusal (`refusal`) so that the view can answer 429 with Retry-After. The wait itself is
    enforced by accounts.backends, for every caller of authenticate()."""

    request: Any
    refusal: limits.TooManyRequests | None = None

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = getattr(self, "cleaned_data", {})
        username = cleaned.get("username")
        if username is not None and cleaned.get("password"):
            address = limits.client_address(self.request) if self.request is not None else ""
            self.refusal = limits.login_wait(username=str(username), address=address)
            if self.refusal is not None:
                raise forms.ValidationError(self.refusal.message, code="throttled")
        result: dict[str, Any] = super().clean()  # type: ignore[misc]
        return result


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    """The log-in page's form."""


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's log-in form, behind the same lockout."""
