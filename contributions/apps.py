from django.apps import AppConfig


class ContributionsConfig(AppConfig):
    name = "contributions"
    verbose_name = "Contributions to the official sets"

    def ready(self) -> None:
        # Puts "Your proposals" on the user's own profile (catalog cannot import this app).
        from catalog.profile_sections import profile_section_register
        from contributions.profile import proposals_section

        profile_section_register(proposals_section)
