"""A claim's figures against the source's own figures for the same thing.

A claim that says a railway reopened in 1994 when its source says 1996 reads, to every
similarity model, as well supported: the words all match. Here each figure of the claim
(figures.py says what it is) is compared only with the source's figures of the same kind
about the same thing: a year with a year, a date with a date, a count with a count of the
same noun, a quantity with a quantity of the same dimension (converted: 31 m holds
102 ft), a bare number with one named by the same word. Figures the source derives are
no contradiction: a range that holds the claimed value, a total of the source's counts,
a year N years before an "Nth anniversary". When the source's figure for the same thing
(in the most similar wording) is another one, the reason says so, naming the thing:
"the source gives the year the line reopened as 1996, not 1994" (naming.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from verifier_core.verification.evidence.parts import split_claim
from verifier_core.verification.language.figures import NUMBER_WORDS, Quantity, quantities
from verifier_core.verification.language.lexical import term_spans
from verifier_core.verification.language.mentions import GENERAL, near_form
from verifier_core.verification.language.naming import thing_of, thing_words, which_length

__all__ = ["Mismatch", "Quantity", "figure_words", "mismatches", "quantities", "says_less"]

MIN_OVERLAP = 2  # shared context words before two figures count as "the same thing"
PRESENT_MARGIN = 3  # how much closer a rival's wording must be when the claim's figure is there too
SPAN_RATIO = 10  # spans of time further apart than this are of different things (_other_span)
COMPARED = ("year", "date", "count", "quantity", "number", "ordinal")
_ANNIVERSARY = "anniversari"  # the Snowball stem of "anniversary"
_DIMENSION_WORDS = {"amount": "amount", "length": "length", "mass": "mass", "area": "area", "volume": "volume",
                    "speed": "speed", "time": "duration", "percent": "share", "power": "power"}


FIGURE_REASON = "the source gives "  # how every figure reason starts (DESIGN.md's verify_jsonl contract)


def figure_words(thing: str, given: str, claimed: str, who: str = "the source") -> str:
    """A contradicted figure in words: "the source gives the year the line reopened as 1996,
    not 1994" (the one template; `who` names the page when one of several speaks)."""
    what = f"{thing} as " if thing else ""
    return f"{who} gives {what}{given}, not {claimed}"


@dataclass(frozen=True)
class Mismatch:
    claim: Quantity
    source_value: str
    source_text: str
    thing: str = ""  # what the two figures are of, in words: "the year the line reopened"
    source_start: int = -1  # where the source's figure is, in its text (the quote is its sentence)
    source: Quantity | None = None  # the source's figure itself
    agreeing: tuple[Quantity, ...] = ()  # the source's figures that give the claim's (none: never given)

    @property
    def reason(self) -> str:
        return figure_words(self.thing, self.source_text, self.claim.text)


def says_less(claimed: str, given: str) -> bool:
    """Whether the source's figure leaves out part of the claim's ("June 9th" for "June 4,
    2013": no year), so that writing it in the claim's place would lose what the claim says."""
    a, b = quantities(claimed), quantities(given)
    if len(a) != 1 or len(b) != 1:
        return False  # not two figures read back: the editor sees the change before it is saved
    return a[0].kind == b[0].kind == "date" and any(x and not y for x, y in zip(a[0].date, b[0].date))


def comparable(claim: Quantity, source: Quantity) -> bool:
    """Figures of one kind about one thing; a date also gives its year, for agreement."""
    if claim.kind not in COMPARED or claim.kind != source.kind:
        return False
    if claim.kind in ("count", "quantity", "number", "ordinal"):
        return bool(claim.key & source.key) and not _other_span(claim, source)
    return True


def _other_span(claim: Quantity, source: Quantity) -> bool:
    """Measures of one dimension more than SPAN_RATIO times apart: a text tells of many (a
    career of 11 years, a match of 120 minutes, a 31-metre tower and a quarry eleven
    kilometres away), and one of them misquoted is not ten times larger or smaller. Not sums of
    money: "$157,000" and "$85 million" may be one figure, misquoted."""
    if claim.kind != "quantity" or source.kind != "quantity" or "amount" in (claim.thing, source.thing):
        return False
    short, long = sorted((max(claim.high, 1e-9), max(source.high, 1e-9)))
    return long > SPAN_RATIO * short


