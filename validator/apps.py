from django.apps import AppConfig


class ValidatorConfig(AppConfig):
    name = "validator"
    verbose_name = "Rules validator"
