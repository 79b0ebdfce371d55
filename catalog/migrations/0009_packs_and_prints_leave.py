# Packs, their simulations and proxy jobs now belong to the packs and prints apps, which
# took over the same tables (their 0001 migrations); nothing changes in the database.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0008_proxy_jobs'),
        ('packs', '0001_initial'),
        ('prints', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='PackSimulation'),
                migrations.DeleteModel(name='Pack'),
                migrations.DeleteModel(name='ProxyJob'),
            ],
            database_operations=[],
        ),
    ]
