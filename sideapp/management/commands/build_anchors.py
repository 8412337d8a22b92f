"""Build the anchor dictionary for query expansion from wiki links:

    python manage.py build_anchors --out anchors.json              # scanned articles in the database
    python manage.py build_anchors --from-dir DIR --out anchors.json  # a folder of .wiki files

Optionally `--install-into INDEX` publishes it into an existing index (a new version
with the same passages), so queries expand from then on.
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from sideapp.management.database import require_migrated_database


class Command(BaseCommand):
    help = "Build the wiki anchor-text dictionary used for query expansion."

    def add_arguments(self, parser):
        parser.add_argument("--out", required=True, help="JSON file to write")
        parser.add_argument("--from-dir", help="read *.wiki files here instead of the database")
        parser.add_argument("--install-into", metavar="INDEX", help="also publish into this index")

    def handle(self, *args, **opts):
        require_migrated_database()
        from verifier_core.retrieval import AnchorDictionary

        counter = {"pages": 0, "links": 0}
        links = self._links(opts["from_dir"], counter)
        anchors = AnchorDictionary.from_links(links)
        try:
            anchors.save(opts["out"])
        except OSError as exc:
            raise CommandError(f"cannot write {opts['out']}: {exc}") from exc
        usable = sum(1 for a in anchors.counts if anchors.resolve(a) is not None)
        self.stdout.write(
            f"{counter['pages']} pages, {counter['links']} links, {len(anchors)} anchor texts "
            f"({usable} seen at least twice, used for expansion) -> {opts['out']}"
        )
        if opts["install_into"]:
            self._install(opts["install_into"], anchors)

    def _links(self, from_dir, counter):
        from verifier_core.progress import Progress
        from verifier_core.wikitext import extract_links

        total, pages = self._pages(from_dir)
        with Progress(total=total, what="pages read", stream=self.stderr._out) as progress:
            for text in pages:
                counter["pages"] += 1
                for link in extract_links(text):
                    counter["links"] += 1
                    yield link
                progress.advance()

    def _pages(self, from_dir):
        """(how many pages, the pages' wikitext)"""
        if from_dir:
            folder = Path(from_dir)
            if not folder.is_dir():
                raise CommandError(f"{folder} is not a directory")
            paths = sorted(folder.glob("*.wiki"))
            return len(paths), (p.read_text(encoding="utf-8", errors="replace") for p in paths)
        from sideapp.models import Article

        articles = Article.objects.exclude(current_revision=None).select_related("current_revision")
        return articles.count(), (a.current_revision.wikitext or "" for a in articles.iterator(chunk_size=200))

    def _install(self, index_dir, anchors) -> None:
        from verifier_core.retrieval import RetrievalEngine, RetrievalIndexError

        try:
            engine = RetrievalEngine.load(index_dir, auto_refresh=False)
            engine.set_anchors(anchors)
        except RetrievalIndexError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"installed into {index_dir} as version {engine.manifest['version']}")
