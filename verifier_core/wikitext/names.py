"""Template, tag and namespace names the extractor recognises.

MediaWiki template names are case-insensitive in their first letter and treat
underscores as spaces; editors also write "Cite Web", "cite_web " or "Citation Needed".
Everything here is compared in the form `template_key` produces. English names come
first; a few German ones are kept because the shared sample articles use them and the
tool targets any MediaWiki wiki.
"""
from __future__ import annotations

import re

_SPACES = re.compile(r"[\s_]+")


def template_key(name: str) -> str:
    """Normalised template name: lower case, single spaces, no "Template:" prefix."""
    key = _SPACES.sub(" ", name).strip().lower()
    if key.startswith("template:"):
        key = key[len("template:") :].strip()
    return key


# --- citations -------------------------------------------------------------------

_CITE_EXACT = frozenset(
    {"citation", "cite", "internetquelle", "literatur", "cite-web", "cite-news", "cite-book"}
)


def is_cite_template(key: str) -> bool:
    """`cite web`, `cite news`, `citation`, `vcite book`, German `Internetquelle`..."""
    return key in _CITE_EXACT or key.startswith(("cite ", "vcite ", "citation/"))


# Short footnotes: a pointer to a bibliography entry by author surnames and year.
SHORT_FOOTNOTES = frozenset(
    {
        "sfn", "sfnp", "sfnm", "sfnmp", "harvnb", "harvp", "harv", "harvtxt", "harvcol",
        "harvcolnb", "harvcoltxt", "harvard citation", "harvard citation no brackets",
        "harvard citation text",
    }
)
# Author-date templates written in the running text print "Smith (2010)" there and make no
# footnote: words of the sentence ("Smith (2010) has noted that ..."), never a citation of it
# (Wikipedia deprecated parenthetical referencing; in-text attribution is what they are used
# for). Inside a <ref> they point its footnote at a bibliography entry (citations.py). How
# each prints: "paren" (Smith 2010, p. 25), "bare" Smith 2010, p. 25, "year" Smith (2010,
# p. 25), "yearp" Smith (2010), p. 25; the col forms write the page after a colon.
IN_TEXT_AUTHOR_DATE = {
    "harv": "paren", "harvard citation": "paren", "harvcol": "paren",
    "harvnb": "bare", "harvard citation no brackets": "bare", "harvcolnb": "bare",
    "harvtxt": "year", "harvard citation text": "year", "harvcoltxt": "year",
    "harvp": "yearp",
}
COLON_PAGES = frozenset({"harvcol", "harvcolnb", "harvcoltxt"})

# Explanatory notes: their text is article prose, not a citation.
NOTE_TEMPLATES = frozenset(
    "efn efn-ua efn-lr efn-ur efn-lg efn-la notetag refn nbn".split()
) | {"note tag"}

# Reference lists: `refs=` holds list-defined refs; otherwise they render nothing.
REFLIST_TEMPLATES = frozenset(
    """reflist references refs notelist notelist-ua notelist-lr notelist-ur
    einzelnachweise""".split()
)

# Shortcut to re-use a named ref: {{r|name}}.
REF_SHORTCUTS = frozenset({"r"})


# --- maintenance tags --------------------------------------------------------------

