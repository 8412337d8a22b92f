"""Claims tagged {{failed verification}} on the wiki and checked before issue 41 were never
searched for better sources (a tagged claim is out of the flagged list): their search waits
now, and a worker's recovery pass starts it (pipeline.recovery, pending claims of no open job)."""
from django.db import migrations


def tagged_wait_for_suggestions(apps, schema_editor):
    Claim = apps.get_model("sideapp", "Claim")
    Claim.objects.filter(tagged_revision__isnull=False, checkable=True, current=True, verify_state="done",
                         suggest_state="").update(suggest_state="pending")


class Migration(migrations.Migration):
    dependencies = [("sideapp", "0028_scale_article_title_order")]

    operations = [migrations.RunPython(tagged_wait_for_suggestions, migrations.RunPython.noop)]
