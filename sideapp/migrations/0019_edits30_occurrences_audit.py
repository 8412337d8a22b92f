"""Issue 30: where each claim's citations stand in each revision (RevisionClaim.occurrences),
the revision a claim was first seen tagged on the wiki, and saves recorded before and after
the wiki is asked (AuditEntry status, token, base revision, outcome, the person's name as
text). Existing audit rows keep their user's name."""

from django.db import migrations, models


def names_kept(apps, schema_editor):
    AuditEntry = apps.get_model("sideapp", "AuditEntry")
    for entry in AuditEntry.objects.filter(user__isnull=False).select_related("user").iterator():
        AuditEntry.objects.filter(pk=entry.pk).update(username=entry.user.username)


class Migration(migrations.Migration):

    dependencies = [
        ("sideapp", "0018_words31_claim_search"),
    ]

    operations = [
        migrations.AddField(
            model_name="revisionclaim",
            name="occurrences",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="claim",
            name="tagged_revision",
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="username",
            field=models.CharField(blank=True, max_length=150),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="status",
            field=models.CharField(blank=True, choices=[("", "done"), ("pending", "being saved"), ("saved", "saved"),
                                                        ("refused", "refused"), ("failed", "failed")],
                                   default="", max_length=16),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="token",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="base_revision",
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="outcome",
            field=models.TextField(blank=True),
        ),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", ["pending", "saved"]), models.Q(("token", ""), _negated=True)),
                fields=("token",), name="auditentry_one_save_per_token"),
        ),
        migrations.AddIndex(
            model_name="auditentry",
            index=models.Index(condition=models.Q(("status", "pending")), fields=["status", "created_at"],
                               name="auditentry_pending"),
        ),
        migrations.RunPython(names_kept, migrations.RunPython.noop),
    ]