def agrees(claim: Quantity, source: Quantity) -> bool:
    if claim.kind == "date" and source.kind == "date":
        return all(a == b for a, b in zip(claim.date, source.date) if a and b)
    return claim.holds(source)


def mismatches(claim: str, source: str, source_quantities: list[Quantity] | None = None,
               page_terms: set[str] | frozenset[str] | None = None) -> list[Mismatch]:
    """Claim figures the source contradicts: a figure of the same kind about the same thing
    in wording shared with the claim (MIN_OVERLAP words), where the source does not derive
    the claim's figure and either
    - never gives it: then only the sentence that states the claim's part counts, and it
      gives another figure (`_never_given`); a figure elsewhere is about something else;
    - or gives it, but the sentence stating the claim's part gives another one (a planted
      swap: a figure taken from elsewhere on the page, `_restated`);
    - or gives it only in wording much further from the claim's (PRESENT_MARGIN words
      fewer shared): the figure closest to the claim's words is another one.
    Two kinds of figure need no wording in common: a full date with one part changed
    (`_near_date`), and a named length ("Height: 41 m") of a thing the page speaks of
    (`page_terms`, else the source's words) where the page gives one other (`_sole_length`)."""
    found = source_quantities if source_quantities is not None else quantities(source)
    vocabulary = _Vocabulary(source, found, page_terms)
    own = quantities(claim)
    words = term_spans(claim)
    parts = [(p.start, p.end) for p in split_claim(claim)]
    pairs = []
    for q in own:
        if _month_only(q) or _derived(q, found):
            continue
        # The words of the claim's part that holds q, less q's own ("March" of "24 March 1960").
        a, b = next(((a, b) for a, b in parts if a <= q.start < b), (0, len(claim)))
        part = frozenset(t for s, _, t in words if a <= s < b and not q.start <= s < q.end)
        # What a named length is of, read only where the source gives a length of that name.
        named = _named_terms(q, claim) if q.aspect and any(s.aspect == q.aspect for s in found) else []
        rival = _rival(q, own, found, part, _thing_terms(q, claim), named if vocabulary.speaks_of(named) else [])
        if rival is not None:
            pairs.append((q, rival))
    kept = _one_occasion(pairs, own, found)
    # A figure the claim also gives in other units ("41 m (135 ft)") is said once.
    kept = [(q, r) for n, (q, r) in enumerate(kept) if not any(_same_figure(q, o) for o, _ in kept[:n])]
    return [Mismatch(q, r.value, r.text, _thing(q, claim, _shared(q, r)), r.start, r, _given(q, own, found))
            for q, r in kept]


def _given(q: Quantity, own: list[Quantity], found: list[Quantity]) -> tuple[Quantity, ...]:
    """The source's figures that give the claim's, in a sentence of their own (no byline),
    closest in wording to the claim's first."""
    agreeing = [s for s in candidates(q, own, found)[1] if not s.page_date]
    return tuple(sorted(agreeing, key=lambda s: -len(_shared(q, s))))


def _same_figure(q: Quantity, other: Quantity) -> bool:
    return comparable(q, other) and agrees(q, other)


def _one_occasion(pairs: list[tuple[Quantity, Quantity]], own: list[Quantity], found: list[Quantity]):
    """Rivals from a sentence that differs from the claim in every figure it could compare
    tell of another occasion ("in 2023 the harbour welcomed 150 vessels" against "in 2019
    the harbour handled 212"), not of the claim's: a planted error changes one figure."""
    by_sentence: dict[tuple, list] = {}
    for q, r in pairs:
        by_sentence.setdefault((r.sentence, r.nearby), []).append((q, r))
    other = set()
    for key, group in by_sentence.items():
        here = [s for s in found if (s.sentence, s.nearby) == key]
        figures = [q for q in own if any(comparable(q, s) for s in here)]
        agreeing = any(comparable(q, s) and agrees(q, s) for q in own for s in here)
        if _distinct(figures) > 1 and len({id(q) for q, _ in group}) == len(figures) and not agreeing:
            other |= {id(q) for q, _ in group}
    return [(q, r) for q, r in pairs if id(q) not in other]


