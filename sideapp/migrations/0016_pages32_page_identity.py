"""Pages known by their page id (issue 32): an article's title history, deleted pages, the
revision's text hash (reverts), scans asked by page id, the edit that closed a patrol row.

Before this, a moved page got a second article row under its new title with the same page
id; each such set of rows is merged here into the row of the newest revision (its title is
the page's latest), through the same code that merges a wiki's copies
(sideapp.scans.merging.article_merge): claims, judgements, votes, patrol rows and audit
entries all end on the kept row, and the other titles become its title history. The next
migration makes the page id unique per wiki.
"""
from collections import defaultdict

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

from sideapp.scans.merging import Models, article_merge


def merge_moved_pages(apps, schema_editor):
    m = Models.of(apps)
    rows = defaultdict(list)
    for article in m.Article.objects.exclude(page_id=None).select_related("current_revision").order_by("pk"):
        rows[article.wiki_id, article.page_id].append(article)
    for copies in rows.values():
        if len(copies) < 2:
            continue
        copies.sort(key=lambda a: (a.current_revision.rev_id if a.current_revision else -1, a.pk))
        keep = copies[-1]
        for drop in copies[:-1]:
            article_merge(m, keep=keep, drop=drop)
            keep.refresh_from_db()


class Migration(migrations.Migration):

    dependencies = [
        ('sideapp', '0015_patrol23_watcher_feed'),
        ('annotation', '0002_item_queue_indexes'),  # the votes that merging keeps
    ]

    operations = [
        migrations.RemoveConstraint(model_name='article', name='article_unique_title'),
        migrations.AddField(
            model_name='article', name='titled_at',
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddField(
            model_name='article', name='deleted_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name='article', index=models.Index(fields=['wiki', 'title'], name='article_title'),
        ),
        migrations.AddField(
            model_name='revision', name='sha1',
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.AddField(
            model_name='scanitem', name='page_id',
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.CreateModel(
            name='ArticleTitle',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('title', models.CharField(max_length=255)),
                ('until', models.DateTimeField()),
                ('reason', models.TextField(blank=True)),
                ('article', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='titles',
                                              to='sideapp.article')),
            ],
            options={'ordering': ['-until', '-pk']},
        ),
        migrations.AddField(
            model_name='patrolrow', name='closed_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                    related_name='closed', to='sideapp.patroledit'),
        ),
        migrations.AlterField(
            model_name='patroledit', name='status',
            field=models.CharField(choices=[('queued', 'waiting for its revision to be read'), ('checking', 'its new citations are being checked'), ('nothing', 'added no citation'), ('removed', 'only removed citations'), ('reverted', 'reverted an earlier edit'), ('deleted', 'the page was deleted'), ('restored', 'the page was restored'), ('moved', 'a page move'), ('skipped', 'not checked'), ('unreadable', 'its revision could not be read')], default='queued', max_length=16),
        ),
        migrations.RunPython(merge_moved_pages, migrations.RunPython.noop),
    ]
