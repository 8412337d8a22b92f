"""Anchor-text query expansion on a hand-made link graph."""
import tempfile
from pathlib import Path
from unittest import TestCase

from verifier_core.retrieval.anchors import AnchorDictionary, normalise_target
from verifier_core.wikitext.types import WikiLink


def links(*groups):
    """(target, anchor, times) -> that many WikiLinks."""
    return [WikiLink(target, anchor) for target, anchor, times in groups for _ in range(times)]


GRAPH = links(
    ("New York City", "New York", 3),
    ("New York (state)", "New York", 2),
    ("New York City", "NYC", 2),
    ("New York City", "Big Apple", 2),
    ("New York City", "Gotham", 1),  # used once: never an expansion term
    ("New York City Ballet", "New York City Ballet", 2),
    ("Mercury (planet)", "mercury", 2),
    ("Mercury (element)", "mercury", 2),  # a tie on "mercury"...
    ("Mercury (element)", "quicksilver", 3),  # ...that the element wins on incoming links
    ("Mercury (element)", "Hg", 2),
    ("Mercury (planet)", "innermost planet", 2),
    ("Zanzibar", "spice island", 1),  # seen once: ignored
    ("The (band)", "the", 5),  # a stop word alone is never a unit
    ("Museum of Modern Art", "the museum of modern art", 2),
    ("Museum of Modern Art", "MoMA", 4),
)


class AnchorDictionaryTests(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.anchors = AnchorDictionary.from_links(GRAPH)

    def test_a_unit_resolves_to_the_article_most_links_with_that_anchor_point_to(self):
        self.assertEqual(self.anchors.resolve("New York"), "New York City")

    def test_a_tie_goes_to_the_article_with_the_most_incoming_links(self):
        self.assertEqual(self.anchors.resolve("Mercury"), "Mercury (element)")

    def test_anchors_seen_fewer_than_two_times_are_ignored(self):
        self.assertIsNone(self.anchors.resolve("spice island"))
        self.assertEqual(self.anchors.find_units("trade on the spice island"), [])

    def test_the_window_shrinks_from_five_words_so_the_longest_unit_wins(self):
        units = self.anchors.find_units("A night at the New York City Ballet")
        self.assertEqual([(u.text, u.target) for u in units], [("new york city ballet", "New York City Ballet")])

    def test_a_five_word_anchor_is_recognised(self):
        units = self.anchors.find_units("Paintings in the Museum of Modern Art collection")
        self.assertEqual([u.target for u in units], ["Museum of Modern Art"])
        self.assertEqual((units[0].start, units[0].end), (2, 7))

    def test_each_query_word_belongs_to_at_most_one_unit(self):
        units = self.anchors.find_units("New York mercury New York")
        self.assertEqual([(u.start, u.end) for u in units], [(0, 2), (2, 3), (3, 5)])

    def test_stop_words_are_not_units_on_their_own(self):
        self.assertEqual(self.anchors.find_units("the"), [])

    def test_expansion_terms_are_the_articles_other_anchors_used_more_than_once(self):
        expansion = self.anchors.expand("Broadway shows in New York")
        self.assertEqual([u.target for u in expansion.units], ["New York City"])
        self.assertEqual([a for a, _ in expansion.terms], ["big apple", "nyc"])

    def test_expansion_terms_are_ordered_by_frequency(self):
        expansion = self.anchors.expand("toxicity of mercury")
        self.assertEqual([a for a, _ in expansion.terms], ["quicksilver", "hg"])

    def test_expansion_terms_weigh_less_than_the_original_terms(self):
        expansion = self.anchors.expand("New York", weight=0.25)
        self.assertTrue(all(w == 0.25 for _, w in expansion.terms))
        with self.assertRaises(ValueError):
            self.anchors.expand("New York", weight=1.0)

    def test_a_query_without_known_units_is_not_expanded(self):
        expansion = self.anchors.expand("completely unrelated words")
        self.assertEqual((expansion.units, expansion.terms), ([], []))

    def test_it_accepts_plain_target_anchor_pairs(self):
        pairs = [("new_York City", "the big apple"), ("New York City", "The  Big Apple")]
        anchors = AnchorDictionary.from_links(pairs)
        self.assertEqual(anchors.resolve("THE BIG APPLE"), "New York City")

    def test_it_survives_a_json_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "anchors.json"
            self.anchors.save(path)
            again = AnchorDictionary.load(path)
        self.assertEqual(again.counts, self.anchors.counts)
        self.assertEqual(again.expand("New York"), self.anchors.expand("New York"))

    def test_a_file_that_is_not_a_dictionary_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "x.json"
            path.write_text('{"links": []}')
            with self.assertRaises(ValueError):
                AnchorDictionary.load(path)

    def test_targets_are_normalised_like_wiki_titles(self):
        self.assertEqual(normalise_target("new_york  city#History"), "New york city")


class ExpansionInSearchTests(TestCase):
    """An index built with a dictionary expands sparse queries unless told not to."""

    @classmethod
    def setUpClass(cls):
        from tests.test_retrieval_support import build_engine

        cls.dir = tempfile.TemporaryDirectory()
        path = Path(cls.dir.name) / "anchors.json"
        AnchorDictionary.from_links(links(("Big Ben", "Elizabeth Tower", 2), ("Big Ben", "Big Ben", 3),
                                          ("Big Ben", "Great Bell", 2))).save(path)
        cls.tmp, cls.engine = build_engine(anchors_path=path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()
        cls.dir.cleanup()

    def test_expansion_terms_enter_the_query_below_the_original_terms(self):
        from verifier_core.retrieval.searching import SearchOptions, query_weights

        weights = query_weights(self.engine._snap, "Elizabeth Tower", SearchOptions())
        self.assertEqual(weights["elizabeth"], 1.0)
        self.assertEqual(weights["tower"], 1.0)
        self.assertEqual((weights["big"], weights["ben"], weights["bell"]), (0.3, 0.3, 0.3))
        plain = query_weights(self.engine._snap, "Elizabeth Tower", SearchOptions(expand=False))
        self.assertEqual(set(plain), {"elizabeth", "tower"})

    def test_expansion_is_on_by_default_and_can_be_turned_off(self):
        expanded = self.engine.search("Elizabeth Tower", k=1, mode="sparse")
        plain = self.engine.search("Elizabeth Tower", k=1, mode="sparse", expand=False)
        self.assertEqual(expanded[0].url, "https://london.example/big-ben")
        self.assertEqual(plain[0].url, "https://www.paris-guide.example/eiffel")
