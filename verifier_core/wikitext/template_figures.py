"""A figure written by a template, changed in the template's own parameter.

`{{convert|41|m}}` writes "41 m", `{{circa|1900}}` "c. 1900", `{{start date|1931|5|1}}`
"1 May 1931". Where the claim's figure is what such a template writes, the correction
changes the parameter that holds it, and only where that is certain: the template's
parameters are plain figures, the figure is its whole quantity (not one end of a range),
and the source's figure is of the same kind (the same unit; a year for a year; a whole
date for a whole date). Anything else answers None, and the edit is refused in words.
"""
from __future__ import annotations

import re

from mwparserfromhell.nodes import Template

from .names import template_key

CONVERT = frozenset({"convert", "cvt"})
CIRCA = frozenset({"circa", "c."})
DATES = frozenset({"start date", "end date", "birth date", "death date", "start date and age",
                   "end date and age", "birth date and age", "death date and age", "film date", "dts"})
_NUMBER = re.compile(r"^[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")
_QUANTITY = re.compile(r"^(?P<n>[-−]?[\d,]*\.?\d+)(?:\s+(?P<unit>\S.*))?$")
_YEAR = re.compile(r"^\d{3,4}$")
_MONTHS = ("january february march april may june july august september october november december").split()
_DMY = re.compile(r"^(?P<d>\d{1,2})\s+(?P<m>[A-Za-z]+)\s+(?P<y>\d{3,4})$")
_MDY = re.compile(r"^(?P<m>[A-Za-z]+)\s+(?P<d>\d{1,2}),?\s+(?P<y>\d{3,4})$")


def changed_template(template: Template, claimed: str, given: str) -> str | None:
    """The template's wikitext with `claimed` changed to `given` in its parameter, or None
    when which parameter, or how, is not certain."""
    key = template_key(str(template.name))
    values = [p for p in template.params if not p.showkey]
    if key in CONVERT:
        return _convert(template, values, claimed, given)
    if key in CIRCA:
        return _year_at(template, values, 0, claimed, given)
    if key in DATES:
        return _date(template, values, claimed, given)
    return None


def _convert(template: Template, values, claimed: str, given: str) -> str | None:
    """{{convert|41|m}}: the number changes, once the claim and the source give it in the
    template's unit (or both without one) and the template converts one quantity."""
    old, new = _QUANTITY.match(_plain(claimed)), _QUANTITY.match(_plain(given))
    if old is None or new is None or len(values) < 2 or old.group("unit") != new.group("unit"):
        return None
    number, unit = str(values[0].value).strip(), str(values[1].value).strip()
    if not _NUMBER.match(number) or _NUMBER.match(unit) or unit.lower() in ("to", "and", "or", "by", "x", "-", "–"):
        return None
    if _value(number) != _value(old.group("n")) or not _NUMBER.match(new.group("n")):
        return None
    return _with(template, values[0], new.group("n"))


def _year_at(template: Template, values, index: int, claimed: str, given: str) -> str | None:
    if len(values) <= index or not (_YEAR.match(claimed) and _YEAR.match(given)):
        return None
    if str(values[index].value).strip() != claimed:
        return None
    return _with(template, values[index], given)


def _date(template: Template, values, claimed: str, given: str) -> str | None:
    """{{start date|1931|5|1}}: a year changes its year; a whole date its three parts."""
    parts = [str(v.value).strip() for v in values[:3]]
    if _YEAR.match(claimed):
        return _year_at(template, values, 0, claimed, given)
    old, new = _whole_date(claimed), _whole_date(given)
    if old is None or new is None or len(parts) < 3 or not all(p.isdigit() for p in parts):
        return None
    if tuple(int(p) for p in parts) != old:
        return None
    for value, part in zip(values[:3], new):
        _with(template, value, str(part))
    return str(template)


def _whole_date(text: str) -> tuple[int, int, int] | None:
    match = _DMY.match(_plain(text)) or _MDY.match(_plain(text))
    if match is None or match.group("m").lower() not in _MONTHS:
        return None
    return int(match.group("y")), _MONTHS.index(match.group("m").lower()) + 1, int(match.group("d"))


def _with(template: Template, param, text: str) -> str:
    """The parameter's value set to `text`, its spaces around kept."""
    value = str(param.value)
    stripped = value.strip()
    lead = value[: len(value) - len(value.lstrip())]
    param.value = lead + text + value[len(lead) + len(stripped):]
    return str(template)


def _plain(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").replace("&nbsp;", " ").split())


def _value(number: str) -> float:
    return float(number.replace(",", "").replace("−", "-"))
