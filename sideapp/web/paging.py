"""Pages of a long list whose count stops at a cap.

Counting every matching row of a large wiki costs as much as reading them, on every page
view; an editor needs "more than 1000" and the next page, not the exact figure. The cap
always reaches past the page asked for, so every page up to it can be opened.
"""
from __future__ import annotations

from django.conf import settings
from django.core.paginator import Paginator
from django.utils.functional import cached_property

# PostgreSQL's LIMIT is a bigint: a cap past it is an error, not "every row". A page number
# past any list's end still shows the last page (Paginator.get_page), so the number asked
# for is held below the page whose cap would not fit.
BIGINT = 2**63 - 1


class CappedPaginator(Paginator):
    def __init__(self, object_list, per_page: int, *, wanted: object = 1, cap: int | None = None):
        super().__init__(object_list, per_page)
        try:
            page = max(1, int(wanted))
        except (TypeError, ValueError):
            page = 1
        page = min(page, (BIGINT - 1) // per_page)
        self.cap = max(cap or settings.SIDE_LIST_COUNT_CAP, page * per_page)

    @cached_property
    def count(self) -> int:
        """Matching rows, counted up to one past the cap, in no order: any order would
        make PostgreSQL find (and often sort) every matching row before it can stop,
        where unordered it stops at the cap's row, whatever index or scan it reads. (A list
        of ids, as ranked_page reads, is counted as it is.)"""
        if isinstance(self.object_list, list):
            return len(self.object_list)
        return self.object_list.values("pk").order_by()[: self.cap + 1].count()

    @property
    def capped(self) -> bool:
        return self.count > self.cap


def capped_page(object_list, per_page: int, wanted):
    return CappedPaginator(object_list, per_page, wanted=wanted).get_page(wanted)


def ranked_page(object_list, per_page: int, wanted):
    """A page of a ranked list (a search) read in one query: its ids up to one past the cap,
    best first. Ranking reads every match anyway, so the count comes with it at no cost; the
    page's rows are then read by id."""
    probe = CappedPaginator([], per_page, wanted=wanted)
    ids = list(object_list.values_list("pk", flat=True)[: probe.cap + 1])
    return CappedPaginator(ids, per_page, wanted=wanted, cap=probe.cap).get_page(wanted)
