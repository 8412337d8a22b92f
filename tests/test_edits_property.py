"""Property: over generated articles that cite the same page many times and in many ways
(named, unnamed, re-used, list-defined, {{sfn}}, {{r}}; in prose, lists, tables and an
infobox; after <nowiki>, comments and maintenance tags), every edit on every claim with a
citation lands on that claim's own citation only, and every other claim parses exactly as
before; an edit that cannot be made is refused in words (issue 30). Fixed seed in CI."""
from __future__ import annotations

from datetime import date
from unittest import TestCase

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier_core.wikitext import extract
from verifier_core.wikitext.edits import (
    LocateError,
    NewSource,
    add_citation,
    occurrence_target,
    replace_citation,
    tag_failed_verification,
)
from verifier_core.wikitext.landing import landing

URLS = ("https://same.example/history.html", "https://other.example/b")
NEW = NewSource(url="https://fresh.example/new-page", title="A fresh page", access_date=date(2026, 11, 27))
SENTENCES = [f"The {thing} was {verb} in {1800 + 7 * n}" for n, (thing, verb) in enumerate(
    [(t, v) for t in ("mill", "bridge", "harbour wall", "lighthouse", "school", "chapel", "boathouse", "quay")
     for v in ("built", "rebuilt", "opened", "enlarged")])]
FORMS = ("reuse", "reuse_tight", "unnamed", "bare", "listed", "sfn", "r")
DECORATIONS = ("", "nowiki", "comment", "failed", "dead")


def _cite(form: str, url: int) -> str:
    return {
        "reuse": f'<ref name="n{url}" />',
        "reuse_tight": f"<ref name=n{url}/>",
        "unnamed": f"<ref>{{{{cite web |url={URLS[url]} |title=Another title {url}}}}}</ref>",
        "bare": f"<ref>[{URLS[url]} Bare title]</ref>",
        "listed": f'<ref name="ld{url}" />',
        "sfn": f"{{{{sfn|Hale|2009|p={10 + url}}}}}",
        "r": f"{{{{r|n{url}}}}}",
    }[form]


def _sentence(text: str, form: str, url: int, decoration: str) -> str:
    if decoration == "nowiki":
        text = text.replace(" was ", " was <nowiki>[sic]</nowiki> ", 1)
    cite = _cite(form, url)
    if decoration == "comment":
        cite = "<!-- checked -->" + cite
    elif decoration == "failed":
        cite += "{{failed verification|date=May 2020}}"
    elif decoration == "dead":
        cite += "{{dead link|date=June 2021}}"
    return f"{text}.{cite}"


cited = st.tuples(st.sampled_from(FORMS), st.integers(0, 1), st.sampled_from(DECORATIONS))
blocks = st.lists(st.tuples(st.sampled_from(("para", "item", "row", "field")), cited), min_size=3, max_size=9)


def article(chosen: list) -> str:
    """An article of the project's own words: two named definitions in the lead, then the
    chosen blocks over three sections, list-defined refs and a bibliography at the end."""
    sentences = iter(SENTENCES)
    head = (f"{next(sentences)}.<ref name=\"n0\">{{{{cite web |url={URLS[0]} |title=Town history}}}}</ref> "
            f"{next(sentences)}.<ref name=\"n1\">{{{{cite web |url={URLS[1]} |title=Other page}}}}</ref>\n")
    infobox = [c for kind, c in chosen if kind == "field"][:1]
    parts = ["{{Infobox town |built = " + _sentence(next(sentences), *infobox[0]) + " }}\n"] if infobox else []
    parts.append(head)
    for n, (kind, cite) in enumerate(k for k in chosen if k[0] != "field"):
        if n % 3 == 0:
            parts.append(f"\n== Section {n // 3 + 1} ==\n")
        line = _sentence(next(sentences), *cite)
        parts.append({"para": line + "\n", "item": f"* {line}\n",
                      "row": f"{{| class=wikitable\n! Event\n|-\n| {line}\n|}}\n"}[kind])
    parts.append("\n== Bibliography ==\n* {{cite book |last=Hale |year=2009 |title=Tides |url=" + URLS[0] + "}}\n")
    parts.append("\n== References ==\n<references>\n" + "".join(
        f'<ref name="ld{u}">{{{{cite web |url={URLS[u]} |title=Listed {u}}}}}</ref>\n' for u in (0, 1)) + "</references>\n")
    return "".join(parts)


def _change(text: str, action: str, target):
    if action == "tag":
        return tag_failed_verification(text, target=target, when=date(2026, 11, 27))
    if action == "add":
        return add_citation(text, target=target, source=NEW)
    return replace_citation(text, target=target, source=NEW)


class EditsLandOnTheClaimsOwnCitationTests(TestCase):
    @settings(max_examples=30, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(blocks)
    def test_every_edit_lands_on_its_claims_own_citation(self, chosen):
        text = article(chosen)
        before = extract(text, "Page")
        self.assertFalse([w for w in before.warnings if "unresolved" in w], text)
        for index, claim in enumerate(before.claims):
            for position, occurrence in enumerate(claim.occurrences):
                self.assertIsNotNone(occurrence.start, (claim.text, text))
                target = occurrence_target(text, occurrence)
                for action in ("tag", "add", "replace"):
                    if action == "add" and position != len(claim.occurrences) - 1:
                        continue  # an addition goes after the claim's last citation
                    try:
                        change = _change(text, action, target)
                    except LocateError as refused:
                        self.assertTrue(str(refused))
                        continue
                    result = landing(text, change.new, index=index, action=action, start=target.start,
                                     end=target.end, new_url=NEW.url, before=before)
                    self.assertTrue(result.own, (action, claim.text, result.why, text))
