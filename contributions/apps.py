from django.apps import AppConfig


class ContributionsConfig(AppConfig):
    name = "contributions"
    verbose_name = "Contributions to the official sets"
