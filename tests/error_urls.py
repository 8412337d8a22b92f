"""The app's URLs plus one page that fails, for the tests of the 500 page (handler500 is
looked up on the root URLconf, so this module re-exports the app's handlers)."""
from django.urls import path

from sideapp.urls import handler403, handler404, handler500, urlpatterns as app_urls  # noqa: F401


def fails(request):
    raise RuntimeError("a bug the user must not see: secret-detail-42")


urlpatterns = [path("fails/", fails), *app_urls]
