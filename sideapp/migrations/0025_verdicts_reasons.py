"""Reasons kept as data beside their words (issue 42): Claim.reasons, ClaimCitation.reasons."""
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("sideapp", "0024_audit_correct_action")]

    operations = [
        migrations.AddField(model_name="claim", name="reasons", field=models.JSONField(blank=True, default=list)),
        migrations.AddField(model_name="claimcitation", name="reasons", field=models.JSONField(blank=True, default=list)),
    ]
