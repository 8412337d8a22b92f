"""The patrol feed: new citations as they are added, for editors (and its Atom feed,
which a feed reader opens with the user's token instead of a session)."""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from sideapp.patrol import selectors
from sideapp.patrol.forms import PatrolFilterForm
from sideapp.patrol.models import PatrolRow
from sideapp.patrol.services import feed_token_for, row_patrolled, wiki_patrol_set
from sideapp.scans.models import Wiki
from sideapp.web.roles import ADMIN, EDITOR, role_required
from sideapp.web.shortcuts import is_htmx, render_page

POLL_SECONDS = 10  # how often the open page asks for new rows


@role_required(ADMIN, EDITOR)
def patrol(request):
    form = PatrolFilterForm(request.GET or None)
    filters = form.filters() if request.GET else selectors.PatrolFilters()
    token = feed_token_for(user=request.user).token
    context = {"form": form, "filters": filters, "poll": POLL_SECONDS, "query": request.GET.urlencode(),
               "rows": selectors.patrol_rows(user=request.user, filters=filters),
               "feed_url": request.build_absolute_uri(reverse("patrol_feed")) + f"?token={token}"}
    return render_page(request, "patrol/list.html", "patrol/partials/rows.html", context)


@role_required(ADMIN, EDITOR)
@require_POST
def patrol_mark(request, pk: int):
    row = get_object_or_404(PatrolRow.objects.select_related("edit", "claim__article"), pk=pk)
    row_patrolled(user=request.user, row=row)
    if not is_htmx(request):
        return redirect("patrol")
    return HttpResponse("")  # htmx swaps the row out of this patroller's view


@role_required(ADMIN)
@require_POST
def wiki_patrol(request, pk: int):
    """The admins' switch on the wikis page."""
    wiki = get_object_or_404(Wiki, pk=pk)
    on = request.POST.get("on") == "1"
    wiki_patrol_set(wiki=wiki, on=on, user=request.user)
    messages.success(request, f"Patrolling of {wiki} is {'on: its edits from now on are checked' if on else 'off'}.")
    return redirect("wiki_list")
