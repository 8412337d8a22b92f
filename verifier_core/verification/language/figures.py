"""Figures in a text, each with what it is: a year, a date, a count of something, a
quantity in a unit, an ordinal, a score, or a bare number named by the word before it.

"eleven boats" and "1.2 km" are both numbers, but only figures of one kind about one
thing can contradict each other (quantities.py compares them). A figure carries the
content words around it (what it is about), its value as an interval (a range holds
many values; "1.2 km" holds 1.15 to 1.25 km as written) and a key saying which thing
it measures: the counted noun's stems, the unit's dimension, the word naming it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from verifier_core.retrieval.tokenize import stop_words
from verifier_core.verification.language.lexical import term_spans
from verifier_core.verification.language.naming import LENGTH_WORDS
from verifier_core.verification.language.units import CURRENCY_BEFORE, MULTIPLIERS, currency_before, unit_after

_MONTHS = {m.lower(): i for i, m in enumerate(
    "January February March April May June July August September October November December".split(), 1)}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())} | {"sept": 9})
_MONTH = r"(?:%s)\.?" % "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATES = (  # (pattern, which group is the year, month, day); never inside a URL path
    (re.compile(r"(?<![/\d])(\d{4})-(\d{1,2})-(\d{1,2})(?![/\d])"), (1, 2, 3)),
    (re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(%s),?\s+(\d{4})\b" % _MONTH, re.I), (3, 2, 1)),
    (re.compile(r"\b(%s)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b" % _MONTH, re.I), (3, 1, 2)),
    (re.compile(r"\b(%s),?\s+(\d{4})\b" % _MONTH, re.I), (2, 1, None)),
    # A day and month with no year ("on April 9"): the year is 0, compared where written.
    (re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(%s)\b" % _MONTH, re.I), (None, 2, 1)),
    (re.compile(r"\b(%s)\s+(\d{1,2})(?:st|nd|rd|th)?\b(?![\d,.:])" % _MONTH, re.I), (None, 1, 2)),
    # A month alone after a preposition ("planned for June"): a date of its month only. Only
    # capitalised and after a preposition: "may" and "march" are verbs, "Theresa May" a name.
    (re.compile(r"\b(?:in|for|until|till|by|from|since|through|during|early|late|mid-|last|next)\s+(%s)\b(?!\s?\d)"
                % "|".join(m.capitalize() for m in _MONTHS if len(m) > 3 or m == "may")), (None, 1, None)),
)
# A sentence that dates the page itself (a byline, "Published", "Updated"): its dates are
# the page's, never a contradiction of the claim's.
_PAGE_DATE = re.compile(r"\b(?:published|posted|updated|modified|retrieved|accessed|copyright|datetime)\b|©"
                        r"|\bby\s+[A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+)*\s+on\b", re.I)
# A sentence that also names a year in words ("this year", "last season"): it states a year it
# does not write, so a year it does write is not the only one it gives.
_YEAR_IN_WORDS = re.compile(r"\b(?:this|last|next|previous|same|following)\s+(?:year|season)\b", re.I)
NUMBER_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())}
NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
                     "ninety": 90, "hundred": 100, "dozen": 12})
del NUMBER_WORDS["one"]  # "one of the", "no one": rarely a count, never one worth contradicting
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
# "twenty-seven" is one number; the longest form first, so that "twenty" is not read alone.
_WORDS = r"(?:%s)-(?:one|two|three|four|five|six|seven|eight|nine)|%s" % (_TENS, "|".join(NUMBER_WORDS))
_NUMBER = re.compile(
    r"(?<![\w.,/-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(%s)\b)?(st|nd|rd|th)?(?![\w])|\b(%s)\b"
    % ("|".join(MULTIPLIERS), _WORDS), re.I)
# Every figure has a digit, a month or a number word: a sentence without one is skipped.
_MAY_HOLD_FIGURE = re.compile(r"\d|\b(?:%s|%s)" % ("|".join(_MONTHS), _WORDS), re.I)
_RANGE_JOIN = re.compile(r"\s*(?:–|—|-|to|and)\s*$", re.I)
_NOUN = re.compile(r"\s*(?:[-–]\s*)?([^\W\d_][\w'-]*)")
_STOP_NOUNS = {"of", "and", "or", "to", "in", "on", "at", "by", "for", "from", "with", "the", "a", "an", "per",
               "than", "more", "less", "times", "percent", "was", "were", "is", "are", "had", "has"}
_PART_OF = re.compile(r"\b(?:including|includes|include|among them|among whom|of whom|of which|of them)\s+$", re.I)
_PARTITIVE = re.compile(r"\s+of\s+(?:the|her|his|its|their|these|those|our)\s+(?:(?:\d+|%s)\s+)?" % _WORDS, re.I)
# A sentence ends at a full stop, but not at a month's ("Dec. 20, 1998" is one date).
_NOT_AN_END = "".join(rf"(?<!\b{m.capitalize()}\.)" for m in ("jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
                                                                "sept", "oct", "nov", "dec"))
_SENTENCE = re.compile(rf"(?<=[.!?]){_NOT_AN_END}\s+|\n+")
SENTENCE_BREAK = _SENTENCE  # where the figure rules (and the figure reading) end a sentence
WINDOW = 8  # content words either side that say what a figure is about


@dataclass(frozen=True)
class Quantity:
    value: str  # normalised: "1996", "2", "3.5", "1996-05-01"
    text: str  # as written
    start: int
    end: int
    kind: str  # "year" | "date" | "count" | "quantity" | "number" | "ordinal" | "score"
    context: frozenset[str]  # content terms around it (figures excluded)
    nearby: frozenset[str] = frozenset()  # the previous sentence's terms
    low: float = 0.0  # the values it gives, as written (a range gives many), in the base unit
    high: float = 0.0
    key: frozenset[str] = frozenset()  # what it measures: counted noun stems, a dimension, a naming word
    thing: str = ""  # that, as written: "boats", "length", "aged"
    date: tuple[int, int, int] = (0, 0, 0)  # dates: (year, month, day); 0 where not written
    page_date: bool = False  # in a sentence that dates the page (a byline), not a fact
    year_in_words: bool = False  # its sentence also says "this year", "last season"...
    sentence: frozenset[str] = frozenset()  # the content terms of its whole sentence
    spread: float = 0.0  # half its last written digit: "1.2 km" may stand for 1.15 to 1.25 km
    aspect: str = ""  # which length the words around a length name: "height" ("Height: 31 m", "rises 31 m")
    part: bool = False  # a count given as part of a larger one: "including four Nobel laureates"

    def holds(self, other: "Quantity") -> bool:
        """This figure, rounded as written, may stand for a value `other` gives: "31 m" holds
        "102 ft", "1994" holds "1990–1998". Only this figure's rounding counts: "3" never
        holds "4", and "$1.5 million" does not hold "$2 million" (which could be 1.5 to 2.5)."""
        return self.low - self.spread <= other.high and other.low <= self.high + self.spread


class _Found(NamedTuple):
    """A figure found in one sentence, before its context is placed around it."""
    start: int
    end: int
    kind: str
    value: str = ""
    low: float = 0.0
    high: float = 0.0
    key: frozenset[str] = frozenset()
    thing: str = ""
    date: tuple[int, int, int] = (0, 0, 0)
    spread: float = 0.0
    aspect: str = ""


def quantities(text: str, offset: int = 0) -> list[Quantity]:
    """Every figure of `text`, sentence by sentence, with the content words around it and
    the previous sentence's words: sources say "It reopened in 1996" after naming the line."""
    pieces, pos = [], 0
    for piece in _SENTENCE.split(text):
        pieces.append((text.find(piece, pos), piece))
        pos = pieces[-1][0] + len(piece)
    # Most sentences of a page hold no figure: only those that do, and the sentences just
    # before them, are tokenised (most of the cost).
    figures = [_figures(piece) if _MAY_HOLD_FIGURE.search(piece) else [] for _, piece in pieces]
    out, previous = [], frozenset()
    for i, (start, piece) in enumerate(pieces):
        if not figures[i] and not (i + 1 < len(pieces) and figures[i + 1]):
            continue
        words = [s for s in term_spans(piece) if not any(c.isdigit() for c in piece[s[0]:s[1]])
                 and s[2] not in NUMBER_WORDS]
        flags = (_PAGE_DATE.search(piece) is not None, _YEAR_IN_WORDS.search(piece) is not None)
        sentence = frozenset(t for _, _, t in words)
        for found in figures[i]:
            before = [t for a, _, t in words if a < found[0]][-WINDOW:]
            after = [t for a, _, t in words if a >= found[1]][:WINDOW]
            out.append(_placed(found, offset + start, piece, (frozenset(before + after), sentence), previous, flags))
        previous = sentence
    return out


