"""Shared fixtures for the retrieval tests (no tests here): a small hand-written corpus,
written for this project, and helpers to build an index from it once per test class."""
import json
from unittest import TestCase
import tempfile
from pathlib import Path

from verifier_core.retrieval import Document, IndexConfig, MiniLMEncoder, RetrievalEngine
from verifier_core.retrieval.builder import build_index
from verifier_core.retrieval.corpus import CorpusReport

BRIDGES = " ".join(
    f"Bridge number {i} crosses river {i % 7} and carries {i * 3} lanes of traffic built in {1800 + i}."
    for i in range(40)
)

DOCS = [
    Document("https://www.paris-guide.example/eiffel", "Eiffel Tower",
             "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris. It was "
             "designed by the engineering company of Gustave Eiffel and completed in 1889 for the "
             "World's Fair."),
    Document("https://www.paris-guide.example/louvre", "Louvre",
             "The Louvre is the world's most visited art museum, on the Right Bank of the Seine in "
             "Paris. It houses the Mona Lisa."),
    Document("https://www.paris-guide.example/notre-dame", "Notre-Dame de Paris",
             "Notre-Dame de Paris is a medieval Catholic cathedral on the Ile de la Cite in Paris. A "
             "fire in April 2019 destroyed its spire and most of its roof."),
    Document("https://london.example/thames", "River Thames",
             "The River Thames flows through southern England, including London. At 346 kilometres it "
             "is the longest river entirely in England."),
    Document("https://london.example/big-ben", "Big Ben",
             "Big Ben is the nickname for the Great Bell of the clock at the north end of the Palace of "
             "Westminster in London. The clock tower was completed in 1859."),
    Document("https://bio.example/photosynthesis", "Photosynthesis",
             "Photosynthesis is the process by which green plants use sunlight, water and carbon dioxide "
             "to make glucose and release oxygen."),
    Document("https://bio.example/mitochondrion", "Mitochondrion",
             "The mitochondrion is an organelle that produces most of the chemical energy of the cell in "
             "the form of ATP."),
    Document("https://ru.example/moscow", "Москва",
             "Москва — столица России, крупнейший по численности населения город страны. Город стоит "
             "на реке Москве."),
    Document("https://zh.example/tokyo-tower", "东京塔",
             "东京塔是位于日本东京都港区的电波塔，高333米，于1958年建成。"),
    Document("https://sport.example/raith-rovers", "Raith Rovers",
             "Raith Rovers is a Scottish football club based in Kirkcaldy, Fife. The club plays its home "
             "matches at Stark's Park."),
    Document("https://tech.example/firefox", "Firefox",
             "Mozilla Firefox is a free and open-source web browser developed by the Mozilla Foundation. "
             "It uses the Gecko rendering engine."),
    Document("https://long.example/bridges", "Bridges of the county", BRIDGES),
]

EXTRA_DOCS = [
    Document("https://space.example/mars", "Mars",
             "Mars is the fourth planet from the Sun, a cold desert world with a thin carbon dioxide "
             "atmosphere and two small moons, Phobos and Deimos."),
    Document("https://space.example/jupiter", "Jupiter",
             "Jupiter is the largest planet in the Solar System, a gas giant with a Great Red Spot "
             "storm larger than Earth."),
]


def encoder() -> MiniLMEncoder:
    return MiniLMEncoder()  # the model itself loads once per process, on first use


def build_engine(docs=DOCS, config: IndexConfig | None = None, anchors_path=None):
    """(TemporaryDirectory, engine) over `docs`; call .cleanup() on the directory."""
    tmp = tempfile.TemporaryDirectory()
    out = Path(tmp.name) / "index"
    build_index(out, list(docs), CorpusReport(documents=len(docs)), encoder=encoder(),
                config=config, anchors_path=anchors_path)
    return tmp, RetrievalEngine.load(out)


def write_corpus(path: Path, docs=DOCS, extra_lines=()) -> Path:
    with open(path, "w", encoding="utf-8") as handle:
        for doc in docs:
            handle.write(json.dumps({"url": doc.url, "title": doc.title, "text": doc.text}, ensure_ascii=False) + "\n")
        for line in extra_lines:
            handle.write(line + "\n")
    return path


class EngineTestCase(TestCase):
    """Tests that share one small engine built over DOCS for the whole class."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tmp, cls.engine = build_engine()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()
        super().tearDownClass()
