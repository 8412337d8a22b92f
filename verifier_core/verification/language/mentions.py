"""Whether a source mentions what a claim says, in any of its common forms: a figure
by its value (31 m = 31 metres = 102 ft = 102 feet; "eleven" = 11; "125th" = 125; a date
written any common way), a word by its stem or a near form of it ("visitor" and "visit").

"No passage of the source mentions X" is read by an editor who then searches the page for
X: it must be true of every form of X, and X must be what carries the claim (a name, a
figure with its unit, a key term), never a word such as "run" or the "Height" of an
infobox whose figure the page gives.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache

from verifier_core.verification.language.figures import Quantity, quantities
from verifier_core.verification.language.lexical import term_spans

MAX_NAMED = 3
# Letters two stems must share, and all but two of the shorter one's: "visit" and "visitor",
# "canada" and "canadian" are near forms.
NEAR_FORM = 5
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
# Words that name what a figure of a dimension measures: given the figure, they are given.
_MEASURES = {
    "length": "height high tall long length width wide deep depth distance elevation altitude rise rises span",
    "area": "area size cover covers covering extent",
    "mass": "weight weigh weighs heavy",
    "volume": "volume capacity",
    "speed": "speed fast",
    "time": "long duration last lasted",
    "percent": "percent share proportion",
    "power": "power output",
    "amount": "cost costs costing price priced worth value valued paid budget",
}
# Related words no stemmer or inflection joins: a page that says "born" mentions a birth.
# (Inflections, "risen" and "rose" of "rise", "women" of "woman", come from lemminflect.)
_FORMS = {"birth": "born", "born": "birth", "death": "died dead dies die", "died": "death dead", "dead": "death died",
          "marriage": "married marry", "married": "marriage", "person": "people", "people": "person",
          "won": "winner victory", "sold": "sale", "sale": "sold", "led": "leader"}
# Words too general to carry a claim: naming them sends the editor after nothing.
GENERAL = frozenset(
    "be become became been make made take took taken give gave given get got go went come came keep kept hold held "
    "put set show shown include including included use used run ran remain remained serve served work worked lead led "
    "also later well known called named many several various number part time way year years day days since "
    "first second third last new old early late former current currently main major large small".split())


def figure_given(claim_figure: Quantity, page_figure: Quantity) -> bool:
    """The page's figure gives the claim's: the same value in any unit or spelling."""
    a, b = claim_figure, page_figure
    if a.kind == "score" or b.kind == "score":
        return False
    if a.kind == "date" or b.kind == "date":
        return _dates_agree(a, b)
    if a.kind == "year" or b.kind == "year":
        return a.kind in ("year", "number") and b.kind in ("year", "number") and b.low <= a.low <= a.high <= b.high
    if a.kind == "quantity" and b.kind == "quantity":
        return bool(a.key & b.key) and a.holds(b)
    if "quantity" in (a.kind, b.kind):
        return False
    return b.low <= a.low <= b.high or a.low <= b.low <= a.high  # counts, numbers, ordinals


def _dates_agree(a: Quantity, b: Quantity) -> bool:
    """A date is given by one that agrees on every part both write (a year alone gives
    only a claimed year; "12 June 1869" gives "June 1869" and "1869")."""
    if a.kind == "year":
        return b.kind == "date" and b.date[0] == a.low
    if a.kind != "date" or b.kind != "date":
        return False
    shared = [(x, y) for x, y in zip(a.date, b.date) if x]
    return bool(shared) and all(x == y for x, y in shared)


def unmentioned(claim: str, page_terms: set[str], page_figures: list[Quantity], page_numbers: set[str],
                page_lower: str = "") -> list[str]:
    """What carries the claim that no passage (title, date and byline included) mentions
    in any form, as the claim writes it: figures with their units first, then names,
    then key terms (nouns before verbs); at most MAX_NAMED. `page_lower`, the page's text in
    lower case, finds the words the terms leave out ("own" is a stop word)."""
    figures = [q for q in quantities(claim) if q.kind != "score"]
    missing_figures = [q for q in figures if not _figure_mentioned(q, page_figures, page_numbers)]
    # The word for what a figure measures goes with the figure: "Height" of "Height: 31 m",
    # "costing" of "costing £1.2 million" (named, if at all, with the figure).
    implied = {t for q in figures if q.kind == "quantity" for _, _, t in term_spans(_MEASURES.get(q.thing, ""))}
    inside = [(q.start, q.end) for q in figures]
    words, seen = [], set()
    for a, b, term in term_spans(claim):
        written = claim[a:b]
        if any(s <= a < e for s, e in inside) or term in seen or term in implied or any(c.isdigit() for c in written):
            continue
        seen.add(term)
        if not _word_mentioned(written, term, page_terms, page_lower) and not _general(written):
            words.append(written)
    names = [w for w in words if w[:1].isupper()]
    rest = sorted((w for w in words if w not in names), key=lambda w: w.lower().endswith(("ed", "ing", "s")))
    named = [q.text for q in missing_figures] + names + rest
    return list(dict.fromkeys(named))[:MAX_NAMED]


def _general(written: str) -> bool:
    """Too general to carry a claim: "run", "first", an adverb in -ly ("badly")."""
    low = written.lower()
    return low in GENERAL or (written.islower() and low.endswith("ly") and len(low) > 4)


def _word_mentioned(written: str, term: str, page_terms, page_lower: str) -> bool:
    low = written.lower()
    forms = [low, *_FORMS.get(low, "").split(), *inflections(low)]
    return any(near_form(t, page_terms) or _in_text(w, t, page_lower)
               for w in dict.fromkeys(forms) for _, _, t in term_spans(w) or [(0, 0, w)])


@lru_cache(maxsize=4096)
def inflections(word: str) -> tuple[str, ...]:
    """Every inflected form of the word's lemmas ("risen": rise, rises, rose, rising...;
    "women": woman), irregular ones included, from lemminflect's tables (no model)."""
    from lemminflect import getAllInflections, getAllLemmas

    lemmas = {lemma for found in getAllLemmas(word).values() for lemma in found}
    forms = {form for lemma in lemmas for found in getAllInflections(lemma).values() for form in found}
    return tuple(sorted(lemmas | forms))


def _in_text(written: str, term: str, page_lower: str) -> bool:
    """The word as written, or a word its stem begins, is in the page's text."""
    if not page_lower:
        return False
    return bool(re.search(rf"\b(?:{re.escape(written.lower())}\b|{re.escape(term)})", page_lower))


def _figure_mentioned(q: Quantity, page_figures: list[Quantity], page_numbers: set[str]) -> bool:
    if any(figure_given(q, s) for s in page_figures):
        return True
    if q.kind in ("date", "quantity"):
        # Lenient where the page writes the number in a form not parsed as this kind of
        # figure: "no passage mentions" must never be false.
        return q.kind == "quantity" and all(n.replace(",", "") in page_numbers for n in _DIGITS.findall(q.text))
    written = [n.replace(",", "") for n in _DIGITS.findall(q.text)]
    return all(n in page_numbers for n in written) if written else False


def near_form(term: str, page_terms: set[str] | frozenset[str]) -> bool:
    """The term, or a near form of it ("visit" for "visitor"), is among the page's terms."""
    if term in page_terms:
        return True
    if len(term) < NEAR_FORM:
        return False
    head = term[:NEAR_FORM]
    return any(t.startswith(head) and len(os.path.commonprefix([t, term])) >= min(len(t), len(term)) - 2
               for t in page_terms)