def _placed(found: _Found, base: int, piece: str, contexts, previous, flags: tuple[bool, bool]) -> Quantity:
    context, sentence = contexts
    return Quantity(found.value, piece[found.start:found.end], base + found.start, base + found.end, found.kind,
                    context, previous, found.low, found.high, found.key, found.thing, found.date, *flags,
                    sentence=sentence, spread=found.spread, aspect=found.aspect,
                    part=_PART_OF.search(piece[max(0, found.start - 20):found.start]) is not None)


def _figures(piece: str) -> list[_Found]:
    """Each figure of one sentence, in order."""
    found, taken = [], []
    for pattern, order in _DATES:
        for match in pattern.finditer(piece):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue
            span = match.span(match.lastindex) if order == (None, 1, None) else match.span()
            taken.append(span)
            if order is not None and (date := _date(match, order)) is not None:
                value = "-".join(f"{p:02d}" for p in date if p)
                found.append(_Found(*span, "date", value, date[0], date[0], date=date))
    singles = [m for m in _NUMBER.finditer(piece) if not any(a < m.end() and m.start() < b for a, b in taken)]
    found += _numbers(piece, singles)
    return sorted(found)


def month_number(word: str) -> int:
    """The month a word names, in full or short ("Dec.", "sept"), or 0."""
    return _MONTHS.get(word.strip().lower().rstrip("."), 0)


