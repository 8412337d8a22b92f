"""Units a figure may carry, each with its dimension and its size in that dimension's
base unit, so that 31 m and 102 ft compare as lengths. Hand-written: the few dozen units
Wikipedia's {{convert}} uses most; a units library would bring thousands and a parser
while this needs a table lookup. Money compares only within one currency (no rates).
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    dimension: str  # "length", "mass", ..., "money:USD"
    factor: float  # size in the dimension's base unit


_TABLE: dict[str, tuple[str, float, tuple[str, ...]]] = {
    # name: (dimension, factor, spellings)
    "mm": ("length", 0.001, ("mm", "millimetre", "millimetres", "millimeter", "millimeters")),
    "cm": ("length", 0.01, ("cm", "centimetre", "centimetres", "centimeter", "centimeters")),
    "m": ("length", 1.0, ("m", "metre", "metres", "meter", "meters")),
    "km": ("length", 1000.0, ("km", "kilometre", "kilometres", "kilometer", "kilometers")),
    "in": ("length", 0.0254, ("inch", "inches")),
    "ft": ("length", 0.3048, ("ft", "foot", "feet")),
    "yd": ("length", 0.9144, ("yd", "yard", "yards")),
    "mi": ("length", 1609.344, ("mi", "mile", "miles")),
    "nmi": ("length", 1852.0, ("nmi", "nautical mile", "nautical miles")),
    "g": ("mass", 0.001, ("g", "gram", "grams", "gramme", "grammes")),
    "kg": ("mass", 1.0, ("kg", "kilogram", "kilograms", "kilogramme", "kilogrammes")),
    "t": ("mass", 1000.0, ("t", "tonne", "tonnes", "metric ton", "metric tons")),
    "lb": ("mass", 0.45359237, ("lb", "lbs", "pound", "pounds")),
    "oz": ("mass", 0.028349523, ("oz", "ounce", "ounces")),
    "st": ("mass", 6.35029318, ("stone",)),
    "m2": ("area", 1.0, ("m2", "m²", "square metre", "square metres", "square meter", "square meters")),
    "km2": ("area", 1e6, ("km2", "km²", "sq km", "square kilometre", "square kilometres", "square kilometer",
                          "square kilometers")),
    "ha": ("area", 1e4, ("ha", "hectare", "hectares")),
    "acre": ("area", 4046.8564224, ("acre", "acres")),
    "sqmi": ("area", 2589988.110336, ("sq mi", "square mile", "square miles")),
    "l": ("volume", 0.001, ("l", "litre", "litres", "liter", "liters")),
    "m3": ("volume", 1.0, ("m3", "m³", "cubic metre", "cubic metres", "cubic meter", "cubic meters")),
    "gal": ("volume", 0.003785411784, ("gal", "gallon", "gallons")),
    "kmh": ("speed", 1 / 3.6, ("km/h", "kph", "kilometres per hour", "kilometers per hour")),
    "mph": ("speed", 0.44704, ("mph", "miles per hour")),
    "kn": ("speed", 0.514444, ("kn", "knot", "knots")),
    "ms": ("speed", 1.0, ("m/s", "metres per second", "meters per second")),
    "s": ("time", 1.0, ("second", "seconds", "sec", "secs")),
    "min": ("time", 60.0, ("minute", "minutes", "min", "mins")),
    "h": ("time", 3600.0, ("hour", "hours", "hr", "hrs")),
    "day": ("time", 86400.0, ("day", "days")),
    "week": ("time", 604800.0, ("week", "weeks")),
    "month": ("time", 2629746.0, ("month", "months")),
    "year": ("time", 31556952.0, ("year", "years")),
    "pct": ("percent", 1.0, ("%", "percent", "per cent")),
    "W": ("power", 1.0, ("W", "watt", "watts")),
    "kW": ("power", 1e3, ("kW", "kilowatt", "kilowatts")),
    "MW": ("power", 1e6, ("MW", "megawatt", "megawatts")),
    "hp": ("power", 745.69987, ("hp", "horsepower")),
}
_SPELLINGS: dict[str, Unit] = {
    spelling.lower(): Unit(dimension, factor)
    for dimension, factor, spellings in _TABLE.values() for spelling in spellings
}
# Longest spellings first, so that "square miles" wins over "miles" and "km/h" over "km".
_AFTER = re.compile(
    r"\s?-?\s?(" + "|".join(re.escape(s) for s in sorted(_SPELLINGS, key=len, reverse=True)) + r")(?![\w²³/])",
    re.IGNORECASE,
)
CURRENCIES = {"us$": "USD", "$": "USD", "usd": "USD", "£": "GBP", "gbp": "GBP", "€": "EUR", "eur": "EUR",
              "¥": "JPY", "c$": "CAD", "ca$": "CAD", "a$": "AUD", "₹": "INR", "nok": "NOK"}
CURRENCY_BEFORE = re.compile(r"(US\$|C\$|CA\$|A\$|\$|£|€|¥|₹|USD|GBP|EUR|NOK)\s?$")
MULTIPLIERS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9, "mrd": 1e9}


def unit_after(text: str, pos: int) -> tuple[Unit, str, int] | None:
    """The unit written right after position `pos` (a figure's end): (unit, as written, end)."""
    match = _AFTER.match(text, pos)
    if match is None:
        return None
    written = match.group(1)
    # One-letter units only as symbols right after the figure ("31 m", "5t"), never the
    # English article or pronoun: "in 1996 a new...", "31 m" yes, "3 t-shirts" no.
    if len(written) == 1 and (written.isupper() or text[match.end():match.end() + 1] == "-"):
        return None
    return _SPELLINGS[written.lower()], written, match.end()


def currency_before(text: str, pos: int) -> str | None:
    match = CURRENCY_BEFORE.search(text[max(0, pos - 4):pos])
    return CURRENCIES.get(match.group(1).lower()) if match else None
