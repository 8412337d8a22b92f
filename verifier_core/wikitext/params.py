"""Small accessors for mwparserfromhell template parameters.

`Params` folds the parameter names of one template once; cite templates are asked
for a dozen names each (url, archive-url, title, work...), and refolding every name
on every question was the largest cost of an extraction.
"""
from __future__ import annotations

from mwparserfromhell.nodes import Template
from mwparserfromhell.wikicode import Wikicode


def param_name(param) -> str:
    return str(param.name).strip()


def _fold(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "").replace(" ", "")


class Params:
    """Named parameters of one template, looked up without case, "_", "-" or spaces."""

    def __init__(self, template: Template) -> None:
        self.template = template
        self._folded: dict[str, Wikicode] = {}
        for param in template.params:
            if param.showkey:
                self._folded[_fold(param_name(param))] = param.value  # MediaWiki: last wins

    def named(self, *names: str) -> Wikicode | None:
        """The value of the first of `names` that is set and non-empty."""
        for name in names:
            value = self._folded.get(_fold(name))
            if value is not None and str(value).strip():
                return value
        return None

    def named_text(self, *names: str) -> str | None:
        value = self.named(*names)
        return str(value).strip() if value is not None else None


def positional(template: Template) -> list[Wikicode]:
    """Values of the unnamed parameters, in order ({{x|a|b}} -> [a, b])."""
    return [p.value for p in template.params if not p.showkey]


def positional_text(template: Template) -> list[str]:
    return [str(v).strip() for v in positional(template)]


def named(template: Template, *names: str) -> Wikicode | None:
    return Params(template).named(*names)


def named_text(template: Template, *names: str) -> str | None:
    return Params(template).named_text(*names)
