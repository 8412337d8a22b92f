"""Annotators vote; admins make items, read the results and export the votes."""
from __future__ import annotations

import csv
import json

from django.contrib import messages
from django.db import transaction
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from sideapp.annotation import guidelines, items, results as stats, selectors, services
from sideapp.annotation.charts import share_bars, stacked_bars
from sideapp.annotation.forms import SCREEN_PREFERENCES, AnswerForm, GoldForm, ItemsFromClaimForm, ItemsFromFilterForm
from sideapp.annotation.models import Assignment, Evidence, Item, SkipReason, Vote
from sideapp.claims import selectors as claims
from sideapp.claims.models import Claim
from sideapp.web.roles import ADMIN, ANNOTATOR, role_required
from sideapp.web.shortcuts import render_page

KEYS = [("a / b", "A or B supports the claim better"), ("e / n", "both equally / neither"),
        ("1 2 3", "A has enough / partial / no evidence"), ("7 8 9", "B has enough / partial / no evidence"),
        ("Enter", "submit"), ("s", "skip (choose a reason, then Enter)"),
        ("u", "undo: reopen your last vote (not a skip)"),
        ("?", "this legend and the guidelines")]

PREFERENCE_KEYS = [(value, label, key) for (value, label), key in zip(SCREEN_PREFERENCES, "aben")]


@role_required(ANNOTATOR)
def annotate(request):
    if request.method == "POST":
        return _answer(request)
    if request.GET.get("revise"):
        vote = _own_revisable(request, request.GET["revise"])
        return _item_page(request, vote.assignment, values=selectors.screen_answer(vote), vote=vote)
    return _next_page(request)


def _next_page(request, *, notice: str = "", assignment: Assignment | None = None):
    assignment = assignment or services.assignment_next(annotator=request.user)
    if assignment is None:
        return render_page(request, "annotation/none_left.html", "annotation/partials/none_left.html",
                           {"notice": notice})
    return _item_page(request, assignment, notice=notice)


def _item_page(request, assignment: Assignment, *, values: dict | None = None, vote: Vote | None = None,
               form: AnswerForm | None = None, notice: str = ""):
    values = values or {}
    screen = selectors.item_screen(assignment)
    for side, keys in zip(screen["sides"], ("123", "789")):
        name = f"evidence_{side['letter'].lower()}"
        side.update(name=name, value=values.get(name, ""),
                    choices=[(v, label, key) for (v, label), key in zip(Evidence.choices, keys)])
    context = {**screen, "values": values, "vote": vote, "form": form, "preferences": PREFERENCE_KEYS,
               "notice": notice, "keys": KEYS, "skip_reasons": SkipReason.choices,
               "guidelines_version": guidelines.VERSION}
    return render_page(request, "annotation/item.html", "annotation/partials/item.html", context)


def _own_revisable(request, vote_id) -> Vote:
    try:
        wanted = int(vote_id)
    except (TypeError, ValueError):
        raise Http404("no such vote") from None
    for vote in services.revisable_votes(annotator=request.user).select_related("assignment"):
        if vote.pk == wanted:
            return vote
    raise Http404("not one of your last votes")


def _answer(request):
    form = AnswerForm(request.POST)
    if not form.is_valid():
        assignment = get_object_or_404(Assignment, item_id=form.cleaned_data.get("item"), annotator=request.user)
        vote = _own_revisable(request, form.cleaned_data["vote"]) if form.cleaned_data.get("vote") else None
        return _item_page(request, assignment, values=form.data, vote=vote, form=form)
    try:
        with transaction.atomic():  # one commit (one WAL flush) for the vote and the next hand-out
            notice = _store(request, form)
            assignment = services.assignment_next(annotator=request.user)
    except services.VoteError as exc:
        notice, assignment = str(exc), None
    return _next_page(request, notice=notice, assignment=assignment)


def _store(request, form: AnswerForm) -> str:
    if form.cleaned_data.get("vote"):
        services.vote_revise(annotator=request.user, vote_id=form.cleaned_data["vote"], answer=form.answer())
        return "Your vote was revised."
    vote = services.vote_cast(annotator=request.user, item_id=form.cleaned_data["item"], answer=form.answer())
    return "Skipped." if vote.is_skip else "Saved."


@role_required(ANNOTATOR)
@require_POST
def undo(request):
    """Reopen the last vote that chose something: a skip passed an item by, and undoing
    "my last vote" right after one means the answer given before it."""
    votes = list(services.revisable_votes(annotator=request.user))
    last = next((vote for vote in votes if not vote.is_skip), None)
    if last is None:
        messages.info(request, "Your last answers were all skips; open one from your recent votes to answer it."
                      if votes else "You have no vote to undo yet.")
        return redirect("annotation:annotate")
    return redirect(f"{reverse('annotation:annotate')}?revise={last.pk}")


