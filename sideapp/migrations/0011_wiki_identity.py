"""Wikis known by what they say of themselves (siteinfo), and the copies that each new
address of one wiki made merged into one row.

Rows made before this had no identity, so the copies are found by their address: the
same host and path whatever the scheme, port or "www." (the demo on another port, http
becoming https). Claims, reviews, votes and audit entries of the copies are kept on the
merged row (sideapp.scans.merging); later moves are found by siteinfo as they happen.
"""
from collections import defaultdict
from urllib.parse import urlsplit

from django.db import migrations, models

from sideapp.scans.merging import Models, wiki_merge


def _address(api_url: str) -> str:
    parts = urlsplit(api_url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    return f"{host}{parts.path}"


def merge_copies(apps, schema_editor):
    m = Models.of(apps)
    copies = defaultdict(list)
    for wiki in m.Wiki.objects.order_by("pk"):
        copies[_address(wiki.api_url), wiki.name].append(wiki)
    for rows in copies.values():
        keep = rows[-1]  # the newest address is the likeliest to answer
        for drop in rows[:-1]:
            wiki_merge(m, keep=keep, drop=drop)


class Migration(migrations.Migration):

    dependencies = [
        ('sideapp', '0010_claim_flagged_verdict_index'),
        ('annotation', '0002_item_queue_indexes'),  # the votes that merging keeps
    ]

    operations = [
        migrations.AddField(
            model_name='wiki',
            name='identified_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='wiki',
            name='script_path',
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.AddField(
            model_name='wiki',
            name='server',
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AddField(
            model_name='wiki',
            name='wikiid',
            field=models.CharField(blank=True, db_index=True, max_length=100),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='action',
            field=models.CharField(choices=[('apply_add', 'added a suggested citation'), ('apply_replace', 'replaced a citation with a suggested one'), ('tag', 'tagged a citation {{failed verification}}'), ('dismiss', 'dismissed a flag'), ('verified', 'marked a claim verified'), ('report', 'copied an article report'), ('scan_start', 'started a scan'), ('scan_cancel', 'cancelled a scan'), ('scan_rerun', 're-ran a scan'), ('take_back', 'took back a judgement'), ('dismiss_suggestion', 'dismissed a suggestion'), ('index_update', 'asked for a corpus index update'), ('wiki_add', 'added a wiki')], max_length=32),
        ),
        migrations.RunPython(merge_copies, migrations.RunPython.noop),
    ]