def _distinct(figures: list[Quantity]) -> int:
    """Figures counted once per value: "41 m (135 ft)" is one figure in two units."""
    kept: list[Quantity] = []
    for q in figures:
        if not any(_same_figure(q, k) for k in kept):
            kept.append(q)
    return len(kept)


def _rival(q: Quantity, own: list[Quantity], found: list[Quantity], part: frozenset[str],
           anchors: list[str], named: list[str]) -> Quantity | None:
    """The source's figure for the thing `q` is about, when it is another one."""
    same, agreeing, others = candidates(q, own, found)
    if (misdated := _near_date(q, others, agreeing)) is not None:
        return misdated
    if (sole := _sole_length(q, others, found, named)) is not None:
        return sole
    rivals = [s for s in others if _about_it(anchors, s)]
    if not rivals:
        return None
    if not agreeing:
        return _never_given(q, part, found, same, rivals)
    best = max(rivals, key=lambda s: (len(_shared(q, s)), len(q.context & s.context)))
    agree = max(len(q.context & s.context) for s in agreeing)
    if len(_shared(q, best)) >= MIN_OVERLAP and len(q.context & best.context) >= agree + PRESENT_MARGIN:
        return best
    # A page's own date (a byline) agrees, but no sentence of it states anything.
    return _restated(q, part, rivals, [s for s in agreeing if not s.page_date])


def candidates(q: Quantity, own: list[Quantity], found: list[Quantity]):
    """(the source's figures comparable with `q`, those that agree with it, those that could
    be rivals). A source figure that another figure of the claim gives is that figure's, not
    a rival; nor is a page's own date, a month alone, part of a larger count, or a year in a
    sentence that names another in words ("this year") when the page gives the claimed year:
    "this year" may be it."""
    same = [s for s in found if comparable(q, s)]
    agreeing = [s for s in same if agrees(q, s)] + _dated_years(q, found)
    others = [s for s in same if not agrees(q, s) and not s.page_date and not _month_only(s) and not _part(q, s)
              and not _apart_in_month_only(q, s)
              and not (s.year_in_words and q.kind in ("year", "date") and agreeing)
              and not any(o is not q and comparable(o, s) and agrees(o, s) for o in own)]
    return same, agreeing, others


def _near_date(q: Quantity, others: list[Quantity], agreeing: list[Quantity]) -> Quantity | None:
    """A full date the source gives with one part of the claim's changed ("first lit on 1
    October 1862" for the claim's "1 October 1872"), in words shared with the claim's around
    it (MIN_OVERLAP), where no date of the source agrees with the claim's ("October 1872"
    would): one event, misdated, whatever else the two sentences say ("the lamp" for "the
    tower"). Only one such date: two (an anniversary's day in other years) name none."""
    if q.kind != "date" or not all(q.date) or any(s.kind == "date" and s.date[0] for s in agreeing):
        return None
    near = [s for s in others if all(s.date) and sum(a != b for a, b in zip(q.date, s.date)) == 1
            and len(_shared(q, s)) >= MIN_OVERLAP]
    return near[0] if len({s.value for s in near}) == 1 else None


class _Vocabulary:
    """The source's words, read once and only when a rule asks: the verifier's own page
    terms, else the source's text, else the sentences around its figures."""

    def __init__(self, source: str, found: list[Quantity], page_terms):
        self._source, self._found, self._terms = source, found, page_terms

    def speaks_of(self, thing: list[str]) -> bool:
        if not thing:
            return False
        if self._terms is None:
            self._terms = (frozenset(t for _, _, t in term_spans(self._source)) if self._source else
                           frozenset().union(*(s.sentence | s.nearby for s in self._found)))
        return all(near_form(t, self._terms) for t in thing)


def _sole_length(q: Quantity, others: list[Quantity], found: list[Quantity], thing: list[str]) -> Quantity | None:
    """A length the claim names (its height, width, depth...: "Height: 41 m") of a thing the
    source speaks of (`thing`: every word of it, names too; empty when it does not), where
    every length of that name the source gives is one other value ("the tower rises 31
    metres (102 feet)") and no length of the source that could be it agrees: the source's
    figure for it, whatever words the two use around it (an infobox row shares few)."""
    if q.kind != "quantity" or not q.aspect or not thing or any(
            comparable(q, s) and agrees(q, s) and s.aspect in ("", q.aspect) for s in found):
        return None
    named = [s for s in others if s.aspect == q.aspect]
    return named[0] if named and all(named[0].holds(s) or s.holds(named[0]) for s in named) else None


