"""A wiki page is its page id: the article row a revision belongs to, moves, deletions and
restorations of pages.

A move keeps the page id and changes the title, so the row is renamed (its old title kept
as an ArticleTitle) and everything attached to it stays: claims, judgements, patrol rows,
audit entries. A deleted page keeps its row, marked deleted; restored, it is the same row
again (MediaWiki gives a restored page its old id back; a wiki that gave it a new one is
followed by the title the restoration names).
"""
from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from sideapp import events
from sideapp.scans.models import Article, ArticleTitle, Wiki


# Of two rows carrying one title, the page's own first: not deleted, then the one titled last.
PAGE_FIRST = (F("deleted_at").asc(nulls_first=True), "-titled_at", "-pk")


def articles_titled(*, wiki: Wiki | int, title: str) -> QuerySet[Article]:
    """Rows carrying `title`, the page's own first: not deleted, then the one titled last
    (two rows share a title while a page moved away is not yet known to have moved)."""
    return Article.objects.filter(wiki=wiki, title=title).order_by(*PAGE_FIRST)


def article_of(*, wiki: Wiki | int, page_id: int | None, title: str = "") -> Article | None:
    """The row of the page with `page_id`; by `title` only when the id is unknown or no
    row has it yet (a row made before page ids were kept)."""
    if page_id:
        found = Article.objects.filter(wiki=wiki, page_id=page_id).first()
        if found is not None or not title:
            return found
        return articles_titled(wiki=wiki, title=title).filter(page_id=None).first()
    return articles_titled(wiki=wiki, title=title).first() if title else None


def article_for_page(*, wiki: Wiki, page_id: int, title: str) -> Article:
    """The row of the page read from the wiki as (`page_id`, `title`): found by page id (a
    row without one by its title), made when new, renamed when the page moved."""
    article = article_of(wiki=wiki, page_id=page_id, title=title)
    if article is None:
        try:
            with transaction.atomic():
                return Article.objects.create(wiki=wiki, page_id=page_id or None, title=title)
        except IntegrityError:  # a parallel scan of the same page made it first
            article = Article.objects.get(wiki=wiki, page_id=page_id)
    if page_id and article.page_id is None:
        Article.objects.filter(pk=article.pk).update(page_id=page_id)
        article.page_id = page_id
    if article.title != title:
        article_rename(article=article, title=title, reason=f"the wiki names page {page_id} {title} now")
    if article.deleted_at is not None:  # read again: the page is there
        Article.objects.filter(pk=article.pk).update(deleted_at=None)
        article.deleted_at = None
    return article


def article_rename(*, article: Article, title: str, reason: str, when: datetime | None = None) -> Article:
    """The page took `title`: the row is renamed and its old title kept with `reason`."""
    when = when or timezone.now()
    with transaction.atomic():
        row = Article.objects.select_for_update().get(pk=article.pk)
        if row.title != title:
            ArticleTitle.objects.create(article=row, title=row.title, until=when, reason=reason[:2000])
            Article.objects.filter(pk=row.pk).update(title=title, titled_at=when)
            events.findings_changed.send(sender=Article, articles=[row.pk])
    article.title, article.titled_at = title, when
    return article


def article_moved(*, wiki: Wiki, page_id: int, old_title: str, new_title: str, reason: str,
                  when: datetime) -> Article | None:
    """A move seen in the wiki's recent changes; None when Side editor never read the page."""
    article = article_of(wiki=wiki, page_id=page_id, title=old_title)
    if article is None or not new_title:
        return None
    return article_rename(article=article, title=new_title, reason=reason, when=when)


def article_deleted(*, wiki: Wiki, page_id: int, title: str, when: datetime) -> Article | None:
    article = article_of(wiki=wiki, page_id=page_id, title=title)
    if article is not None:
        Article.objects.filter(pk=article.pk).update(deleted_at=when)
        article.deleted_at = when
    return article


def article_restored(*, wiki: Wiki, page_id: int, title: str) -> Article | None:
    """A restored page: its row by page id, else the deleted row of that title (which takes
    the id the wiki gives the page now)."""
    article = Article.objects.filter(wiki=wiki, page_id=page_id).first() if page_id else None
    if article is None:
        article = articles_titled(wiki=wiki, title=title).exclude(deleted_at=None).first()
    if article is None:
        return None
    Article.objects.filter(pk=article.pk).update(deleted_at=None, page_id=page_id or article.page_id)
    article.deleted_at = None
    return article
