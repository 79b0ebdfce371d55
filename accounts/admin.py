from django.contrib import admin
from django.http import HttpRequest

from accounts.forms import AdminLoginForm
from accounts.models import ApiToken

# The admin's log-in page says why an attempt must wait, as the site's does.
admin.site.login_form = AdminLoginForm


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    # Keys exist only when accounts.services.token_create makes them (it shows the key once
    # and stores its digest), so the admin lists and revokes (deletes) tokens but never adds
    # or edits one.
    list_display = ("name", "user", "hint", "created_at", "last_used_at")
    list_select_related = ("user",)
    search_fields = ("name", "hint", "user__username")
    readonly_fields = ("user", "name", "hint", "created_at", "last_used_at")
    exclude = ("digest",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ApiToken | None = None) -> bool:
        return False
