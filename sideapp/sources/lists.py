""""Sources that could not be read", split by what became of the cited page: dead with an
archived copy (one click rescues it: the `rescue` list), dead without one, usurped,
unreadable for other reasons. Conditions on claims, each an EXISTS over their citations (no duplicate rows)."""
from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from verifier_core.fetch.pagestate import GONE, HOME, MOVED, NOT_THE_WORK, SOFT404, USURPED
from verifier_core.verification import Verdict

# "Sources that could not be read" (verdict source_unavailable: its own partial index) splits
# into these; the dead pages an archived copy rescues are their own list (`show=rescue`), since
# the copy gave them a verdict.
BUCKETS = {
    "dead": "dead, no archived copy",
    "usurped": "usurped, no archived copy",
    "other": "unreadable for other reasons",
}
DEAD = (GONE, HOME, MOVED, SOFT404)  # "unreadable" (a 5xx, a timeout) may pass: among "other"


def _citing(condition: Q) -> Exists:
    from sideapp.claims.models import ClaimCitation

    return Exists(ClaimCitation.objects.filter(condition, claim=OuterRef("pk")))


def unreadable_q(bucket: str = "") -> Q:
    """Claims of one part of the list: `rescue` (dead or usurped, a copy supports them: one
    click adds it), `dead`, `usurped`, `other` (within source_unavailable); "" all of them."""
    rescue = _citing(Q(page_state__in=NOT_THE_WORK, copy__read="copy", citation__archive_url=""))
    dead = _citing(Q(page_state__in=DEAD, verdict=Verdict.SOURCE_UNAVAILABLE))
    usurped = _citing(Q(page_state=USURPED, verdict=Verdict.SOURCE_UNAVAILABLE))
    unavailable = Q(verdict=Verdict.SOURCE_UNAVAILABLE)
    if bucket == "rescue":
        return Q(rescue)
    if bucket == "dead":
        return Q(dead)
    if bucket == "usurped":
        return Q(usurped)
    if bucket == "other":
        return unavailable & ~Q(dead) & ~Q(usurped)
    return unavailable | Q(rescue)