_TAG_ALIASES: dict[str, tuple[str, ...]] = {
    "citation needed": (
        "cn", "fact", "citation needed", "citation-needed", "citationneeded", "cite needed",
        "citeneeded", "cit needed", "needs citation", "source needed", "sourceneeded",
        "citation missing", "ref needed", "refneeded", "reference needed", "request citation",
        "uncited", "proveit", "prove it", "cite missing", "needcite", "needsref",
        "citation needed span", "cns", "fact span", "source?", "citation required",
        "belege fehlen?", "quelle fehlt",
    ),
    "failed verification": (
        "failed verification", "failed", "fv", "failedverification", "verification failed",
        "not in citation", "not in source", "not in ref", "failed verification span",
        "source does not support", "not verified in body",
    ),
    "better source needed": (
        "better source needed", "better source", "bsn", "better citation",
        "better citation needed", "better ref", "betterref", "bettersource",
        "better sources needed", "better source?",
    ),
    "dead link": (
        "dead link", "dl", "deadlink", "dead-link", "broken link", "404", "dead url",
        "link broken", "badlink", "bad link", "dead links", "toter link",
    ),
    "verification needed": (
        "verification needed", "verify source", "verify", "vs", "verification",
        "verify quote", "verify citation", "verifysource",
    ),
    "unreliable source?": (
        "unreliable source?", "unreliable source", "unreliable", "unreliable source inline",
        "rs?", "verify credibility", "self-published inline", "self-published source",
        "sps", "unreliable fringe source?", "unreliable medical source",
    ),
    "page needed": (
        "page needed", "pn", "page number", "pages needed", "page?", "pageneeded",
        "page numbers needed", "pages?", "page number needed", "seite fehlt",
    ),
    "full citation needed": (
        "full citation needed", "full citation", "full", "fcn", "citation incomplete",
        "full reference", "full ref", "fullcite", "incomplete citation",
    ),
    "clarification needed": ("clarification needed", "clarify", "clarification", "huh"),
    "dubious": ("dubious", "dubious discuss", "dubious – discuss"),
    "disputed": ("disputed inline", "disputed-inline", "disputed claim"),
    "original research": ("original research inline", "or?", "or inline", "original research?"),
    "primary source": ("primary source inline", "primary source-inline", "primary source?"),
    "third-party source needed": ("third-party inline", "third party inline", "3pi"),
    "when?": ("when?", "when"),
    "who?": ("who?", "who", "whom?"),
    "by whom?": ("by whom?", "by whom", "according to whom?", "according to whom"),
    "year needed": ("year needed", "year missing", "date missing", "year?"),
    "update needed": ("update inline", "update after", "out of date inline", "as of?"),
    "vague": ("vague",),
    "specify": ("specify", "specific"),
    "irrelevant citation": ("irrelevant citation", "irrelevant source"),
    "sic": ("sic?",),
}
MAINTENANCE_TAGS: dict[str, str] = {
    alias: canonical for canonical, aliases in _TAG_ALIASES.items() for alias in aliases
}


def maintenance_tag(key: str) -> str | None:
    """Canonical tag name ("citation needed") for a template key, or None."""
    return MAINTENANCE_TAGS.get(key)


# Tags that wrap the text they question: {{citation needed span|text|date=..}}.
SPAN_TAGS = frozenset({"citation needed span", "cns", "fact span", "failed verification span"})


# --- namespaces -------------------------------------------------------------------

FILE_NAMESPACES = frozenset({"file", "image", "media", "datei", "bild", "fichier", "archivo"})
CATEGORY_NAMESPACES = frozenset({"category", "kategorie", "catégorie", "categoría"})
OTHER_NAMESPACES = frozenset(
    """template wikipedia wp project help portal user user talk talk special module
    draft mediawiki book timedtext file talk category talk template talk wikipedia talk
    wikt wiktionary commons wikisource wikiquote wikinews wikibooks wikiversity wikivoyage
    wikispecies wikidata meta metawikimedia foundation species phab phabricator
    mediawikiwiki arxiv doi vorlage benutzer hilfe diskussion spezial modul""".split()
) | {"user talk", "file talk", "category talk", "template talk", "wikipedia talk"}
# Interwiki prefixes written in lower case: language codes ("de:", "zh-yue:") and the
# sister-project shortcuts ("w:", "s:", "voy:"); "V: The Final Battle" is an article.
_LANGUAGE_PREFIX = re.compile(r"[a-z]{1,3}(?:-[a-z]{2,8})*$")
_LANGUAGE_LIKE_WORDS = frozenset({"simple", "be-tarask", "zh-yue", "zh-min-nan", "als"})


def namespace_of(title: str) -> str | None:
    """"file", "category", "other" (template, interwiki...) or None for an article."""
    text = title.strip()
    if text.startswith(":"):
        text = text[1:].lstrip()
    prefix, sep, _rest = text.partition(":")
    if not sep:
        return None
    raw = prefix.strip()
    key = _SPACES.sub(" ", raw).lower()
    if key in FILE_NAMESPACES:
        return "file"
    if key in CATEGORY_NAMESPACES:
        return "category"
    if key in OTHER_NAMESPACES or key in _LANGUAGE_LIKE_WORDS:
        return "other"
    # "de:Foo" is interwiki; "Star Wars: A New Hope" is an article.
    if raw.islower() and _LANGUAGE_PREFIX.match(raw):
        return "other"
    return None
