"""Pages of a long list whose count stops at a cap.

Counting every matching row of a large wiki costs as much as reading them, on every page
view; an editor needs "more than 1000" and the next page, not the exact figure. The cap
always reaches past the page asked for, so every page up to it can be opened.
"""
from __future__ import annotations

from django.conf import settings
from django.core.paginator import Paginator
from django.utils.functional import cached_property


class CappedPaginator(Paginator):
    def __init__(self, object_list, per_page: int, *, wanted: object = 1, cap: int | None = None,
                 count_order: tuple = ()):
        super().__init__(object_list, per_page)
        self.count_order = count_order
        try:
            page = max(1, int(wanted))
        except (TypeError, ValueError):
            page = 1
        self.cap = max(cap or settings.SIDE_LIST_COUNT_CAP, page * per_page)

    @cached_property
    def count(self) -> int:
        """Matching rows, counted up to one past the cap. Counted in `count_order` (an
        indexed order) when given: the rows' own order may need a sort of every row
        before PostgreSQL can stop."""
        rows = self.object_list.values("pk")
        if self.count_order:
            rows = rows.order_by(*self.count_order)
        return rows[: self.cap + 1].count()

    @property
    def capped(self) -> bool:
        return self.count > self.cap


def capped_page(object_list, per_page: int, wanted, *, count_order: tuple = ()):
    return CappedPaginator(object_list, per_page, wanted=wanted, count_order=count_order).get_page(wanted)
