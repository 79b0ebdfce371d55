from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import limits, selectors, services
from accounts.forms import LoginForm, SignUpForm, TokenCreateForm


def _current_user(request: HttpRequest) -> User:
    """The signed-in user, in views behind login_required."""
    user = request.user
    assert isinstance(user, User)
    return user


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("catalog:profile", username=request.user.get_username())
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_sign_up(form=form, address=limits.client_address(request))
        except limits.TooManyRequests as exc:
            form.add_error(None, exc.message)
            response = render(request, "accounts/signup.html", {"form": form}, status=429)
            response["Retry-After"] = str(exc.retry_after)
            return response
        login(request, user, backend="accounts.backends.ThrottledModelBackend")
        return redirect("catalog:profile", username=user.username)
    return render(request, "accounts/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    """Django's log-in page; an attempt that must wait (accounts/limits.py) is a 429 with
    Retry-After and the reason in the form's errors."""

    form_class = LoginForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_invalid(self, form: LoginForm) -> HttpResponse:  # type: ignore[override]
        response = super().form_invalid(form)
        if form.refusal is not None:
            response.status_code = 429
            response["Retry-After"] = str(form.refusal.retry_after)
        return response


@never_cache  # the page may show a key: no cache may keep it
@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    user = _current_user(request)
    form = TokenCreateForm(request.POST or None)
    new_key = None
    if request.method == "POST" and form.is_valid():
        try:
            _, new_key = services.token_create(user=user, name=form.cleaned_data["name"])
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            form = TokenCreateForm()
    token_list = list(selectors.user_tokens(user=user))
    return render(
        request,
        "accounts/tokens.html",
        {
            "form": form,
            "tokens": token_list,
            "new_key": new_key,
            "max_tokens": services.MAX_TOKENS_PER_USER,
            "at_limit": len(token_list) >= services.MAX_TOKENS_PER_USER,
            "api_url": request.build_absolute_uri(reverse("api:card_list")),
        },
        status=400 if form.errors else 200,
    )


@require_POST
@login_required
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    services.token_revoke(user=_current_user(request), token_id=token_id)
    messages.success(request, "Token revoked: its key no longer works.")
    return redirect("accounts:tokens")
