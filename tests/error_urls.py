"""The app's URLs plus one page that fails, for the tests of the 500 page (handler500 is
looked up on the root URLconf, so this module re-exports the app's handlers)."""
from django.urls import path

from sideapp.urls import handler403, handler404, handler500, urlpatterns as app_urls  # noqa: F401


def fails(request):
    raise RuntimeError("a bug the user must not see: secret-detail-42")


def database_gone(request):
    """A query on a connection PostgreSQL has just dropped (its own backend terminated), on a
    connection of its own so the test's transaction is untouched."""
    from django.db import connections

    gone = connections.create_connection("default")
    try:
        with gone.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
    except Exception:  # noqa: BLE001 - the backend may die before it answers
        pass
    with gone.cursor() as cursor:
        cursor.execute("SELECT 1")  # raises django.db.OperationalError: the server closed it


def redis_gone(request):
    import redis

    redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=1).ping()  # nothing listens on port 1


urlpatterns = [path("fails/", fails), path("database-gone/", database_gone), path("redis-gone/", redis_gone),
               *app_urls]
