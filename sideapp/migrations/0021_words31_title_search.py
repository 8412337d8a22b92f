"""Article titles' words for the editors' search as a stored generated column with a GIN
index (issue 31), in place of 0018's expression index: a search joins each claim to its
article's stored title vector instead of parsing the title again for every claim."""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sideapp', '0020_archive33_copies'),
    ]

    operations = [
        migrations.RunSQL("DROP INDEX IF EXISTS article_title_words",
                          reverse_sql="CREATE INDEX article_title_words ON sideapp_article "
                                      "USING gin (to_tsvector('english'::regconfig, title))"),
        migrations.AddField(
            model_name='article',
            name='title_search',
            field=models.GeneratedField(db_persist=True, expression=django.contrib.postgres.search.SearchVector('title', config='english', weight='B'), output_field=django.contrib.postgres.search.SearchVectorField()),
        ),
        migrations.AddIndex(
            model_name='article',
            index=django.contrib.postgres.indexes.GinIndex(models.F('title_search'), name='article_title_search'),
        ),
    ]
