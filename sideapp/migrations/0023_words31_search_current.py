"""The claims' search index keeps current claims only (issue 31): every list reads current
claims, and the claims of older revisions would otherwise grow the index with each rescan."""

import django.contrib.postgres.indexes
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sideapp', '0022_truth31_needs_look'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='claim',
            name='claim_search',
        ),
        migrations.AddIndex(
            model_name='claim',
            index=django.contrib.postgres.indexes.GinIndex(models.F('search'), condition=models.Q(('current', True)), name='claim_search_current'),
        ),
    ]
