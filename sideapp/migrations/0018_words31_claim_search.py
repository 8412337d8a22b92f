"""The editors' search as full-text search (issue 31): a stored tsvector of each claim (its
text, section path and the rest of its sentence, by weight) with a GIN index, and a GIN
index on the English words of article titles. The trigram indexes of the old substring
search on claim text go; the section filter keeps its own.

The title index here was an expression index; 0021_words31_title_search replaces it with
a stored generated column (Article.title_search) and its own GIN index.
"""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
import django.db.models.functions.comparison
from django.db import migrations, models

TITLE_INDEX = "article_title_words"


class Migration(migrations.Migration):

    dependencies = [
        ('sideapp', '0017_pages32_page_unique'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='claim',
            name='claim_text_trgm',
        ),
        migrations.RemoveIndex(
            model_name='claim',
            name='claim_rest_trgm',
        ),
        migrations.AddField(
            model_name='claim',
            name='search',
            field=models.GeneratedField(db_persist=True, expression=django.contrib.postgres.search.CombinedSearchVector(django.contrib.postgres.search.CombinedSearchVector(django.contrib.postgres.search.SearchVector('text', config='english', weight='A'), '||', django.contrib.postgres.search.SearchVector(django.db.models.functions.comparison.Cast('section', models.TextField()), config='english', weight='B'), django.contrib.postgres.search.SearchConfig('english')), '||', django.contrib.postgres.search.SearchVector('sentence_rest', config='english', weight='C'), django.contrib.postgres.search.SearchConfig('english')), output_field=django.contrib.postgres.search.SearchVectorField()),
        ),
        migrations.AddIndex(
            model_name='claim',
            index=django.contrib.postgres.indexes.GinIndex(models.F('search'), name='claim_search'),
        ),
        migrations.RunSQL(
            f"CREATE INDEX {TITLE_INDEX} ON sideapp_article USING gin (to_tsvector('english'::regconfig, title))",
            reverse_sql=f"DROP INDEX IF EXISTS {TITLE_INDEX}"),
    ]
