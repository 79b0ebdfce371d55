"""Forms of the accounts pages: sign up (username and password, no e-mail) and new API tokens."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

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
