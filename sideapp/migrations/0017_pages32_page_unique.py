"""One article row per page id of a wiki (the duplicates are merged by 0016)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sideapp', '0016_pages32_page_identity'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='article',
            constraint=models.UniqueConstraint(condition=models.Q(page_id__isnull=False), fields=('wiki', 'page_id'),
                                               name='article_unique_page'),
        ),
    ]
