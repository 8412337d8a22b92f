"""Real wiki life against the real test MediaWiki, followed by the patrol watcher: a page
moved (its rows, claims and judgements stay on one article, the API finds it by page id under
its new title), a revision's text hidden by a wiki admin (never read as empty), reverts of
every kind (rollback, undo, a manual revert, a bot's undo) scanned before the edits they
revert by two real RQ workers at once, a page deleted and restored, and the watcher reading
the burst five changes at a time (SIDE_PATROL_BATCH=5), with edits made between its reads.

The verifier does not run here (scan workers only): rows are judged elsewhere; here is
where they stand and which article they belong to.
"""
from __future__ import annotations

import json
import subprocess
import uuid

import django_rq
from django.core.management import call_command
from django.test import Client, TransactionTestCase, override_settings

from harness.mediawiki import shared_test_wiki
from sideapp.claims.models import ClaimReview
from sideapp.edits.audit import audit_record
from sideapp.models import Article, ArticleTitle, AuditEntry, Claim, PatrolCursor, PatrolEdit, PatrolRow, ScanJob
from sideapp.patrol.services import wiki_patrol_set
from sideapp.patrol.watcher import patrol_poll
from sideapp.scans.wikis import wiki_for
from tests.api_support import judge, scanned_page
from tests.users import make_user
from tests.worker_support import worker_command, worker_env, ROOT

PASSWORD = "pages-wiki-password"
NOWHERE = "http://127.0.0.1:9/pages"


def cited(sentence: str, slug: str) -> str:
    return f"{sentence}<ref>{{{{cite web |url={NOWHERE}/{slug} |title={slug}}}}}</ref>"


BASE = "'''Stone''' bridge.\n\n== History ==\n" + cited("The bridge was built of granite.", "granite") + "\n"


