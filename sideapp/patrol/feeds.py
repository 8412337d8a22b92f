"""The Atom feed of flagged new citations, per user: `/patrol/feed.atom?token=...`.

A feed reader has no session, so the user's feed token (shown on /patrol/) names whose
view it is; an unknown token is a 404. Rows that user marked patrolled are left out.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib.syndication.views import Feed
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from sideapp.patrol.models import PatrolRow
from sideapp.patrol.selectors import feed_user, patrol_rows, row_words
from sideapp.web.roles import ADMIN, EDITOR, has_role


class PatrolFeed(Feed):
    feed_type = Atom1Feed
    title = "Side editor: flagged new citations"
    subtitle = "Citations added on patrolled wikis that their source may not support"

    def get_object(self, request, *args, **kwargs):
        user = _reader(request)
        if user is None:
            raise Http404("no feed for this token")
        # The host that names the entries' ids (tag: URIs take a DNS name, without a port).
        self.host = urlsplit(f"//{request.get_host()}").hostname or "localhost"
        return user

    def link(self, obj) -> str:
        return reverse("patrol")

    def items(self, obj) -> list[PatrolRow]:
        return patrol_rows(user=obj, limit=50)

    def item_title(self, item: PatrolRow) -> str:
        words = row_words(item)
        return f"{words['title']}: {words['verdict_words']}"

    def item_description(self, item: PatrolRow) -> str:
        words = row_words(item)
        # Each source with its own verdict; the verdict after them is the claim's, by all of them.
        cited = "; ".join(f"{c['title']} ({c['verdict_words']})" for c in words["citations"]) or "no citation"
        return (f"{words['claim']} — cited: {cited}. Verdict: {words['verdict_words']}"
                f"{': ' + words['reason'] if words['reason'] else ''}. Edit by {words['user']}.")

    def item_link(self, item: PatrolRow) -> str:
        return row_words(item)["diff_url"]

    def item_guid(self, item: PatrolRow) -> str:
        """Atom's <id> must be an IRI that never changes: a tag: URI (RFC 4151) of this
        site, dated the day the row was made."""
        return f"tag:{self.host},{item.created_at:%Y-%m-%d}:side-editor/patrol/row/{item.pk}"

    item_guid_is_permalink = False

    def item_author_name(self, item: PatrolRow) -> str:
        return item.edit.user

    def item_updateddate(self, item: PatrolRow):
        return item.edit.timestamp

    def item_pubdate(self, item: PatrolRow):
        return item.edit.timestamp


def _reader(request):
    user = feed_user(request.GET.get("token", ""))
    return user if user is not None and (has_role(user, EDITOR) or has_role(user, ADMIN)) else None


def patrol_feed(request):
    """The feed; a plain 404 for an unknown token (no page, so no cookie for a reader)."""
    if _reader(request) is None:
        return HttpResponse("No feed for this token: copy the feed's address from /patrol/.\n",
                            status=404, content_type="text/plain; charset=utf-8")
    return PatrolFeed()(request)
