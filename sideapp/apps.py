from django.apps import AppConfig


class SideappConfig(AppConfig):
    name = "sideapp"
    verbose_name = "Side editor"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The pipeline listens to what services report (sideapp.events).
        from sideapp.pipeline import receivers  # noqa: F401
        # The API drops kept findings when what they say changes.
        from sideapp.api import receivers as api_receivers  # noqa: F401