class WikiLifeTests(TransactionTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        try:
            cls.setUpWiki()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        for name in ("scan", "fetch", "verify", "default"):
            django_rq.get_queue(name).empty()
        if hasattr(cls, "configured"):
            cls.configured.disable()
        call_command("flush", verbosity=0, interactive=False, reset_sequences=False)
        super().tearDownClass()

    def _fixture_teardown(self):
        pass  # the tests read what setUpWiki left

    @classmethod
    def title(cls, name: str) -> str:
        return f"Pages {name} {cls.tag}"

    @classmethod
    def setUpWiki(cls) -> None:
        cls.tag = uuid.uuid4().hex[:6]
        cls.server = server = shared_test_wiki()
        cls.env = {"SIDE_WIKI_API_URL": server.api_url, "SIDE_PATROL_BATCH": "5"}
        cls.configured = override_settings(SIDE_WIKI_API_URL=server.api_url, SIDE_PATROL_BATCH=5)
        cls.configured.enable()
        server.create_account("Pages Alice", PASSWORD)
        cls.alice = server.site("Pages Alice", PASSWORD)
        server.create_account("Pages Robot", PASSWORD, groups=["bot"])
        cls.robot = server.site("Pages Robot", PASSWORD)
        for name in ("Hidden", "Order", "Bot", "Deleted", "Burst"):
            server.edit(cls.title(name), BASE)
        cls.judged_before_the_move()
        cls.wiki = wiki_for(api_url=server.api_url)
        wiki_patrol_set(wiki=cls.wiki, on=True)
        cls.burst()
        cls.polls = cls.poll_in_batches(between=cls.edits_between_reads, at_least=3)
        cls.reverts_first()
        cls.scan_with_two_workers()
        cls.deleted_and_restored()

    @classmethod
    def judged_before_the_move(cls) -> None:
        """A page scanned and judged before patrolling starts: its claims, an editor's
        review, an audit entry; the move must keep them all on its one row."""
        cls.move_article = scanned_page(cls.server, cls.title("Move"), BASE)
        cls.editor = make_user("pam_pages", "editor")
        claim = judge(Claim.objects.get(article=cls.move_article, text__contains="granite"))
        ClaimReview.objects.create(claim=claim, user=cls.editor, kind="dismissed", reason="claim_fine")
        audit_record(user=cls.editor, action=AuditEntry.Action.DISMISS, claim=claim, detail="judged before the move")
        cls.judged = claim

    @classmethod
    def edit(cls, who, name: str, text: str, **params) -> int:
        result = who.post("edit", token=who.get_token("csrf"), title=cls.title(name), text=text, **params)["edit"]
        return int(result["newrevid"])

    @classmethod
    def burst(cls) -> None:
        server, alice = cls.server, cls.alice
        added = BASE + cited("Its arches span 40 metres.", "arches") + "\n"
        cls.moved_rev = cls.edit(alice, "Move", added)
        server._admin_post("move", **{"from": cls.title("Move"), "to": cls.title("Moved"), "reason": "Side test"})
        cls.after_move_rev = cls.edit(alice, "Moved", added + cited("It carries a railway.", "railway") + "\n")
        # A revision whose text a wiki admin hides, between two readable ones.
        cls.hidden_base = cls.edit(alice, "Hidden", BASE + cited("It has seven arches.", "seven") + "\n")
        hidden_text = BASE + cited("It has seven arches.", "seven") + "\n" + cited("Its keeper was rude.", "rude") + "\n"
        cls.hidden_rev = cls.edit(alice, "Hidden", hidden_text)
        cls.after_hidden_rev = cls.edit(alice, "Hidden", hidden_text + cited("It was painted in 1990.", "paint") + "\n")
        server._admin_post("revisiondelete", type="revision", target=cls.title("Hidden"), ids=str(cls.hidden_rev),
                           hide="content", reason="Side test: hidden text")
        # Reverts: a rollback, an undo, a manual revert (the earlier text saved again).
        cls.rolled_rev = cls.edit(alice, "Order", BASE + cited("It was opened by a queen.", "queen") + "\n")
        cls.rollback_rev = int(server._admin_post("rollback", token_type="rollback", title=cls.title("Order"),
                                                  user="Pages Alice")["rollback"]["revid"])
        cls.undone_rev = cls.edit(alice, "Order", BASE + cited("It cost 300 pounds.", "cost") + "\n")
        cls.undo_rev = cls.edit(server.admin_site, "Order", "", undo=cls.undone_rev)
        cls.manual_rev = cls.edit(alice, "Order", BASE + cited("It is 90 metres long.", "long") + "\n")
        cls.manual_revert_rev = cls.edit(server.admin_site, "Order", BASE)
        # A bot undoes an edit: bots' edits are not checked, but this one closes the row.
        cls.bot_undone_rev = cls.edit(alice, "Bot", BASE + cited("It is haunted.", "haunted") + "\n")
        cls.bot_undo_rev = cls.edit(cls.robot, "Bot", "", undo=cls.bot_undone_rev, bot=1)
        cls.deleted_rev = cls.edit(alice, "Deleted", BASE + cited("It was rebuilt in 1950.", "rebuilt") + "\n")

    @classmethod
    def edits_between_reads(cls, n: int) -> None:
        if n < 2:
            cls.edit(cls.alice, "Burst", BASE + "".join(cited(f"Fact {i} of the bridge.", f"fact-{i}") + "\n"
                                                        for i in range(n + 1)))

    @classmethod
    def poll_in_batches(cls, between=lambda n: None, at_least: int = 1) -> list[tuple[str, str]]:
        """Reads until one ends without a place to resume; (what it said, resume) each."""
        polls = []
        for n in range(60):
            said = patrol_poll(wiki_id=cls.wiki.pk)
            polls.append((said, PatrolCursor.objects.get(wiki=cls.wiki).resume))
            between(n)
            if not polls[-1][1] and n + 1 >= at_least:
                break
        return polls

    @classmethod
    def reverts_first(cls) -> None:
        """The patrol scans queued newest first: every revert before the edit it reverts."""
        queue = django_rq.get_queue("scan")
        jobs = [job for job in queue.get_jobs() if job.func_name.endswith("scan_job")]
        queue.empty()
        for job in reversed(jobs):
            queue.enqueue(job.func_name, *job.args)
        cls.queued = len(jobs)

    @classmethod
    def scan_with_two_workers(cls) -> None:
        env = worker_env(**cls.env)
        workers = [subprocess.Popen(worker_command("scan"), env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True) for _ in range(2)]
        for worker in workers:
            _, err = worker.communicate(timeout=300)
            assert worker.returncode == 0, err[-3000:]

    @classmethod
    def deleted_and_restored(cls) -> None:
        row = PatrolRow.objects.get(edit__revid=cls.deleted_rev)
        cls.before_deletion = row.status
        cls.server.delete(cls.title("Deleted"))
        cls.poll_in_batches()
        row.refresh_from_db()
        cls.after_deletion = (row.status, Article.objects.get(pk=row.article_id).deleted_at is not None)
        cls.server._admin_post("undelete", title=cls.title("Deleted"), reason="Side test: restored")
        cls.poll_in_batches()
        row.refresh_from_db()
        cls.after_restoration = (row.status, Article.objects.get(pk=row.article_id).deleted_at is not None)

    def row(self, revid: int, text: str) -> PatrolRow:
        return PatrolRow.objects.select_related("closed_by").get(edit__revid=revid, claim__text__contains=text)

    # -- a moved page ---------------------------------------------------------------
    def test_a_moved_page_is_one_article_under_its_new_title_with_its_old_title_kept(self):
        rows = Article.objects.filter(wiki=self.wiki, page_id=self.move_article.page_id)
        self.assertEqual([(a.pk, a.title) for a in rows], [(self.move_article.pk, self.title("Moved"))])
        self.assertEqual(list(ArticleTitle.objects.filter(article=self.move_article).values_list("title", flat=True)),
                         [self.title("Move")])
        move = PatrolEdit.objects.get(kind="log", title=self.title("Move"))
        self.assertEqual(move.status, PatrolEdit.Status.MOVED)

    def test_rows_claims_judgements_and_audit_of_a_moved_page_stay_on_its_article(self):
        before = self.row(self.moved_rev, "arches span")
        after = self.row(self.after_move_rev, "railway")
        self.assertEqual({before.article_id, after.article_id}, {self.move_article.pk})
        self.assertEqual(before.status, PatrolRow.Status.ADDED)
        self.judged.refresh_from_db()
        self.assertEqual(self.judged.article_id, self.move_article.pk)
        self.assertTrue(ClaimReview.objects.filter(claim=self.judged, user=self.editor).exists())
        self.assertTrue(AuditEntry.objects.filter(claim=self.judged, article=self.move_article).exists())

    def test_findings_and_edit_check_answer_for_the_page_id_on_its_new_title(self):
        article = Article.objects.get(pk=self.move_article.pk)
        judge(Claim.objects.get(pk=self.judged.pk))
        answer = Client().get("/api/v1/findings", {"wiki_id": self.wiki.wikiid, "page_id": article.page_id})
        self.assertEqual(answer.status_code, 200, answer.content)
        self.assertEqual(answer.json()["title"], self.title("Moved"))
        by_title = Client().get("/api/v1/findings", {"wiki_id": self.wiki.wikiid, "title": self.title("Moved")})
        self.assertEqual(by_title.json()["page_id"], article.page_id)
        cards = Client().post("/v1/models/editing-suggestions:predict", json.dumps(
            {"wiki_id": self.wiki.wikiid, "page_id": article.page_id}), content_type="application/json").json()
        self.assertEqual([c["suggestion_id"].split("-")[1] for c in cards], [str(self.judged.pk)])

    def test_a_check_asked_by_page_id_reads_the_moved_page_into_its_own_row(self):
        with override_settings(SIDE_API_SCAN_LIMIT=100):
            answer = Client().post("/api/v1/scan", json.dumps({"wiki_id": self.wiki.wikiid,
                                                                "page_id": self.move_article.page_id}),
                                   content_type="application/json")
        self.assertEqual(answer.status_code, 202, answer.content)
        self.assertEqual(answer.json()["title"], self.title("Moved"))
        job = ScanJob.objects.get(pk=answer.json()["job"])
        self.assertEqual(job.items.get().page_id, self.move_article.page_id)

    # -- hidden text ------------------------------------------------------------------
    def test_a_revision_whose_text_is_hidden_is_unreadable_and_closes_no_row(self):
        edit = PatrolEdit.objects.get(revid=self.hidden_rev)
        self.assertEqual(edit.status, PatrolEdit.Status.UNREADABLE)
        self.assertIn("hidden", edit.reason)
        self.assertEqual(self.row(self.hidden_base, "seven").status, PatrolRow.Status.ADDED)

    def test_an_edit_after_a_hidden_revision_is_compared_with_the_nearest_readable_one(self):
        edit = PatrolEdit.objects.get(revid=self.after_hidden_rev)
        self.assertIn(f"compared with revision {self.hidden_base}", edit.reason)
        added = set(edit.rows.values_list("claim__text", flat=True))
        self.assertEqual(added, {"Its keeper was rude.", "It was painted in 1990."})
        self.assertLess(edit.claims_checked, Claim.objects.filter(article__title=self.title("Hidden")).count())

    # -- reverts in any order -----------------------------------------------------------
    def test_reverts_scanned_before_the_edits_they_revert_mark_them_reverted(self):
        self.assertGreaterEqual(self.queued, 10)
        for added, revert, text in ((self.rolled_rev, self.rollback_rev, "queen"),
                                    (self.undone_rev, self.undo_rev, "300 pounds"),
                                    (self.manual_rev, self.manual_revert_rev, "90 metres")):
            row = self.row(added, text)
            self.assertEqual((row.status, row.closed_by.revid), (PatrolRow.Status.REVERTED, revert), text)
            self.assertEqual(PatrolEdit.objects.get(revid=revert).status, PatrolEdit.Status.REVERTED)

    def test_a_bots_undo_closes_the_row_without_checking_anything(self):
        row = self.row(self.bot_undone_rev, "haunted")
        self.assertEqual((row.status, row.closed_by.revid), (PatrolRow.Status.REVERTED, self.bot_undo_rev))
        bot = PatrolEdit.objects.get(revid=self.bot_undo_rev)
        self.assertTrue(bot.bot)
        self.assertEqual((bot.status, bot.claims_checked, bot.rows.count()), (PatrolEdit.Status.REVERTED, 0, 0))

    # -- deletion -------------------------------------------------------------------
    def test_a_deleted_pages_rows_say_so_and_a_restored_one_resumes(self):
        self.assertEqual(self.before_deletion, PatrolRow.Status.ADDED)
        self.assertEqual(self.after_deletion, (PatrolRow.Status.DELETED, True))
        self.assertEqual(self.after_restoration, (PatrolRow.Status.ADDED, False))
        self.assertTrue(PatrolEdit.objects.filter(kind="log", status=PatrolEdit.Status.RESTORED,
                                                  title=self.title("Deleted")).exists())

    # -- reading in batches ------------------------------------------------------------
    def test_the_watcher_reads_a_burst_five_changes_at_a_time_taking_each_once(self):
        resumed = [resume for _, resume in self.polls if resume]
        self.assertGreaterEqual(len(resumed), 2, self.polls)
        cursor = PatrolCursor.objects.get(wiki=self.wiki)
        changes = self.server.admin_site.api("query", list="recentchanges", rcdir="newer", rclimit="max",
                                             rcstart=cursor.started_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                             rcnamespace=0, rctype="edit|new|log", rcprop="ids")
        on_wiki = {c["rcid"] for c in changes["query"]["recentchanges"]}
        taken = list(PatrolEdit.objects.filter(wiki=self.wiki).values_list("rcid", flat=True))
        self.assertEqual(len(taken), len(set(taken)))
        self.assertLessEqual(on_wiki, set(taken))
        burst = PatrolEdit.objects.filter(title=self.title("Burst"), kind="edit").count()
        self.assertEqual(burst, 2)  # both edits made between the reads
