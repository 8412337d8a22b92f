"""Dates and ages read as an editor reads them: a claim's figure that follows from the page's
own figures and its date is given by the page.

"Unveiled in 2016, on the 125th anniversary of her birth" is what a page dated 2016 says when
it writes "unveiled ... 125 years after she was born there"; "at the age of 45" is what "born in
1950" and "in 1995" say together; "for 20 years" is "since 1996" on a page of 2016; "ten years
later" is 1984 and 1994. Such a figure is neither absent from the page nor contradicted by it,
and the words that carry it ("anniversary", "aged") are not absent either.
"""
from __future__ import annotations

import re

from verifier_core.verification.language.figures import Quantity, quantities
from verifier_core.verification.language.units import _TABLE

YEAR = _TABLE["year"][1]  # a year in the base unit of time (seconds)

# Words that make a claim's number a span of years counted between two of the page's years.
_SPAN_WORDS = re.compile(
    r"^\s*(?:-|\s)?(?:th|st|nd|rd)?\s*(?:anniversary|anniversaries|birthday|jubilee|year|years|yrs)\b"
    r"|^\s*-year-old\b|^\s*years?\s+old\b", re.I)
_AGE_BEFORE = re.compile(r"\b(?:aged|age\s+of|age|at)\s*$", re.I)
SPAN_TERMS = frozenset("anniversary anniversaries birthday jubilee age aged old later after earlier before".split())
AGE_SLACK = 1  # an age is one year either way of the years' difference (the birthday may not have come)


def span_of_years(claim: str, q: Quantity) -> int | None:
    """The number of years a claim's figure counts ("125th anniversary", "aged 45", "20 years",
    "a 30-year-old"), or None when it counts something else."""
    years = _years(q)
    if years is None or not 0 < years < 1000:
        return None
    after, before = claim[q.end:q.end + 24], claim[max(0, q.start - 12):q.start]
    if q.kind == "quantity" or _SPAN_WORDS.match(after) or _AGE_BEFORE.search(before) or (
            q.kind == "ordinal" and "anniversari" in q.key):
        return years
    return None


def _years(q: Quantity) -> int | None:
    """The whole number a figure gives, in years where it is a time ("20 years": 20)."""
    if q.kind not in ("ordinal", "count", "number", "quantity") or q.low != q.high:
        return None
    if q.kind == "quantity":
        value = q.low / YEAR if q.thing == "time" else None
        return round(value) if value is not None and abs(value - round(value)) < 1e-6 else None
    return int(q.low) if q.low == int(q.low) else None


def page_years(figures: list[Quantity]) -> list[int]:
    """Every year the page gives, its own date (a byline, the metadata) included."""
    years = {int(q.date[0]) if q.kind == "date" else int(q.low) for q in figures
             if (q.kind == "date" and q.date[0]) or q.kind == "year"}
    return sorted(years)


def follows(claim: str, q: Quantity, figures: list[Quantity]) -> bool:
    """Whether the page gives the claim's span of years: as a span itself ("125 years after")
    or as the difference of two of its years (an age one year either way)."""
    span = span_of_years(claim, q)
    if span is None:
        return False
    if any(_years(s) == span and span_of_years_in_page(s) for s in figures):
        return True
    years = page_years(figures)
    slack = AGE_SLACK if _AGE_BEFORE.search(claim[max(0, q.start - 12):q.start]) else 0
    return any(abs(b - a - span) <= slack for i, a in enumerate(years) for b in years[i + 1:])


def span_of_years_in_page(s: Quantity) -> bool:
    """A page figure that is a number of years ("125 years", "45-year-old", "aged 45")."""
    return (s.kind == "quantity" and s.thing == "time") or "year" in s.thing.lower() or bool(
        s.key & {"year", "anniversari", "age", "old"})


def reckoned_spans(claim: str, figures: list[Quantity]) -> list[tuple[int, int]]:
    """Where in the claim its figures that follow from the page's figures are written
    ("20 years" in "for 20 years")."""
    return [(q.start, q.end) for q in quantities(claim) if follows(claim, q, figures)]


def reckoned_terms(claim: str, figures: list[Quantity]) -> set[str]:
    """The claim's words (lower case) that a span of years the page gives carries: the figure as
    written and the span's own words ("125th", "anniversary")."""
    out = set()
    for q in quantities(claim):
        if follows(claim, q, figures):
            out.add(q.text.lower())
            near = claim[max(0, q.start - 12):q.end + 24].lower()
            out |= {w for w in re.findall(r"[a-z]+", near) if w in SPAN_TERMS}
    return out
