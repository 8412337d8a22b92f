from django.apps import AppConfig


class AnnotationConfig(AppConfig):
    name = "sideapp.annotation"
    label = "annotation"
    verbose_name = "Blind A/B annotation"
    default_auto_field = "django.db.models.BigAutoField"
