from django.apps import AppConfig


class SideappConfig(AppConfig):
    name = "sideapp"
    verbose_name = "Side editor"
    default_auto_field = "django.db.models.BigAutoField"