def _never_given(q: Quantity, part: frozenset[str], found: list[Quantity], same: list[Quantity],
                 rivals: list[Quantity]) -> Quantity | None:
    """The source never gives the claimed figure. The sentence that states the claim's part
    (of all sentences with a figure, the one sharing most of its words) gives another, in
    wording shared with the claim's (MIN_OVERLAP words); a figure elsewhere is about something
    else. Where that sentence gives no figure of this kind, the one stating most of the part
    among those that do counts only when the words right around its figure say more of what
    the claim figure's say (one word more): "the bout takes place on June 9th in
    Marlbury" for "the bout took place on June 4, 2013 in Marlbury"."""
    top = max((_states(part, s) for s in found), default=0)
    stating = [s for s in rivals if _states(part, s) == top]
    if stating:
        best = max(stating, key=lambda s: (len(_shared(q, s)), len(q.context & s.context)))
        if len(_shared(q, best)) >= MIN_OVERLAP:
            return best
    top = max(_states(part, s) for s in same)
    stating = [s for s in rivals if _states(part, s) == top]
    best = max(stating, key=lambda s: (len(q.context & s.context), len(_shared(q, s))), default=None)
    return best if best is not None and len(q.context & best.context) > MIN_OVERLAP else None


def _restated(q: Quantity, part: frozenset[str], rivals: list[Quantity], agreeing: list[Quantity]) -> Quantity | None:
    """The source gives the claimed figure, but elsewhere: the sentence that states the
    claim's part (more of it than any sentence giving the claimed figure) gives another
    figure, and that figure's own words are closer to the claim figure's than those of any
    figure that agrees. What a swap looks like: one figure of the page put in another's place."""
    top = max(_states(part, s) for s in rivals)
    if not agreeing or top <= max(_states(part, s) for s in agreeing):
        return None
    rival = max((s for s in rivals if _states(part, s) == top),
                key=lambda s: (len(q.context & s.context), len(_shared(q, s))))
    closest_agreeing = max(len(q.context & s.context) for s in agreeing)
    if len(q.context & rival.context) > closest_agreeing and len(_shared(q, rival)) >= MIN_OVERLAP:
        return rival
    return None


def _thing_terms(q: Quantity, claim: str) -> list[str]:
    """The common nouns of what the claim's figure is of, where naming.py can name it ("a
    racing eight built in 1999": racing; "its catchment covers 410 km²": catchment)."""
    if q.kind not in ("year", "date", "quantity"):
        return []  # counts and named numbers already compare only with the same noun
    word = q.kind if q.kind != "quantity" else _DIMENSION_WORDS.get(q.thing, "figure")
    named = " ".join(thing_words(thing_of(q.kind, claim, q.start, q.end, word)))
    # Names are left out: a source names its subject once and then says "she" or "the club".
    return [t for a, b, t in term_spans(named) if named[a:b].islower()
            and named[a:b] not in NUMBER_WORDS and named[a:b] not in GENERAL]


def _named_terms(q: Quantity, claim: str) -> list[str]:
    """Every word of what the claim's length is of, names too ("Kellhaven Lighthouse's height")."""
    named = " ".join(thing_words(thing_of(q.kind, claim, q.start, q.end, q.aspect)))
    return [t for a, b, t in term_spans(named) if named[a:b] not in NUMBER_WORDS]


def _about_it(thing: list[str], s: Quantity) -> bool:
    """A source figure can only be a rival when its sentence (or the one before) speaks of
    the claim figure's thing, every word of it in some form: the boathouse "built in 1894"
    is no rival to "a racing eight built in 1999"."""
    said = s.sentence | s.nearby
    return all(near_form(t, said) for t in thing)


def _shared(q: Quantity, s: Quantity) -> frozenset[str]:
    """The claim figure's words around a source figure or in the sentence before it."""
    return q.context & (s.context | s.nearby)


