"""Patrol against the real test MediaWiki: two wiki users (and a bot) edit through the
API while patrolling is on; watchers read the recent changes (in this process, in a
fresh process after a "restart", two processes at once, one killed mid-read), real RQ
workers check what each edit added, and each test reads one part of what that left.
"""
from __future__ import annotations

import subprocess
import uuid
from datetime import timedelta

from django.test import Client, override_settings

from harness.faulty_proxy import FaultyProxy
from sideapp.models import Claim, PatrolCursor, PatrolEdit, PatrolRow, ScanJob, Source, Wiki
from sideapp.patrol.services import wiki_patrol_set
from sideapp.patrol.watcher import patrol_poll
from sideapp.scans.wikis import wiki_for
from tests.pipeline_support import SharedPipelineTestCase
from tests.users import PASSWORD, cast
from tests.worker_support import ROOT, worker_env

EDITORS = ("Patrol Alice", "Patrol Bob")
WIKI_PASSWORD = "patrol-wiki-password"
CATCHMENT = "The River Arle and its catchment"
FLAMINGOS = "pink flamingos"
FAILING = "A colony of pink flamingos has nested on its salt marshes every winter since 1990"


def cited(sentence: str, url: str, title: str) -> str:
    return f"{sentence}<ref>{{{{cite web |url={url} |title={title}}}}}</ref>"


