from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

# A user's page (accounts/<username>/) lists their sets: catalog/urls.py serves it.
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("tokens/", views.tokens, name="tokens"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
]