@role_required(ANNOTATOR)
def recent(request):
    return render(request, "annotation/recent.html", {"votes": selectors.recent_votes(annotator=request.user)})


@role_required(ANNOTATOR)
def full_text(request, item: int, letter: str):
    if letter not in ("A", "B"):
        raise Http404("sides are A and B")
    assignment = get_object_or_404(Assignment.objects.select_related("item"), item_id=item, annotator=request.user)
    return render(request, "annotation/partials/full_text.html",
                  {"text": selectors.full_text(assignment, letter), "letter": letter})


@role_required(ANNOTATOR)
def guidelines_page(request):
    return render(request, guidelines.TEMPLATE, {"version": guidelines.VERSION, "keys": KEYS})


@role_required(ADMIN)
def results_page(request):
    data = stats.results()
    charts = {
        "buckets": share_bars("Share of decisive votes for the suggested source, by the wiki citation's score",
                              [(b["label"], b["suggested"]) for b in data["buckets"]]),
        "evidence": stacked_bars("Evidence labels per side",
                                 [(e["name"], [lab["count"] for lab in e["labels"]]) for e in data["evidence"]],
                                 [lab["label"] for lab in data["evidence"][0]["labels"]]),
        "overall": share_bars("Overall shares", [
            ("suggested wins", data["overall"]["suggested"]), ("ties", data["overall"]["ties"]),
            ("neither", data["overall"]["neither"]), ("verifier's passage", data["control"]["suggested"])]),
        # A check of the annotators, not a result about the sources: drawn on its own.
        "position": share_bars("Share of decisive votes for the source shown on the left",
                               [("left side wins", data["position"]["left"])]),
    }
    return render(request, "annotation/results.html",
                  {**data, "charts": charts, "overruled": claims.overruled_reasons()})


def _stream(lines, content_type: str, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class _Echo:
    def write(self, value: str) -> str:
        return value


@role_required(ADMIN)
def export_csv(request):
    writer = csv.DictWriter(_Echo(), fieldnames=selectors.EXPORT_FIELDS)
    lines = (writer.writerow(row) for row in selectors.export_rows())
    header = ",".join(selectors.EXPORT_FIELDS) + "\r\n"
    return _stream((line for chunk in ([header], lines) for line in chunk), "text/csv; charset=utf-8", "votes.csv")


@role_required(ADMIN)
def export_jsonl(request):
    lines = (json.dumps(row, ensure_ascii=False) + "\n" for row in selectors.export_rows())
    return _stream(lines, "application/x-ndjson; charset=utf-8", "votes.jsonl")


@role_required(ADMIN)
def item_admin(request):
    by_claim, by_filter = ItemsFromClaimForm(prefix="one"), ItemsFromFilterForm(prefix="many")
    if request.method == "POST":
        made = None
        if "one-claim" in request.POST:
            by_claim = ItemsFromClaimForm(request.POST, prefix="one")
            if by_claim.is_valid():
                claim = get_object_or_404(Claim, pk=by_claim.cleaned_data["claim"])
                made = [i for i in [items.item_create(claim=claim, better_only=by_claim.cleaned_data["better_only"])] if i]
        else:
            by_filter = ItemsFromFilterForm(request.POST, prefix="many")
            if by_filter.is_valid():
                data = by_filter.cleaned_data
                made = items.items_create(claims=claims.claim_list(
                    filters=claims.ClaimFilters(show=data["show"], article=data["article"]), user=request.user),
                                          better_only=data["better_only"], limit=data["limit"])
        if made is not None:
            messages.success(request, f"{len(made)} item(s) ready (existing ones are kept, never doubled).")
            return redirect("annotation:items")
    latest = Item.objects.select_related("claim").order_by("-pk")[:30]
    return render(request, "annotation/items.html", {"by_claim": by_claim, "by_filter": by_filter,
                                                     "latest": latest, "gold_form": GoldForm()})


@role_required(ADMIN)
@require_POST
def item_gold(request, pk: int):
    item = get_object_or_404(Item, pk=pk)
    form = GoldForm(request.POST)
    if form.is_valid():
        item = items.item_gold_set(item=item, preference=form.cleaned_data["preference"])
        messages.success(request, f"Item {item.pk} is gold: the right answer is {item.gold_preference}.")
    return redirect("annotation:items")