def _states(part: frozenset[str], s: Quantity) -> int:
    """How much of a claim part a source figure's sentence states, with the sentence
    before it ("The line closed in 1965. It reopened in 1996": "it" is the line)."""
    return len(part & (s.sentence | s.nearby))


def _dated_years(q: Quantity, found: list[Quantity]) -> list[Quantity]:
    """A claimed year the source writes inside a date ("12 June 1996") is given there."""
    return [s for s in found if q.kind == "year" and s.kind == "date" and s.date[0] == q.low]


def _apart_in_month_only(q: Quantity, s: Quantity) -> bool:
    """"from 9 to 24 November" against "In October 2018": with no year to compare, dates that
    share only a month name say nothing of each other's (both a day and a month are needed)."""
    both = [i for i in range(3) if q.kind == s.kind == "date" and q.date[i] and s.date[i]]
    return q.kind == "date" and len(both) < 2 and 0 not in both


def _part(q: Quantity, s: Quantity) -> bool:
    """A source count given as part of a larger one ("Twenty-seven ..., including four Nobel
    laureates on the faculty") is no rival to a larger claimed count: the part is not the whole."""
    return q.kind == "count" and s.part and s.high < q.low


def _month_only(q: Quantity) -> bool:
    """"In June": a month that agrees with "June 2019", but with no year to contradict one."""
    return q.kind == "date" and not q.date[0] and not q.date[2]


def _derived(q: Quantity, found: list[Quantity]) -> bool:
    """The source derives the claimed figure: a total of its counts in one sentence, a
    count of co-somethings and the one they are with, or a year an "Nth anniversary"
    counts back to."""
    if q.kind == "count" and any(s.kind == "count" and s.thing.lower().startswith("co-") and s.key & q.key
                                 and s.low + 1 == q.low for s in found):
        return True  # "his three co-defendants": four defendants
    if q.kind == "count":
        by_sentence: dict[frozenset, list[Quantity]] = {}
        for s in found:
            if s.kind == "count":
                by_sentence.setdefault(s.nearby, []).append(s)
        return any(len(group) > 1 and abs(sum(s.low for s in group) - q.low) < 1e-9 for group in by_sentence.values())
    if q.kind == "year":
        years = [s.low for s in found if s.kind in ("year", "date")]
        counts = [s.low for s in found if s.kind == "ordinal" and _ANNIVERSARY in s.key]
        return any(abs(year - n - q.low) <= 1 for n in counts for year in years)
    return False


def _thing(q: Quantity, claim: str, shared: frozenset[str]) -> str:
    """What the figures are of, in a few of the claim's words: "the year the line
    reopened", "the number of boats", "the amount of the donation"; else the claim's
    words the source shares around the figure."""
    if q.kind == "count":
        return f"the number of {q.thing}"
    if q.kind == "ordinal" and q.thing:
        return f"the {q.thing}"
    word = ({"year": "year", "date": "date", "number": "number"}.get(q.kind) or q.aspect
            or _DIMENSION_WORDS.get(q.thing, "figure"))
    if word == "length":
        word = which_length(claim, q.start, q.end)  # "fifteen kilometres up the valley": a distance
    named = thing_of(q.kind, claim, q.start, q.end, word)
    if named:
        return named
    anchor = _anchor(q, claim, shared)
    label = "the figure" if q.kind == "number" else f"the {word}"
    return f"{label} of “{anchor}”" if anchor else label


def _anchor(q: Quantity, claim: str, shared: frozenset[str]) -> str:
    """The claim's words tied to the figure (shared with the source's wording): up to
    three, those before it first, nearest first; shown as the claim writes them."""
    spans = [(a, b) for a, b, term in term_spans(claim) if term in shared and not claim[a:b].isdigit()]
    nearest = sorted(spans, key=lambda s: (s[0] > q.start, min(abs(s[0] - q.end), abs(q.start - s[1]))))[:3]
    if not nearest:
        return ""
    first, last = min(nearest), max(nearest)
    stretch = claim[first[0]:last[1]]
    return stretch if len(stretch.split()) <= 6 and q.start not in range(first[0], last[1]) else (
        " ".join(claim[a:b] for a, b in sorted(nearest)))
