"""The editors' search over claims: PostgreSQL full-text search, read as a search box is.

`websearch_to_tsquery` with the English configuration: words in any order, matched by
their stem ("councils" finds "council"), a "quoted phrase", `-word` to leave a word out,
`or` between alternatives; it never fails on what people type. A claim's document is its
own words (`Claim.search`: the claim, its section path, the rest of its sentence) and its
article's title (`Article.title_search`), so "Ellery first woman" finds a claim of the
article *Margaret Ellery*. Matches are ranked by `ts_rank` (the claim's own words weigh
most, then its section and title, then the rest of its sentence).

Both halves are stored generated columns with GIN indexes (migrations 0018 and 0021).
"""
from __future__ import annotations

import re

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVectorField
from django.db import connection
from django.db.models import Case, Expression, F, FloatField, Func, Q, TextField, When

from sideapp.scans.models import Article

CONFIG = "english"
LIMIT = 200  # characters of a search kept; a longer one is cut (and the page says so)


class _WithTitle(Func):
    """A claim's stored words followed by its article's stored title words."""
    template = "(%(expressions)s)"
    arg_joiner = " || "
    output_field = SearchVectorField()


def words_query(q: str) -> SearchQuery:
    return SearchQuery(q, search_type="websearch", config=CONFIG)


# A "quoted phrase" (a minus before it leaves it out) or a bare word, as websearch reads them.
_TOKEN = re.compile(r'(-?)"([^"]*)"?|(\S+)')


def _words(q: str) -> tuple[list[str], list[str], bool]:
    """(the words a match must hold, the words to leave out, whether `or` joins any)."""
    wanted, left_out, alternatives = [], [], False
    for sign, phrase, bare in _TOKEN.findall(q):
        if bare and bare.lower() == "or":
            alternatives = True
            continue
        words = phrase.split() if not bare else [bare.lstrip("-")]
        (left_out if (sign or bare.startswith("-")) else wanted).extend(w for w in words if w)
    # A word said twice is looked up once.
    return list(dict.fromkeys(wanted)), list(dict.fromkeys(left_out)), alternatives


def _lexemes(words: list[str]) -> dict[str, set[str]]:
    """Each word's lexemes as the search reads them (none for "the", "of", ...)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT w, tsvector_to_array(to_tsvector(%s::regconfig, w)) FROM unnest(%s::text[]) AS w",
                       [CONFIG, words])
        return {word: set(lexemes) for word, lexemes in cursor.fetchall()}


def _titled(q: str) -> dict[tuple[str, ...] | None, list[int]]:
    """The articles whose title holds a word of `q`, grouped by the words of `q` their title
    lacks (which their claims must then hold themselves; None: anything may match, `q`
    joins words with `or`)."""
    wanted, left_out, alternatives = _words(q)
    if not wanted + left_out:
        return {}
    lexemes = _lexemes(wanted + left_out)
    anywhere = words_query(" or ".join(w for w in wanted + left_out if lexemes.get(w)))
    titles = (Article.objects.filter(title_search=anywhere)
              .annotate(lexemes=Func(F("title_search"), function="tsvector_to_array",
                                     output_field=ArrayField(TextField())))
              .values_list("pk", "lexemes"))
    groups: dict[tuple[str, ...] | None, list[int]] = {}
    for pk, title in titles:
        lacks = None if alternatives else tuple(w for w in wanted if lexemes.get(w) and not lexemes[w] <= set(title))
        groups.setdefault(lacks, []).append(pk)
    return groups


def matching(q: str) -> tuple[Q, dict[str, Expression], Expression]:
    """(the condition, the aliases it reads, the rank) of claims matching `q`.

    A claim matches on its own words (the GIN index on Claim.search), its title's words
    checked with them (a title may hold a word left out); or, in an article whose title
    holds a word of `q`, on its words and the title's together, where it must itself hold
    the words its title lacks (the article key and the same GIN index). Every arm is
    indexed, so PostgreSQL ORs bitmaps instead of reading every claim of every article a
    word of `q` names. A title with no word of `q` changes no claim's rank (ts_rank reads
    the matched words only), so every claim is ranked on its words and its title's."""
    wanted = words_query(q)
    groups = _titled(q)
    own_rank = SearchRank(F("search"), wanted)
    if not groups:
        return Q(search=wanted), {}, own_rank
    # A claim matching on its own words matches with its title's too, unless the title holds
    # a word left out: only then is the pair checked (most claims' title holds no word of q).
    condition = Q(search=wanted, with_title=wanted) if _words(q)[1] else Q(search=wanted)
    for lacks, pks in groups.items():
        needs = Q(search=words_query(" ".join(lacks))) if lacks else Q()
        condition |= Q(article_id__in=pks, with_title=wanted) & needs
    together = _WithTitle(F("search"), F("article__title_search"))
    # Outside the titled articles the title adds no matched word, so the claim's own rank is
    # the same figure without joining the two vectors for every match.
    titled = [pk for pks in groups.values() for pk in pks]
    rank = Case(When(article_id__in=titled, then=SearchRank(together, wanted)), default=own_rank,
                output_field=FloatField())
    return condition, {"with_title": together}, rank


def has_words(q: str) -> bool:
    """Whether `q` holds a word the search can look for (not only "the", "of", "-", ...)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT numnode(websearch_to_tsquery(%s::regconfig, %s)) > 0", [CONFIG, q])
        return cursor.fetchone()[0]


def cut(q: str) -> tuple[str, bool]:
    """`q` cut to LIMIT characters at a word's end; (the search, whether it was cut)."""
    q = " ".join(q.split())
    if len(q) <= LIMIT:
        return q, False
    kept = q[:LIMIT + 1]
    kept = kept[:kept.rfind(" ")] if " " in kept else q[:LIMIT]
    return kept.rstrip(), True
