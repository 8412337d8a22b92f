"""What a claim's figure is of, named in a few of the claim's own words for a reason:
"the year the Esk Valley line reopened", "the date Smith died", "the amount of the
grant", "the share of islanders".

A year or a date belongs to an event: the clause's subject and its verb group (with a
short object: "the choir released a new album"). A quantity belongs to the noun phrase
it measures: the one before it ("the tower is 31 m tall", "a grant worth £2 million")
or, for a share, after it ("88% of islanders"). No parser is needed for these few words:
a verb is an auxiliary, a common irregular past or a lower-case word in -ed, and a noun
phrase runs between punctuation, prepositions and verbs. Where no phrase is found the
caller falls back to the words the claim shares with the source.
"""
from __future__ import annotations

import re
from typing import NamedTuple

# Words (with inner dots, apostrophes and hyphens, and the last dot of "J.D."), and the
# punctuation that ends a phrase.
_TOKEN = re.compile(r"[^\W_](?:[\w'’&.-]*[^\W_])?(?:(?<=\.[^\W_])\.)?|[,;:()\[\]\"“”–—]")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_AUX = _words("is are was were be been being has have had will would did does do can could shall should must")
_BE = _words("is are was were be been being")
_HAVE = _words("has have had")
# Prepositions inside a subject: "The Harbour Tower in Port Elsin", "the line to the islands".
_INNER = _words("in at from near on to for with by")
_IRREGULAR = _words(
    "won began begun became become born made took taken left went gone came grew grown built held led met ran rose "
    "sold wrote written gave given got beat beaten brought bought fell fallen found hit kept lost paid put said saw "
    "seen sent spent stood struck taught told thought threw broke broken chose chosen drove flew rode sang sank spoke "
    "shot lay laid sat sought fought wound lit dug fled shone stolen stole sworn swore torn withdrew withdrawn drew "
    "drawn overtook overtaken undertook undertaken upheld rebuilt knew known hidden frozen shaken forgotten forgiven "
    "swept dealt heard meant")
_NOT_VERBS = _words("hundred red bed need seed speed feed breed shed indeed united limited")
# Present-tense verbs that tie a thing to its figure ("its catchment covers 310 km²"): no
# parser tells "covers" from a plural noun, so the common ones are listed.
_PRESENT = _words("covers measures reaches stands rises runs spans weighs holds contains carries costs totals "
                  "exceeds flows stretches extends seats lies sits owns employs includes serves numbers grows "
                  "attracts draws receives")
_PARTICIPLES = _words("built held made taken given won written sold begun become grown left led paid put seen sent "
                      "spent taught told thrown broken chosen found kept lost laid shot sung sunk struck fought lit dug "
                      "stolen sworn torn withdrawn drawn overtaken undertaken upheld rebuilt known hidden frozen shaken "
                      "forgotten forgiven swept dealt heard meant")
# Words that say which length a figure gives ("two metres in height", "31 m tall", "Height:
# 31 m", "the tower rises 31 m"); figures.py reads a length's aspect with these.
LENGTH_WORDS = {"height": "height", "high": "height", "tall": "height", "rose": "height", "rises": "height",
                "rise": "height", "risen": "height", "stands": "height", "long": "length", "length": "length",
                "wide": "width", "width": "width", "breadth": "width", "deep": "depth", "depth": "depth",
                "elevation": "elevation", "altitude": "elevation", "level": "elevation"}
# ... and, naming a claim's own figure, the words of a distance or of a place above or below
# ("fifteen kilometres up the valley"); on a page "rises 31 metres from its base" says height.
_LENGTHS = {**LENGTH_WORDS, "away": "distance", "distance": "distance", "above": "height", "below": "depth",
            "up": "distance", "down": "distance", "from": "distance", "off": "distance"}
_DIMENSIONS = _words("length height width depth elevation distance area mass volume speed share power amount cost price "
                     "budget value salary revenue")
