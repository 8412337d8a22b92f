"""Templates that print words inside a sentence, and what they print.

Any template not listed here (infoboxes, navboxes, hatnotes, banners) prints nothing
in the plain text; that loses a few words but never leaks template syntax into a
claim. Each renderer returns pieces: strings (cleaned by the caller) or parameter
values (rendered by the caller, so refs inside them still count).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from mwparserfromhell.nodes import Template
from mwparserfromhell.wikicode import Wikicode

from .params import named, named_text, positional, positional_text

Piece = str | Wikicode
_MONTHS = (
    "January February March April May June July August September October November December"
).split()
_RANGE_WORDS = {"-", "–", "to", "and", "or", "by", "x", "×", "+", "&", "and(-)", "to(-)"}


def _first(t: Template) -> list[Piece]:
    values = positional(t)
    return [values[0]] if values else []


def _last(t: Template) -> list[Piece]:
    values = positional(t)
    return [values[-1]] if values else []


def _joined(t: Template) -> list[Piece]:
    pieces: list[Piece] = []
    for value in positional(t):
        if pieces:
            pieces.append(" ")
        pieces.append(value)
    return pieces


def _convert(t: Template) -> list[Piece]:
    args = positional_text(t)
    if not args:
        return []
    if len(args) >= 4 and args[1] in _RANGE_WORDS:
        return [f"{args[0]} {args[1]} {args[2]} {args[3]}".replace(" - ", "–")]
    return [f"{args[0]} {args[1]}" if len(args) > 1 else args[0]]


def _date(t: Template, day_first: bool = False) -> list[Piece]:
    args = [a for a in positional_text(t) if a and "=" not in a]
    numbers = [a for a in args if a.isdigit()][:3]
    if day_first:
        numbers.reverse()
    if not numbers:
        return [args[0]] if args else []
    year, month, day = (numbers + ["", "", ""])[:3]
    parts = [day.lstrip("0")] if day else []
    if month.isdigit() and 1 <= int(month) <= 12:
        parts.append(_MONTHS[int(month) - 1])
    parts.append(year)
    return [" ".join(p for p in parts if p)]


def _dts(t: Template) -> list[Piece]:
    # {{dts|2014|10|17}}; the year may be left empty ({{dts||10|17}}).
    args = positional_text(t)[:3]
    year, month, day = (args + ["", "", ""])[:3]
    if not (year or month or day):
        return []
    if not (month.isdigit() and 1 <= int(month) <= 12):
        return [" ".join(a for a in args if a)]
    return [" ".join(p for p in (day.lstrip("0"), _MONTHS[int(month) - 1], year) if p)]


def _as_of(t: Template) -> list[Piece]:
    date = _date(t)
    lead = "as of" if (named_text(t, "lc") or "").lower() in {"y", "yes", "true"} else "As of"
    return [f"{lead} {date[0]}"] if date else [lead]


def _circa(t: Template) -> list[Piece]:
    return ["c. ", *_first(t)]


def _frac(t: Template) -> list[Piece]:
    args = positional_text(t)
    if len(args) == 1:
        return [f"1/{args[0]}"]
    if len(args) == 2:
        return [f"{args[0]}/{args[1]}"]
    if len(args) >= 3:
        return [f"{args[0]} {args[1]}/{args[2]}"]
    return []


def _sortname(t: Template) -> list[Piece]:
    args = positional_text(t)[:2]
    return [" ".join(a for a in args if a)]


def _money(symbol: str) -> Callable[[Template], list[Piece]]:
    return lambda t: [symbol, *_first(t)]


def _constant(text: str) -> Callable[[Template], list[Piece]]:
    return lambda t: [text]


def _quoted(t: Template) -> list[Piece]:
    value = named(t, "text", "quote", "1") or (positional(t) or [None])[0]
    return ["\u201c", value, "\u201d"] if value is not None else []


_RENDERERS: dict[str, Callable[[Template], list[Piece]]] = {
    **dict.fromkeys(
        """nowrap nobr small smaller big larger sc smallcaps mono code var mvar math serif
        sans-serif keypress vanchor em strong nobold noitalic notatypo ill ill2 illm w wikt
        link lang-rtl abbrlink tooltip korean transl transliteration nihongo nihongo2
        script""".split(),
        _first,
    ),
    **dict.fromkeys(["lang", "langx", "resize", "sub", "sup", "ruby"], _last),
    **dict.fromkeys(
        ["small caps", "visible anchor", "not a typo", "interlanguage link",
         "interlanguage link multi", "abbr", "hover title"],
        _first,
    ),
    **dict.fromkeys(["convert", "cvt", "convert/2"], _convert),
    "datum": lambda t: _date(t, day_first=True),
    "dts": _dts,
    "as of": _as_of,
    "circa": _circa,
    "c.": _circa,
    "frac": _frac,
    "sfrac": _frac,
    "sortname": _sortname,
    "flag": _first,
    "flagcountry": _first,
    "flagu": _first,
    "us$": _money("US$"),
    "usd": _money("US$"),
    "£": _money("£"),
    "gbp": _money("£"),
    "€": _money("€"),
    "eur": _money("€"),
    "cad": _money("C$"),
    "inrconvert": _money("₹"),
    "ndash": _constant("–"),
    "–": _constant("–"),
    "mdash": _constant("—"),
    "—": _constant("—"),
    "emdash": _constant("—"),
    "snd": _constant(" – "),
    "spnd": _constant(" – "),
    "spaced ndash": _constant(" – "),
    "spaced en dash": _constant(" – "),
    "·": _constant(" · "),
    "dot": _constant(" · "),
    "middot": _constant(" · "),
    "•": _constant(" • "),
    "bull": _constant(" • "),
    "nbsp": _constant(" "),
    "thinsp": _constant(" "),
    "'": _constant("'"),
    "quote inline": _quoted,
    "qi": _quoted,
    "\"": _quoted,
}
for _name in (
    "start date", "end date", "birth date", "death date", "start date and age",
    "end date and age", "birth date and age", "death date and age", "birth year and age",
    "film date", "release date", "date", "formatdate",
):
    _RENDERERS[_name] = _date

_PARSER_FUNCTION = re.compile(r"(formatnum|lc|uc|lcfirst|ucfirst|padleft|padright):(.*)", re.S)


def render_inline(key: str, template: Template) -> list[Piece] | None:
    """Pieces printed by a known inline template, or None when it is not one."""
    renderer = _RENDERERS.get(key)
    if renderer is None and key.startswith("lang-"):
        renderer = _last
    if renderer is not None:
        return renderer(template)
    match = _PARSER_FUNCTION.match(key)
    if match:
        # {{formatnum:1234}}: the argument is part of the template name.
        return [str(template.name).split(":", 1)[1].strip()]
    return None