def _date(match: re.Match, order: tuple) -> tuple[int, int, int] | None:
    year = int(match.group(order[0])) if order[0] else 0
    raw_month = match.group(order[1])
    month = int(raw_month) if raw_month.isdigit() else _MONTHS.get(raw_month.lower().rstrip("."), 0)
    day = int(match.group(order[2])) if order[2] else 0
    if not ((year == 0 or 1000 <= year <= 2100) and 1 <= month <= 12 and 0 <= day <= 31):
        return None
    return year, month, day


def _numbers(piece: str, matches: list[re.Match]) -> list[_Found]:
    out, skip = [], set()
    for i, match in enumerate(matches):
        if i in skip:
            continue
        low, high, end = *([_value(match)] * 2), match.end()
        following = matches[i + 1] if i + 1 < len(matches) else None
        if following is not None and _RANGE_JOIN.match(piece[end:following.start()]) and match.group(4) is None:
            other = _value(following)
            if 1000 <= low <= 2100 and other < 100 and low % 100 < other:  # "2019–20", "1616–17"
                other += low - low % 100
            if low > other:  # "5–4": a score, never compared
                out.append(_Found(match.start(), following.end(), "score"))
                skip.add(i + 1)
                continue
            high, end = other, following.end()
            skip.add(i + 1)
        out.append(_classified(piece, match, low, high, end))
    return out


def _word_value(words: str) -> int:
    """"eleven": 11, "twenty-seven": 27 ("one" is no count alone, but a unit of a compound)."""
    return sum(NUMBER_WORDS.get(w, 1) for w in words.lower().split("-"))


def _value(match: re.Match) -> float:
    if match.group(5):
        return float(_word_value(match.group(5)))
    number = float(match.group(1).replace(",", "") + (match.group(2) or ""))
    return number * MULTIPLIERS.get((match.group(3) or "").lower(), 1.0)


def _classified(piece: str, match: re.Match, low: float, high: float, end: int) -> _Found:
    """Year, ordinal, quantity (a unit follows), count (a noun follows) or number."""
    start = match.start()
    half = _half_digit(match)
    value = _shown(low) if low == high else f"{_shown(low)}–{_shown(high)}"
    if match.group(4):  # "125th"
        noun, stems = _noun_after(piece, end)
        return _Found(start, end, "ordinal", value, low, high, stems, noun)
    if (currency := currency_before(piece, start)) is not None:
        sign = CURRENCY_BEFORE.search(piece[max(0, start - 4):start])  # written with its sign: "$1.5 million"
        return _Found(start - len(sign.group(0)), end, "quantity", value, low, high, frozenset({f"money:{currency}"}),
                      "amount", spread=half)
    unit = unit_after(piece, end)
    if unit is not None:
        size, _, unit_end = unit
        aspect = _aspect(piece, start, unit_end) if size.dimension == "length" else ""
        return _Found(start, unit_end, "quantity", value, low * size.factor, high * size.factor,
                      frozenset({size.dimension}), size.dimension, spread=half * size.factor, aspect=aspect)
    noun, stems = _noun_after(piece, end)
    if _is_year(match, low, high) and not (noun and noun.islower() and noun.endswith("s")) \
            and not _named_by(piece, start, end):
        return _Found(start, end, "year", value, low, high)
    if stems and _counted(noun, low):
        return _Found(start, end, "count", value, low, high, stems, noun, spread=half)
    name, name_stems = _word_before(piece, start)
    return _Found(start, end, "number", value, low, high, name_stems, name, spread=half)


_WORD = re.compile(r"[^\W\d_]+")


