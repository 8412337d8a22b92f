"""The API listens to what services report: kept findings answers are dropped when what they
say changes (sideapp.api.fastpath), at once and again when the change commits (a reader
between the two would otherwise keep the answer the change is about to replace)."""
from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from sideapp import events
from sideapp.api import fastpath
from sideapp.scans.models import Article, ScanItem, Wiki


@receiver(events.findings_changed, dispatch_uid="api.findings_changed")
def _findings_changed(sender, articles, **kwargs) -> None:
    ids = [a.pk if isinstance(a, Article) else a for a in articles]
    pages = list(Article.objects.filter(pk__in=ids).exclude(page_id=None).values_list("wiki__wikiid", "page_id"))

    def forget() -> None:
        for wikiid, page_id in pages:
            fastpath.forget(wikiid=wikiid, page_id=page_id)

    forget()
    transaction.on_commit(forget)


@receiver(post_save, sender=ScanItem, dispatch_uid="api.scan_item_saved")
def _scan_item_saved(sender, instance: ScanItem, created: bool, **kwargs) -> None:
    """A check of a page recorded one by one (scans.services records many at once and says so)."""
    if created:
        named = Article.objects.filter(wiki=instance.job.wiki_id, title=instance.title)
        ids = {*named.values_list("pk", flat=True), *([instance.article_id] if instance.article_id else [])}
        _findings_changed(sender, articles=list(ids))


@receiver(post_save, sender=Wiki, dispatch_uid="api.wiki_saved")
@receiver(post_delete, sender=Wiki, dispatch_uid="api.wiki_deleted")
def _wikis_changed(sender, **kwargs) -> None:
    fastpath.forget_origins()
    transaction.on_commit(fastpath.forget_origins)
