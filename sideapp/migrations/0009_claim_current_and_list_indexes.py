"""Claim.current (held by the article's current revision), the editors' list indexes, and
the audit log's "index update" action.

The flag is filled from RevisionClaim for existing rows; pg_trgm backs the search.
"""

import django.contrib.postgres.indexes
from django.contrib.postgres.operations import TrigramExtension
import django.db.models.functions.comparison
import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sideapp', '0008_corpus_passages'),
    ]

    operations = [
        TrigramExtension(),
        migrations.RemoveIndex(
            model_name='claim',
            name='claim_flagged_score',
        ),
        migrations.AddField(
            model_name='claim',
            name='current',
            field=models.BooleanField(default=False),
        ),
        migrations.RunSQL(
            """UPDATE sideapp_claim SET current = TRUE WHERE id IN (
                   SELECT rc.claim_id FROM sideapp_revisionclaim rc
                   JOIN sideapp_article a ON a.current_revision_id = rc.revision_id)""",
            reverse_sql=migrations.RunSQL.noop),
        migrations.AddIndex(
            model_name='claim',
            index=models.Index(models.OrderBy(models.F('score'), nulls_first=True), models.OrderBy(models.F('id')), condition=models.Q(('current', True), ('flagged', True)), name='claim_flagged_list'),
        ),
        migrations.AddIndex(
            model_name='claim',
            index=models.Index(models.OrderBy(models.F('score'), nulls_first=True), models.OrderBy(models.F('id')), condition=models.Q(('current', True)), name='claim_current_score'),
        ),
        migrations.AddIndex(
            model_name='claim',
            index=django.contrib.postgres.indexes.GinIndex(django.contrib.postgres.indexes.OpClass(django.db.models.functions.text.Upper('text'), name='gin_trgm_ops'), name='claim_text_trgm'),
        ),
        migrations.AddIndex(
            model_name='claim',
            index=django.contrib.postgres.indexes.GinIndex(django.contrib.postgres.indexes.OpClass(django.db.models.functions.text.Upper('sentence_rest'), name='gin_trgm_ops'), name='claim_rest_trgm'),
        ),
        migrations.AddIndex(
            model_name='claim',
            index=models.Index(models.OrderBy(models.F('last_revision_id'), descending=True), models.OrderBy(models.F('score'), nulls_first=True), models.OrderBy(models.F('id')), condition=models.Q(('current', True)), name='claim_current_newest'),
        ),
        migrations.AddIndex(
            model_name='claim',
            index=django.contrib.postgres.indexes.GinIndex(django.contrib.postgres.indexes.OpClass(django.db.models.functions.text.Upper(django.db.models.functions.comparison.Cast('section', models.TextField())), name='gin_trgm_ops'), name='claim_section_trgm'),
        ),
        migrations.AddIndex(
            model_name='claim',
            index=models.Index(models.OrderBy(models.F('score'), nulls_first=True), models.OrderBy(models.F('id')), condition=models.Q(('current', True), ('needs_citation', True)), name='claim_needs_source'),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='action',
            field=models.CharField(choices=[('apply_add', 'added a suggested citation'), ('apply_replace', 'replaced a citation with a suggested one'), ('tag', 'tagged a citation {{failed verification}}'), ('dismiss', 'dismissed a flag'), ('verified', 'marked a claim verified'), ('report', 'copied an article report'), ('scan_start', 'started a scan'), ('scan_cancel', 'cancelled a scan'), ('scan_rerun', 're-ran a scan'), ('take_back', 'took back a judgement'), ('dismiss_suggestion', 'dismissed a suggestion'), ('index_update', 'asked for a corpus index update')], max_length=32),
        ),
    ]
