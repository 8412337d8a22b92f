"""Claims the verifier calls supported leave "Needs a look", whatever its confidence: the
queue holds partial support and `not_supported` verdicts it is not sure of (issue 31).

The rule is written out here, not imported from Claim.flag_rule, so that this migration
keeps meaning what it meant when the rule changes again. Claims judged under older
reasons rules are also judged again on the next scan of their article (reasons.RULES).
"""
from django.db import migrations

SUPPORTED = "supported"


def quiet_supported(apps, schema_editor):
    Claim = apps.get_model("sideapp", "Claim")
    Claim.objects.filter(verdict=SUPPORTED, needs_look=True).update(needs_look=False)


class Migration(migrations.Migration):
    dependencies = [("sideapp", "0021_words31_title_search")]

    operations = [migrations.RunPython(quiet_supported, migrations.RunPython.noop)]