_FRAME = _words("year date number figure of length height width depth elevation distance area mass volume speed share "
                "power amount cost price budget value salary revenue")
_AMOUNTS = {"cost": "cost", "costs": "cost", "costing": "cost", "price": "price", "priced": "price",
            "budget": "budget", "worth": "value", "valued": "value", "salary": "salary", "revenue": "revenue"}
_APPROX = _words("about nearly almost around approximately some roughly over under up to at most least")
# Words that name nothing on their own: a phrase of only these is no phrase.
_EMPTY = _words("the a an this that these those its their his her our my your")
_ADVERBS = _words("later also then again first since still already soon once never not just only")
# Words that end a noun phrase (the subject, an object, what a quantity measures).
_BOUNDARY = _words(
    "in on at after before during since until till for with by from to into onto as than about between under over "
    "through within without against among via per while when where which who whom whose that and but or nor because "
    "although though if worth nearly almost around approximately some roughly")
# A phrase's first word as it reads mid-sentence: "the year she returned", "the amount of the donation".
_FIRST_WORD = {"The": "the", "A": "the", "An": "the", "a": "the", "an": "the", "She": "she", "He": "he",
               "It": "it", "They": "they", "We": "we", "Its": "its", "Their": "their", "His": "his", "Her": "her"}
_OWNERS = _words("a an its their his her our")  # a phrase's first words that "the" stands for when it is named
_NUMBER_WORDS = _words("two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred")
_UNITS = _words("metres meters metre meter feet foot miles mile kilometres kilometers km m ft inches yards percent per "
                "hours minutes days weeks months years tonnes tons")
MAX_SUBJECT = 5  # words: a longer run is no subject but a stretch of the sentence
MAX_OBJECT = 4


class _Token(NamedTuple):
    text: str
    start: int
    end: int

    @property
    def word(self) -> bool:
        return self.text[0].isalnum()


def thing_of(kind: str, claim: str, start: int, end: int, unit_word: str = "") -> str:
    """The thing a figure at claim[start:end] belongs to ("" where none is found): a year
    or a date names its event; a quantity (`unit_word`: "length", "amount", "share"...)
    names the noun phrase it measures: "the catchment's area", "the share of islanders"."""
    tokens, at, after = _located(claim, start, end)
    if kind in ("year", "date"):
        event = _event(tokens, at, after)
        return f"the {kind} {event}" if event else ""
    # A duration measures an event, not the noun before it ("in place for seven years").
    if unit_word == "duration":
        return ""
    if unit_word in ("length", "amount"):
        unit_word = _which(tokens, at, after, _LENGTHS if unit_word == "length" else _AMOUNTS, unit_word)
    if unit_word == "share" and (following := _share_of(tokens, after)):
        return f"the share of {following}"
    # "quarried fifteen kilometres up the valley": the distance of the way, not of the granite;
    # "the quarry is (lies) nine miles up the valley": the quarry's.
    if unit_word == "distance" and not _placed_by(tokens, at) and (way := _way(tokens, after)):
        return f"the distance {way}"
    if named := _measure_named(tokens, at):
        return named
    phrase = _measured(tokens, at, after)
    if not phrase:
        return ""
    return possessive(phrase, unit_word) if unit_word in _DIMENSIONS else f"the {unit_word} of {phrase}"


def _measure_named(tokens: list[_Token], at: int) -> str:
    """A measure the claim names before "of" and the figure ("The light has a nominal range
    of 22 nautical miles"): the nominal range, not "the length of the nominal range of".
    Whose it is stays unsaid: the source's line may not name the owner ("Nominal range: 22
    nautical miles"), and every word of the thing must be in the source's sentence."""
    if at < 2 or tokens[at - 1].text.lower() != "of":
        return ""
    i = _start_before(tokens, at - 1, 0)
    words = [t.text for t in tokens[i:at - 1]]
    if words and (words[0].lower() in _OWNERS or words[0].lower() == "the"):
        words = words[1:]
    return f"the {' '.join(words)}" if words else ""