class PatrolOnTheWikiTests(SharedPipelineTestCase):
    @classmethod
    def setUpPipeline(cls) -> None:
        cls.users = cast()
        cls.tag = uuid.uuid4().hex[:6]
        server = cls.wiki
        # The test wiki is the configured one (every harness wiki says it is "Side Demo Wiki":
        # another one answering at the default address must not be taken for it).
        cls.env = {**cls.env, "SIDE_WIKI_API_URL": server.api_url}
        cls.wiki_settings = override_settings(SIDE_WIKI_API_URL=server.api_url)
        cls.wiki_settings.enable()
        acp = f"{cls.base}/pages/acp-river-arle.html"
        cls.base_pages(server, acp)
        cls.sites = {}
        for name in EDITORS:
            server.create_account(name, WIKI_PASSWORD)
            cls.sites[name] = server.site(name, WIKI_PASSWORD)
        server.create_account("Patrol Robot", WIKI_PASSWORD, groups=["bot"])
        cls.sites["bot"] = server.site("Patrol Robot", WIKI_PASSWORD)
        cls.row = wiki_for(api_url=server.api_url)
        wiki_patrol_set(wiki=cls.row, on=True)
        cls.edit_and_poll(server, acp)
        cls.run_workers()

    @classmethod
    def title(cls, name: str) -> str:
        return f"Patrol {name} {cls.tag}"

    @classmethod
    def base_pages(cls, server, acp: str) -> None:
        """Pages as they were before patrolling started (so never scanned by Side editor)."""
        river = cited("The Arle is a river in the west.", acp, CATCHMENT)
        cls.river_text = f"'''Arle''' river.\n\n== Course ==\n{river}\n"
        server.edit(cls.title("River"), cls.river_text)
        server.edit(cls.title("Revert"), cls.river_text)
        server.edit(cls.title("Doomed"), cls.river_text)
        facts = "\n".join(cited(f"Lake fact number {i} was recorded by the survey of {1800 + i}.",
                                f"{cls.base}/nowhere/lake-fact-{i}.html", f"Lake fact {i}") for i in range(200))
        cls.lake_text = f"'''Lake''' facts.\n\n== Facts ==\n{facts}\n"
        server.edit(cls.title("Lake"), cls.lake_text)

    @classmethod
    def user_edit(cls, who: str, title: str, text: str, **params) -> int:
        site = cls.sites[who]
        result = site.post("edit", token=site.get_token("csrf"), title=title, text=text, **params)["edit"]
        return int(result["newrevid"])

    @classmethod
    def edit_and_poll(cls, server, acp: str) -> None:
        alice, bob = EDITORS
        failing = cited(f"{FAILING}.", acp, CATCHMENT)
        cls.failing_rev = cls.user_edit(alice, cls.title("River"), cls.river_text + failing + "\n")
        supporting = cited("It rises on Brannock Moor and flows for about 64 kilometres to the sea at Kellhaven.",
                           acp, CATCHMENT)
        cls.supporting_rev = cls.user_edit(bob, cls.title("River"), cls.river_text + failing + " " + supporting + "\n")
        cls.bot_rev = cls.user_edit("bot", cls.title("River"), cls.river_text + failing + " " + supporting
                                    + "\n\nBot cleanup.\n", bot=1)
        patrol_poll(wiki_id=cls.row.pk)
        cls.added_rev = cls.user_edit(alice, cls.title("Revert"), cls.river_text + failing + "\n")
        cls.killed_mid_read(server)
        cls.doomed_rev = cls.user_edit(alice, cls.title("Doomed"), cls.river_text + failing + "\n")
        cls.poll_in_processes(1)  # a watcher started again, in a fresh process
        doomed = PatrolEdit.objects.filter(revid=cls.doomed_rev).first()
        assert doomed is not None, (cls.watcher_output, list(PatrolEdit.objects.values_list("revid", "title")))
        cls.doomed_rcid = doomed.rcid
        server.delete(cls.title("Doomed"))  # before a worker reads its revision
        cls.undo_rev = int(server._admin_post("edit", title=cls.title("Revert"), undo=cls.added_rev)["edit"]["newrevid"])
        lake = cls.lake_text.replace("== Facts ==\n", "== Facts ==\n" + cited(
            "The lake is fed by the River Arle, which rises on Brannock Moor.", acp, CATCHMENT) + "\n")
        cls.lake_rev = cls.user_edit(bob, cls.title("Lake"), lake)
        cls.new_rev = cls.user_edit(bob, cls.title("Spring"), cited(
            "The river flows for about 64 kilometres to the sea at Kellhaven.", acp, CATCHMENT) + "\n", createonly=1)
        server._admin_post("move", **{"from": cls.title("Spring"), "to": cls.title("Spring moved"),
                                      "reason": "Side test: a page move"})
        cls.removing_rev = cls.user_edit(bob, cls.title("Lake"), lake.replace(cited(
            "Lake fact number 7 was recorded by the survey of 1807.", f"{cls.base}/nowhere/lake-fact-7.html",
            "Lake fact 7"), "Lake fact number 7 was recorded by the survey of 1807."))
        cls.two_watchers_at_once(server)

    @classmethod
    def watcher(cls, proxy: FaultyProxy) -> subprocess.Popen:
        """`manage.py patrol_poll` in a fresh process, reading the wiki through `proxy`."""
        command = [str(ROOT / ".venv/bin/python"), str(ROOT / "manage.py"), "patrol_poll", "--wiki", str(cls.row.pk)]
        return subprocess.Popen(command, env=worker_env(**{**cls.env, "SIDE_WIKI_API_URL": proxy.api_url}), cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    @classmethod
    def killed_mid_read(cls, server) -> None:
        """A watcher killed (SIGKILL) while the wiki is answering its read of recent changes:
        the proxy holds that request, so the kill lands inside the read, cursor row locked."""
        cursor = PatrolCursor.objects.get(wiki=cls.row)
        with FaultyProxy(server.base_url) as proxy:
            proxy.hold("list=recentchanges")
            watcher = cls.watcher(proxy)
            proxy.wait_held(1, timeout=120)
            watcher.kill()
            watcher.wait(timeout=30)
        after = PatrolCursor.objects.get(wiki=cls.row)
        cls.killed = {"signal": -watcher.returncode,
                      "cursor moved": (after.last_timestamp, after.resume) != (cursor.last_timestamp, cursor.resume),
                      "taken": PatrolEdit.objects.filter(revid=cls.added_rev).exists()}
        Wiki.objects.filter(pk=cls.row.pk).update(api_url=server.api_url)

    @classmethod
    def two_watchers_at_once(cls, server) -> None:
        """The first watcher's read is held by the proxy while the second starts and ends: they
        overlap for certain, and the second must leave the wiki to the first."""
        with FaultyProxy(server.base_url) as proxy:
            proxy.hold("list=recentchanges")
            first = cls.watcher(proxy)
            proxy.wait_held(1, timeout=120)
            second = cls.watcher(proxy)
            second_output = second.communicate(timeout=120)
            cls.overlapped = first.poll() is None and proxy.held == 1
            proxy.release()
            first_output = first.communicate(timeout=120)
        cls.watcher_output = [first_output, second_output]
        for proc, (out, err) in zip((first, second), cls.watcher_output):
            assert proc.returncode == 0, err[-3000:]
        Wiki.objects.filter(pk=cls.row.pk).update(api_url=server.api_url)

    @classmethod
    def poll_in_processes(cls, count: int) -> None:
        command = [str(ROOT / ".venv/bin/python"), str(ROOT / "manage.py"), "patrol_poll", "--wiki", str(cls.row.pk)]
        procs = [subprocess.Popen(command, env=worker_env(**cls.env), cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(count)]
        cls.watcher_output = [p.communicate(timeout=120) for p in procs]
        for proc, (out, err) in zip(procs, cls.watcher_output):
            assert proc.returncode == 0, err[-3000:]

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, "wiki_settings"):
            cls.wiki_settings.disable()
        super().tearDownClass()

    def editor(self) -> Client:
        client = Client()
        assert client.login(username=self.users["editor"].username, password=PASSWORD)
        return client

    def row_of(self, revid: int, text: str) -> PatrolRow:
        return PatrolRow.objects.select_related("claim", "edit").get(edit__revid=revid, claim__text__contains=text)

    # -- the feed -------------------------------------------------------------------
    def test_an_added_failing_citation_is_on_the_patrol_page_with_its_verdict_and_author(self):
        row = self.row_of(self.failing_rev, FLAMINGOS)
        self.assertIn(row.claim.verdict, ("not_supported", "partially_supported"))
        page = self.editor().get("/patrol/").content.decode()
        self.assertIn(f'data-revid="{self.failing_rev}"', page)
        self.assertIn("Patrol Alice", page)
        self.assertIn(FLAMINGOS, page)
        self.assertIn(f'<span class="status {row.claim.verdict}">{row.claim.get_verdict_display()}</span>', page)
        self.assertIn(f"diff={self.failing_rev}", page)

    def test_the_atom_feed_carries_the_flagged_row_for_the_token_only(self):
        page = self.editor().get("/patrol/").content.decode()
        start = page.index("/patrol/feed.atom?token=")
        url = page[start:page.index('"', start)]
        feed = Client().get(url)
        self.assertEqual(feed.status_code, 200)
        self.assertIn("application/atom+xml", feed["Content-Type"])
        body = feed.content.decode()
        self.assertIn(FLAMINGOS, body)
        self.assertIn("Patrol Alice", body)
        self.assertEqual(Client().get("/patrol/feed.atom?token=wrong").status_code, 404)

    def test_an_added_supporting_citation_is_supported_and_out_of_the_flagged_view(self):
        row = self.row_of(self.supporting_rev, "Brannock Moor")
        self.assertEqual(row.claim.verdict, "supported")
        client = self.editor()
        self.assertNotIn(f'data-revid="{self.supporting_rev}"', client.get("/patrol/").content.decode())
        self.assertIn(f'data-revid="{self.supporting_rev}"', client.get("/patrol/?show=all").content.decode())

    def test_the_public_api_answers_the_rows_of_a_wiki(self):
        answer = Client().get("/api/v1/patrol", {"wiki_id": self.row.wikiid, "all": "1"}).json()
        revids = {r["revid"] for r in answer["rows"]}
        self.assertIn(self.failing_rev, revids)
        failing = next(r for r in answer["rows"] if r["revid"] == self.failing_rev)
        self.assertEqual((failing["user"], failing["flagged"]), ("Patrol Alice", True))
        self.assertIn(failing["verdict"], ("not_supported", "partially_supported"))
        self.assertTrue(failing["reason"])
        later = Client().get("/api/v1/patrol", {"wiki_id": self.row.wikiid, "since": "2999-01-01T00:00:00Z"}).json()
        self.assertEqual(later["rows"], [])

    def test_marking_a_row_patrolled_hides_it_from_that_user_only_and_is_audited(self):
        row = self.row_of(self.failing_rev, FLAMINGOS)
        client = self.editor()
        self.assertEqual(client.post(f"/patrol/rows/{row.pk}/patrolled/", HTTP_HX_REQUEST="true").status_code, 200)
        self.assertNotIn(f'id="patrol-row-{row.pk}"', client.get("/patrol/").content.decode())
        self.assertIn(f'id="patrol-row-{row.pk}"', client.get("/patrol/?show=patrolled").content.decode())
        admin = Client()
        admin.login(username=self.users["admin"].username, password=PASSWORD)
        self.assertIn(f'id="patrol-row-{row.pk}"', admin.get("/patrol/").content.decode())
        self.assertTrue(row.claim.audit_entries.filter(action="patrolled").exists())
        row.marks.all().delete()

    # -- what each kind of edit ends as -----------------------------------------------
    def test_a_bots_edit_is_read_to_close_rows_but_not_checked(self):
        edit = PatrolEdit.objects.get(revid=self.bot_rev)
        self.assertTrue(edit.bot)
        self.assertEqual(edit.status, PatrolEdit.Status.SKIPPED, edit.reason)
        self.assertEqual(edit.reason, "a bot's edit, not checked (SIDE_PATROL_BOTS)")  # it took nothing out
        self.assertIsNotNone(edit.scan_job)  # read, so that what it takes out is closed in its name
        self.assertFalse(edit.rows.exists())
        self.assertEqual(edit.claims_checked, 0)

    def test_a_revert_marks_the_added_row_reverted(self):
        self.assertEqual(self.row_of(self.added_rev, FLAMINGOS).status, PatrolRow.Status.REVERTED)
        undo = PatrolEdit.objects.get(revid=self.undo_rev)
        self.assertEqual(undo.status, PatrolEdit.Status.REVERTED, undo.reason)
        self.assertIn("mw-undo", undo.tags)

    def test_a_deleted_page_ends_in_words_not_an_error(self):
        edit = PatrolEdit.objects.get(revid=self.doomed_rev)
        self.assertEqual(edit.status, PatrolEdit.Status.UNREADABLE)
        self.assertIn("deleted", edit.reason)
        deletion = PatrolEdit.objects.get(kind="log", title=self.title("Doomed"))
        self.assertEqual(deletion.status, PatrolEdit.Status.DELETED)

    def test_a_new_page_has_its_citation_checked(self):
        edit = PatrolEdit.objects.get(revid=self.new_rev)
        self.assertEqual((edit.kind, edit.parent_revid), ("new", 0))
        self.assertEqual(edit.rows.get().claim.verdict, "supported")

    def test_a_page_move_ends_in_words(self):
        move = PatrolEdit.objects.get(kind="log", title=self.title("Spring"))
        self.assertEqual(move.status, PatrolEdit.Status.MOVED)
        self.assertIn(f"moved the page to {self.title('Spring moved')}", move.reason)

    def test_an_edit_that_only_removes_a_citation_says_so(self):
        edit = PatrolEdit.objects.get(revid=self.removing_rev)
        self.assertEqual(edit.status, PatrolEdit.Status.REMOVED, edit.reason)
        self.assertFalse(edit.rows.exists())

    def test_one_citation_added_to_a_page_of_200_verifies_one_claim(self):
        edit = PatrolEdit.objects.get(revid=self.lake_rev)
        self.assertEqual(edit.claims_checked, 1)
        lake = Claim.objects.filter(article__title=self.title("Lake"))
        self.assertGreaterEqual(lake.count(), 201)
        self.assertEqual(list(lake.exclude(verify_state=Claim.State.PENDING).values_list("text", flat=True)),
                         ["The lake is fed by the River Arle, which rises on Brannock Moor."])
        fetched = Source.objects.filter(citations__article__title=self.title("Lake")).exclude(
            status=Source.Status.PENDING).distinct()
        self.assertEqual(fetched.count(), 1)
        self.assertEqual(ScanJob.objects.get(pk=edit.scan_job_id).status, ScanJob.Status.DONE)

    # -- no gaps, no duplicates ----------------------------------------------------
    def test_every_change_on_the_wiki_is_taken_exactly_once(self):
        cursor = PatrolCursor.objects.get(wiki=self.row)
        changes = self.wiki.admin_site.api("query", list="recentchanges", rcdir="newer", rclimit="max",
                                           rcstart=cursor.started_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                           rcnamespace=0, rctype="edit|new|log", rcprop="ids")
        on_wiki = {c["rcid"] for c in changes["query"]["recentchanges"]}
        taken = list(PatrolEdit.objects.filter(wiki=self.row).values_list("rcid", flat=True))
        self.assertEqual(len(taken), len(set(taken)))
        # The wiki drops a deleted page's edits from its recent changes; taken before that.
        self.assertEqual(set(taken) - {self.doomed_rcid}, on_wiki)
        edits = PatrolEdit.objects.filter(wiki=self.row).exclude(kind="log")  # a bot's too: read to close rows
        self.assertEqual(ScanJob.objects.filter(kind=ScanJob.Kind.PATROL).count(), edits.count())
        # Of two watchers at once (the first held inside its read while the second ran), the
        # first took the new changes and the second left the wiki to it.
        self.assertTrue(self.overlapped)
        first, second = (out for out, _ in self.watcher_output)
        self.assertIn("another watcher is reading it", second)
        self.assertNotIn("0 new changes", first)

    def test_a_watcher_killed_in_the_middle_of_its_read_takes_nothing_and_the_next_read_does(self):
        self.assertEqual(self.killed, {"signal": 9, "cursor moved": False, "taken": False})
        self.assertEqual(PatrolEdit.objects.filter(revid=self.added_rev).count(), 1)

    def test_a_cursor_older_than_the_wikis_recent_changes_reports_the_missed_changes(self):
        cursor = PatrolCursor.objects.get(wiki=self.row)
        kept = cursor.last_timestamp
        PatrolCursor.objects.filter(pk=cursor.pk).update(last_timestamp=kept - timedelta(days=120))
        patrol_poll(wiki_id=self.row.pk)
        cursor.refresh_from_db()
        self.assertIn("were missed", cursor.missed)
        PatrolCursor.objects.filter(pk=cursor.pk).update(missed="")

    @override_settings(SIDE_WIKI_RETRIES=1)
    def test_a_wiki_that_does_not_answer_backs_off_and_says_so_on_the_wikis_page(self):
        down = Wiki.objects.create(api_url="http://127.0.0.1:9/api.php", name="Down wiki")
        wiki_patrol_set(wiki=down, on=True)
        self.assertIn("did not answer", patrol_poll(wiki_id=down.pk))
        self.assertIn("waiting until", patrol_poll(wiki_id=down.pk))
        cursor = PatrolCursor.objects.get(wiki=down)
        self.assertEqual((cursor.state, cursor.failures), (PatrolCursor.State.UNREACHABLE, 1))
        admin = Client()
        admin.login(username=self.users["admin"].username, password=PASSWORD)
        self.assertIn("the wiki did not answer (1 time in a row)", admin.get("/wikis/").content.decode())
        down.delete()