def _aspect(piece: str, start: int, end: int) -> str:
    """Which length a figure gives, by a word right after it ("31 m tall", "two metres in
    height") or among the three words before it ("Height: 31 m", "the tower rises 31 m")."""
    after = _WORD.findall(piece[end:end + 30])[:3]
    before = _WORD.findall(piece[max(0, start - 40):start])[-3:]
    return next((LENGTH_WORDS[w.lower()] for w in [*after, *reversed(before)] if w.lower() in LENGTH_WORDS), "")


def _is_year(match: re.Match, low: float, high: float) -> bool:
    plain = match.group(1) and "," not in match.group(1) and not match.group(2) and not match.group(3)
    return bool(plain) and 1000 <= low <= high <= 2100


# A capitalised word right before a number, inside a sentence, names it when a noun follows
# ("the Amiga 1000 computer") or the name is a possessive ("Swift's 1989"): a model and an
# album, not years. A title's year ("Health Status of Canadians 2016: Report") stays a year.
_NAME_BEFORE = re.compile(r"\w[\w,;)\"”']*\s+([A-Z][^\W\d_][\w-]*)('s|’s)?\s+$")
_WORD_AFTER = re.compile(r"\s+([a-z]+)\b")
_SEASONS = {"spring", "summer", "autumn", "fall", "winter"}
# Plurals with no plural ending, and nouns that count as they are ("200 staff").
_COUNTED_AS_IS = {"people", "staff", "crew", "police", "personnel", "cattle", "aircraft", "sheep", "deer", "fish",
                  "series", "species", "offspring", "data"}


def _named_by(piece: str, start: int, end: int) -> bool:
    match = _NAME_BEFORE.search(piece[max(0, start - 60):start])
    name = match.group(1).lower() if match else ""
    if not name or name in stop_words() or name in _MONTHS or name in _SEASONS:
        return False
    after = _WORD_AFTER.match(piece, end)
    return bool(match.group(2)) or (after is not None and after.group(1) not in stop_words())


def _counted(noun: str, low: float) -> bool:
    """A noun after a figure counts it when it is plural ("five lifeboats", "25 people"),
    or the figure is one: a singular noun after a larger number names a thing by its
    number ("the 747 Shuttle Bus", "the 204 bus", "a 2 bedroom flat")."""
    head = noun.split()[-1].lower()
    return low <= 1 or "-" in head or head in _COUNTED_AS_IS or _plural(head)


@lru_cache(maxsize=4096)
def _plural(noun: str) -> bool:
    from lemminflect import getLemma  # tables only, loaded on first use
    return noun not in getLemma(noun, upos="NOUN")


def _half_digit(match: re.Match) -> float:
    """Half the last written digit: "1.2" holds 1.15-1.25; "31" 30.5-31.5; "1,500" 1,450-1,550.
    A number word is as rounded as its digits: "eleven kilometres" holds "seven miles"."""
    if match.group(5):
        decimals, digits = None, str(_word_value(match.group(5)))
    else:
        decimals, digits = match.group(2), match.group(1).replace(",", "")
    if decimals:
        step = 10 ** -(len(decimals) - 1)
    else:
        zeros = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
        step = 10 ** min(zeros, 2) if len(digits) > 2 else 1
    return step / 2 * MULTIPLIERS.get((match.group(3) or "").lower(), 1.0)


def _noun_after(piece: str, end: int) -> tuple[str, frozenset[str]]:
    """The words a figure counts: after it, to its head noun, the first plural among the
    next three words before a function word ("two all-weather lifeboats", "five award
    nominations"), else the word right after it ("25 people")."""
    words, pos, stop = [], end, stop_words()
    if (partitive := _PARTITIVE.match(piece, end)) is not None:  # "nineteen of the twenty-two men"
        pos = partitive.end()
    while len(words) < 3 and (match := _NOUN.match(piece, pos)):
        word = match.group(1).lower()
        if word in _STOP_NOUNS or word in stop or word in NUMBER_WORDS:
            break
        words.append(match.group(1))
        pos = match.end()
    if not words or words[0].lower() in _MONTHS:
        return "", frozenset()
    plural = next((i for i, w in enumerate(words) if w.lower().endswith("s") and len(w) > 2), None)
    words = words[: plural + 1] if plural is not None else words[:1]
    stems = frozenset(t for _, _, t in term_spans(" ".join(words)))
    return " ".join(words), stems


def _word_before(piece: str, start: int) -> tuple[str, frozenset[str]]:
    """A bare number is named by the content word right before it ("aged 31", "No. 5")."""
    spans = [s for s in term_spans(piece[:start]) if not piece[s[0]:s[1]].isdigit()]
    if not spans or piece[spans[-1][1]:start].strip(" .:") != "":
        return "", frozenset()
    a, b, term = spans[-1]
    return piece[a:b], frozenset({term})


def _shown(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
