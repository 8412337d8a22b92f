"""Whether a page holds a term in any form an editor would accept, before anyone is told "no
passage of the source mentions it".

An editor who reads "no passage mentions “December 20, 1998”" searches the page and finds "Dec.
20, 1998": the statement was false. So a term counts as held when the page writes it in any
common form: case, diacritics and quote marks aside; a date in any format ("20 December 1998",
"Dec. 20, 1998", "1998-12-20"); a month named alone in any date of that month ("April" in
"April 2"); a decade in any year of it ("the 1990s" in "1994"); a number with or without its
separators, or in words; any inflection or near form of a word (plurals); an abbreviation
(a month's, a dotted or undotted set of initials, "St." for "Saint"). The page's own date
and title count as its text.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property

from verifier_core.retrieval.tokenize import tokenize
from verifier_core.verification.language.figures import NUMBER_WORDS, Quantity, month_number, quantities
from verifier_core.verification.language.mentions import figure_given, inflections, near_form

QUOTES = "\"'“”‘’«»„‹›`´"
_DECADE = re.compile(r"^(?:the\s+)?(?:early\s+|mid-?\s*|late\s+)?(\d{3})0['’]?s$", re.I)
# Short forms whose long form no stemmer joins (both ways).
_ABBREVIATIONS = {"st": "saint", "mt": "mount", "ft": "fort", "jr": "junior", "sr": "senior", "dr": "doctor",
                  "no": "number", "univ": "university", "dept": "department", "govt": "government", "&": "and",
                  "intl": "international", "assn": "association", "co": "company", "corp": "corporation"}
_LONG = {v: k for k, v in _ABBREVIATIONS.items()}
_SEPARATORS = re.compile(r"(?<=\d)[,\u00a0\u202f\u2009 '](?=\d{3}\b)")


def plain(text: str) -> str:
    """Lower case, no diacritics, quote marks as spaces, hyphens as spaces, spaces as one."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = text.translate({ord(q): " " for q in QUOTES}).replace("-", " ").replace("–", " ")
    return " ".join(text.split())


def bare(term: str) -> str:
    """A term as it is printed: no stray quote marks or punctuation around it ("1998”")."""
    return " ".join(str(term).split()).strip(QUOTES + " ,;:()[]")


@dataclass
class Page:
    """A page's text (lower case, metadata included) and its figures, read once for all terms."""

    lower: str
    figures: list[Quantity]
    terms: set[str]

    @cached_property
    def plain(self) -> str:
        return plain(self.lower)

    @cached_property
    def loose(self) -> str:
        """Full stops and commas aside, numbers without separators: "Dec. 20, 1998" as "dec 20 1998"."""
        return " ".join(re.sub(r"(?<!\d)[.,]|[.,](?!\d)", " ", _SEPARATORS.sub("", self.plain)).split())

    @cached_property
    def stems(self) -> set[str]:
        return set(tokenize(self.lower))

    @cached_property
    def words(self) -> set[str]:
        return set(re.findall(r"[^\W_]+", self.plain))

    @cached_property
    def years(self) -> list[int]:
        return sorted({int(q.date[0] or q.low) for q in self.figures if q.kind in ("year", "date")
                       and (q.date[0] or q.kind == "year")})

    def says(self, phrase: str) -> bool:
        """The phrase, as a whole-word run, in the page's plain or loose text."""
        want = plain(phrase)
        return bool(want) and any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) for w, text in (
            (want, self.plain), (" ".join(re.sub(r"(?<!\d)[.,]|[.,](?!\d)", " ", _SEPARATORS.sub("", want)).split()),
                                 self.loose)) if w)


def held(term: str, page: Page) -> bool:
    """Whether the page holds `term` in some form (module docstring)."""
    term = bare(term)
    if not term or page.says(term):
        return True
    figures = [q for q in quantities(term) if q.kind != "score"]
    if figures and all(_figure_held(q, page) for q in figures):
        return True
    if (month := month_number(term)) and _month_held(month, page):
        return True
    if (decade := _DECADE.match(plain(term))) and any(y // 10 == int(decade[1]) for y in page.years):
        return True
    if _initials_held(term, page):
        return True
    if (number := {**NUMBER_WORDS, "one": 1}.get(plain(term))) is not None and page.says(str(number)):
        return True
    words = [w for w in re.findall(r"[^\W_]+(?:[.'’][^\W_]+)*\.?", term) if w]
    return bool(words) and all(_word_held(w, page) for w in words)


def _figure_held(q: Quantity, page: Page) -> bool:
    if any(figure_given(q, s) for s in page.figures):
        return True
    if q.kind == "date" and not q.date[0] and not q.date[2]:
        return _month_held(q.date[1], page)
    if q.kind not in ("count", "number", "ordinal"):
        return False
    digits = _SEPARATORS.sub("", q.text).replace(",", "")
    value = f"{q.low:g}" if q.low == q.high else ""
    return any(page.says(form) for form in (digits, value, _in_words(q.low)) if form)


def _in_words(value: float) -> str:
    return next((w for w, n in NUMBER_WORDS.items() if n == value), "")


def _month_held(month: int, page: Page) -> bool:
    """A month named alone is held by any date of that month the page gives, in any form."""
    return any(q.kind == "date" and q.date[1] == month for q in page.figures) or any(
        month_number(w) == month for w in page.words if len(w) >= 3)


def _initials_held(term: str, page: Page) -> bool:
    """"U.S." and "US" are one; "NHL" is held by "National Hockey League" and the reverse."""
    letters = term.replace(".", "").replace(" ", "")
    if letters.isalpha() and letters.isupper() and 1 < len(letters) <= 6:
        dotted = ".".join(letters).lower() + "."
        if page.says(letters) or dotted in page.lower:
            return True
        pattern = r"\b" + r"\S*\s+(?:(?:of|the|and|for|de|du)\s+)*".join(re.escape(c.lower()) for c in letters)
        return re.search(pattern + r"\w*", page.plain) is not None
    capitals = [w for w in term.split() if w[:1].isupper() and w.lower() not in ("of", "the", "and", "for")]
    if len(capitals) > 1:
        initials = "".join(w[0] for w in capitals).lower()
        return re.search(rf"(?<!\w){initials}(?!\w)", page.plain) is not None or (
            ".".join(initials) + ".") in page.plain
    return False


def _word_held(word: str, page: Page) -> bool:
    low = plain(word).strip(".")
    if not low or low in page.words:
        return True
    if (short := _ABBREVIATIONS.get(low)) and short in page.words or (long := _LONG.get(low)) and long in page.words:
        return True
    if low.isdigit():
        return page.says(low)
    forms = {low, *inflections(low)}
    if any(f in page.words for f in forms):
        return True
    stems = tokenize(low)
    return bool(stems) and all(s in page.stems or near_form(s, page.terms) for s in stems)
