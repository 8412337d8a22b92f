"""Claims already judged move to the lists of the new flag rule, and the reasons of
sources that could not be read become sentences.

The rule is written out here, not imported from Claim.flag_rule, so that this migration
keeps meaning what it meant when the rule changes again:
flagged = needs a source, or `not_supported` with high confidence; needs a look = any
other verdict except `source_unavailable` and a confident `supported`; a claim not
checkable on its own is neither.
"""
from django.db import migrations
from django.db.models import Q

from verifier_core.fetch import failure_sentence

BATCH = 1000
NOT_SUPPORTED, UNAVAILABLE, SUPPORTED, HIGH = "not_supported", "source_unavailable", "supported", "high"


def reflag(apps, schema_editor):
    Claim = apps.get_model("sideapp", "Claim")
    Claim.objects.filter(checkable=False).update(flagged=False, needs_look=False)
    judged = Claim.objects.filter(verify_state="done", checkable=True)
    flagged = Q(needs_citation=True) | Q(verdict=NOT_SUPPORTED, confidence=HIGH)
    quiet = Q(verdict="") | Q(verdict=UNAVAILABLE) | Q(verdict=SUPPORTED, confidence=HIGH)
    judged.filter(flagged).update(flagged=True, needs_look=False)
    judged.exclude(flagged).filter(quiet).update(flagged=False, needs_look=False)
    judged.exclude(flagged).exclude(quiet).update(flagged=False, needs_look=True)


def _sentence(link) -> str:
    """The fetch failure in words; a source that was read keeps the verifier's reason."""
    source = link.citation.source
    if source is None:
        return "the citation has no online copy (no URL)"
    if source.status == "ok":
        return link.reason
    if source.status == "pending":
        return "not fetched yet"
    return failure_sentence(source.status, source.reason, source.http_status)


def reword(apps, schema_editor):
    ClaimCitation = apps.get_model("sideapp", "ClaimCitation")
    Claim = apps.get_model("sideapp", "Claim")
    links = (ClaimCitation.objects.filter(verdict=UNAVAILABLE).select_related("citation__source")
             .order_by("claim_id", "position"))
    reasons: dict[int, list[str]] = {}
    changed = []
    for link in links.iterator(chunk_size=BATCH):
        link.reason = _sentence(link)[:2000]
        reasons.setdefault(link.claim_id, []).append(link.reason)
        changed.append(link)
    ClaimCitation.objects.bulk_update(changed, ["reason"], batch_size=BATCH)
    claims = list(Claim.objects.filter(verdict=UNAVAILABLE, pk__in=list(reasons)).only("pk", "verify_reason"))
    for claim in claims:
        claim.verify_reason = "; ".join(dict.fromkeys(reasons[claim.pk]))[:2000]
    Claim.objects.bulk_update(claims, ["verify_reason"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [("sideapp", "0013_edits24_site_name_unreadable_index")]

    operations = [
        migrations.RunPython(reflag, migrations.RunPython.noop),
        migrations.RunPython(reword, migrations.RunPython.noop),
    ]