def which_length(claim: str, start: int, end: int) -> str:
    """Which length the figure at claim[start:end] gives, by the words around it: "height",
    "distance" ("fifteen kilometres up the valley"), else "length"."""
    return _which(*_located(claim, start, end), _LENGTHS, "length")


def _located(claim: str, start: int, end: int) -> tuple[list[_Token], int, int]:
    """The claim's tokens, the first of the figure at claim[start:end] and the first after it."""
    tokens = [_Token(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(claim)]
    at = next((i for i, t in enumerate(tokens) if t.end > start), len(tokens))
    after = next((i for i, t in enumerate(tokens) if t.start >= end), len(tokens))
    return tokens, at, after


def thing_words(name: str) -> list[str]:
    """The words of a named thing that say what it is, without the verbs and the frame
    ("the year the six-kilometre section was reopened": six-kilometre, section)."""
    tokens = [_Token(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(name)]
    frame = _FRAME | _EMPTY | _ADVERBS | _BOUNDARY
    words = [re.sub(r"['’]s?$", "", t.text) for t in tokens if t.word and not _is_verb(t)]
    return [w for w in words if w.lower() not in frame]


def possessive(phrase: str, word: str) -> str:
    """"the catchment's area", "the boats' length"; a long phrase as "the area of ..."."""
    words = phrase.split()
    if words and words[0].lower() in _OWNERS:
        words[0] = "the"
    if len(words) > 3 or any(w.lower() in ("of", "and") for w in words):
        return f"the {word} of {' '.join(words)}"
    last = words[-1]
    mark = "'" if last.endswith("s") and last.islower() and len(last) > 3 else "'s"
    return f"{' '.join(words)}{mark} {word}"


def _which(tokens: list[_Token], at: int, after: int, cues: dict[str, str], default: str) -> str:
    """Which length (or amount) the claim gives: a word right after the figure ("two metres
    in height", "31 m tall") or just before it ("a height of 31 m", "costing £1.2 million")."""
    near = [t.text.lower() for t in tokens[after:after + 3]] + [t.text.lower() for t in tokens[max(0, at - 3):at]][::-1]
    return next((cues[w] for w in near if w in cues), default)


def _is_verb(token: _Token) -> bool:
    low = token.text.lower()
    if low in _AUX or low in _IRREGULAR or (low in _PRESENT and token.text.islower()):
        return True
    return token.text.islower() and low.endswith("ed") and len(low) > 3 and low not in _NOT_VERBS


def _is_figure(token: _Token) -> bool:
    return any(c.isdigit() for c in token.text)


def _event(tokens: list[_Token], at: int, after: int) -> str:
    """"the Esk Valley line reopened": the verb nearest before the figure in its clause
    (else the first after it), its auxiliaries, its subject and a short object."""
    clause = _clause(tokens, at)
    verb = _main_verb(tokens, clause, at, after)
    if verb is None:
        return ""
    first = verb
    while first > clause[0] and (tokens[first - 1].text.lower() in _AUX | _ADVERBS or _manner(tokens[first - 1])):
        first -= 1
    if first > 0 and tokens[first - 1].text.lower() == "to":
        return ""  # an infinitive ("to be ranked") is no event of its own
    # Auxiliaries and the adverbs that say which time it was ("first lit", "later reopened").
    group = [t.text for t in tokens[first:verb] if t.text.lower() in _AUX | _ADVERBS] + [tokens[verb].text]
    subject = _phrase_before(tokens, first, clause[0])
    begins = _start_before(tokens, first, clause[0])
    if (subject and len(group) == 1 and begins > clause[0] and _is_verb(tokens[begins - 1])
            and tokens[begins - 1].text.lower() not in _AUX and _participle(tokens[verb])):
        return f"{subject} {_be(subject)} {tokens[verb].text}"  # "owns a racing eight built in": "was built"
    if not subject:
        subject, carried = _main_subject(tokens)
        if carried and not any(w.lower() in _AUX for w in group) and _participle(tokens[verb]):
            group = [carried] + group  # "was jailed ... and released": "was released"
    obj = _object(tokens, verb + 1, clause[1], at)
    if not subject:
        # A subject too long to name ("Volunteers of the Arle Valley Railway Society"):
        # the event in the passive, "the six-kilometre section was reopened".
        if obj and len(group) == 1 and _participle(tokens[verb]):
            obj = " ".join(["the", *obj.split()[1:]]) if obj.split()[0].lower() in ("a", "an") else obj
            return f"{obj} {_be(obj)} {tokens[verb].text}"
        return ""
    return " ".join([subject, *group, obj] if obj else [subject, *group])


def _manner(token: _Token) -> bool:
    """"badly", "recently": an adverb inside a verb group."""
    return token.text.islower() and token.text.endswith("ly") and len(token.text) > 4


def _participle(token: _Token) -> bool:
    low = token.text.lower()
    return token.text.islower() and (low in _PARTICIPLES or (low.endswith("ed") and low not in _NOT_VERBS))


def _be(phrase: str) -> str:
    last = phrase.split()[-1]
    return "were" if last.islower() and last.endswith("s") and not last.endswith("ss") else "was"


def _main_verb(tokens: list[_Token], clause: tuple[int, int], at: int, after: int) -> int | None:
    """The nearest full verb before the figure, else the first after it, else a "had"
    of possession ("the play had its first night on ...")."""
    full = [i for i in range(*clause) if _is_verb(tokens[i]) and tokens[i].text.lower() not in _AUX]
    before = [i for i in full if i < at]
    if before or (before := [i for i in full if i >= after][:1]):
        return before[-1]
    having = [i for i in range(clause[0], at) if tokens[i].text.lower() in _HAVE and i + 1 < at
              and not _is_verb(tokens[i + 1])]
    return having[-1] if having else None


def _clause(tokens: list[_Token], at: int) -> tuple[int, int]:
    """Token bounds of the clause holding token `at`: between semicolons, dashes, brackets."""
    hard = {";", "(", ")", "[", "]", "–", "—"}
    start = max((i + 1 for i in range(at) if tokens[i].text in hard), default=0)
    end = next((i for i in range(at, len(tokens)) if tokens[i].text in hard), len(tokens))
    return start, end


def _phrase_before(tokens: list[_Token], stop: int, floor: int, limit: int = MAX_SUBJECT) -> str:
    """The noun phrase ending right before token `stop`: back to punctuation, a preposition
    or conjunction, a verb or a figure; none when longer than `limit` words. Before a
    verb, the head before a place: "The Harbour Tower in Port Elsin is": the tower."""
    i = _start_before(tokens, stop, floor)
    if i - 1 > floor and tokens[i - 1].text.lower() in _INNER and stop < len(tokens) and _is_verb(tokens[stop]):
        head = _start_before(tokens, i - 1, floor)
        if head < i - 1:
            i, stop = head, i - 1
    words = tokens[i:stop]
    if not _names(words) or len(words) > limit or words[0].text.lower() == "of":
        return ""
    return " ".join([_FIRST_WORD.get(words[0].text, words[0].text)] + [t.text for t in words[1:]])


def _start_before(tokens: list[_Token], stop: int, floor: int) -> int:
    i = stop
    while i > floor and _in_phrase(tokens, i - 1):
        i -= 1
    return i


def _names(words: list[_Token]) -> bool:
    return any(t.text.lower() not in _EMPTY for t in words)


def _in_phrase(tokens: list[_Token], i: int) -> bool:
    """A word of a noun phrase: not punctuation, a preposition, a verb or a figure; a word
    in -ing only before a noun ("the rowing club", not "increasing the rent")."""
    token, low = tokens[i], tokens[i].text.lower()
    if not token.word or low in _BOUNDARY or _is_verb(token) or _is_figure(token):
        return False
    verbal = low.endswith("ing") and token.text.islower() and len(low) > 5
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    then = tokens[i + 2].text.lower() if i + 2 < len(tokens) else ""
    # "increasing the rent", "the bore reaching two metres": a verb, not a noun's modifier
    # (but "a racing eight").
    return not (verbal and (following is None or following.text.lower() in _EMPTY | _APPROX or _is_figure(following)
                            or (following.text.lower() in _NUMBER_WORDS and then in _UNITS)))


def _main_subject(tokens: list[_Token]) -> tuple[str, str]:
    """The claim's first subject and, when its first verb group is passive ("was
    jailed"), its "be", for a verb coordinated without a subject of its own."""
    verb = next((i for i, t in enumerate(tokens) if _is_verb(t)), None)
    if verb is None:
        return "", ""
    following = next((t for t in tokens[verb + 1:] if t.text.lower() not in _ADVERBS), None)
    passive = tokens[verb].text.lower() in _BE and following is not None and _is_verb(following)
    return _phrase_before(tokens, verb, _clause(tokens, verb)[0]), tokens[verb].text if passive else ""


def _object(tokens: list[_Token], start: int, end: int, at: int) -> str:
    """A short object right after the verb ("released a new album"), never the figure;
    a count opening it is left out ("handled 212 vessel visits": vessel visits)."""
    if start < end and start != at and _is_figure(tokens[start]):
        start += 1
    i = start
    while i < end and i != at and _in_phrase(tokens, i):
        i += 1
    words = tokens[start:i]
    while words and words[-1].text.lower() in _EMPTY | _ADVERBS:  # "beat Marlow again", "passed the"
        words.pop()
    return " ".join(t.text for t in words) if _names(words) and len(words) <= MAX_OBJECT else ""


_WAYS = _words("up down along across off away from to")
_PLACING = _BE | _words("lies lie lay sits sit stands stand")


def _placed_by(tokens: list[_Token], at: int) -> bool:
    """Whether the word before the figure (past "about", "some") places a thing: "is", "lies"."""
    i = at - 1
    while i >= 0 and tokens[i].text.lower() in _APPROX:
        i -= 1
    return i >= 0 and tokens[i].text.lower() in _PLACING


def _way(tokens: list[_Token], after: int) -> str:
    """"fifteen kilometres up the valley": the way a distance runs (up to MAX_OBJECT words)."""
    end = after
    while end < len(tokens) and tokens[end].text.lower() in _WAYS:
        end += 1
    start = end
    while end < len(tokens) and end - start < MAX_OBJECT and _in_phrase(tokens, end):
        end += 1
    words = tokens[start:end]
    return " ".join(t.text for t in tokens[after:end]) if start > after and _names(words) else ""


def _share_of(tokens: list[_Token], after: int) -> str:
    """"88% of islanders": a share of what follows."""
    if after + 1 < len(tokens) and tokens[after].text.lower() == "of":
        end = after + 1
        while end < len(tokens) and _in_phrase(tokens, end) and end - after <= MAX_SUBJECT:
            end += 1
        if end > after + 1:
            return " ".join(t.text for t in tokens[after + 1:end])
    return ""


def _measured(tokens: list[_Token], at: int, after: int) -> str:
    """What a quantity measures: the noun phrase before it, across the verb or word that
    links them ("the tower is", "a grant worth", "the salary of the CEO by"); in an
    infobox statement ("Kellhaven Lighthouse, Height: 31 m"), the subject before the label."""
    if at >= 3 and tokens[at - 1].text == ":":
        comma = next((i for i in range(at - 2, -1, -1) if tokens[i].text == ","), None)
        return _phrase_before(tokens, comma, 0) if comma else ""
    stop = at
    while stop > 0 and stop > at - 2 and not _in_phrase(tokens, stop - 1) and tokens[stop - 1].word and not _is_figure(
            tokens[stop - 1]):
        stop -= 1
    return _phrase_before(tokens, stop, 0)
