# The audit log of editors' actions (sideapp.edits); after 0005 (branches linearised at merge).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sideapp', '0005_claim_reviews_scan_cancel'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='AuditEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('action', models.CharField(choices=[('apply_add', 'added a suggested citation'), ('apply_replace', 'replaced a citation with a suggested one'), ('tag', 'tagged a citation {{failed verification}}'), ('dismiss', 'dismissed a flag'), ('verified', 'marked a claim verified'), ('report', 'copied an article report'), ('scan_start', 'started a scan'), ('scan_cancel', 'cancelled a scan'), ('scan_rerun', 're-ran a scan'), ('take_back', 'took back a judgement'), ('dismiss_suggestion', 'dismissed a suggestion')], max_length=32)),
                ('revision_id', models.BigIntegerField(blank=True, null=True)),
                ('detail', models.TextField(blank=True)),
                ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                ('article', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='audit_entries', to='sideapp.article')),
                ('claim', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='audit_entries', to='sideapp.claim')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='audit_entries', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name_plural': 'audit entries',
                'ordering': ['-created_at', '-pk'],
            },
        ),
    ]
