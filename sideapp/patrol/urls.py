"""Patrol's addresses: the feed page, its Atom feed, the per-row mark and
the admins' switch of a wiki's patrolling."""
from django.urls import path

from sideapp.patrol import views
from sideapp.patrol.feeds import patrol_feed

urlpatterns = [
    path("patrol/", views.patrol, name="patrol"),
    path("patrol/feed.atom", patrol_feed, name="patrol_feed"),
    path("patrol/rows/<int:pk>/patrolled/", views.patrol_mark, name="patrol_mark"),
    path("wikis/<int:pk>/patrol/", views.wiki_patrol, name="wiki_patrol"),
]
