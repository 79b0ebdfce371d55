from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and API tokens"

    def ready(self) -> None:
        from django.contrib.auth.models import User
        from django.db.models.signals import post_save

        from accounts import schema  # noqa: F401 - registers the token scheme with the schema
        from accounts.services import give_code_scope

        post_save.connect(give_code_scope, sender=User, dispatch_uid="accounts.code_scope")
