# Packs left the catalog app: the tables stay as they are (catalog_pack,
# catalog_packsimulation); only Django's idea of which app owns them changes.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('catalog', '0008_proxy_jobs'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Pack',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=120)),
                        ('selection', models.JSONField(default=dict)),
                        ('document', models.JSONField()),
                        ('sha256', models.CharField(db_index=True, max_length=64)),
                        ('card_count', models.PositiveIntegerField(default=0)),
                        ('door_copies', models.PositiveIntegerField(default=0)),
                        ('treasure_copies', models.PositiveIntegerField(default=0)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('owner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='packs', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'ordering': ['-created_at', '-id'],
                        'db_table': 'catalog_pack',
                    },
                ),
                migrations.CreateModel(
                    name='PackSimulation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('games', models.PositiveIntegerField(default=500)),
                        ('players', models.PositiveSmallIntegerField(default=4)),
                        ('seed', models.PositiveIntegerField(default=1)),
                        ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=10)),
                        ('games_done', models.PositiveIntegerField(default=0)),
                        ('error', models.TextField(blank=True)),
                        ('result', models.JSONField(blank=True, default=dict)),
                        ('task_id', models.CharField(blank=True, max_length=64)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('pack', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='simulations', to='packs.pack')),
                        ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'ordering': ['-created_at', '-id'],
                        'db_table': 'catalog_packsimulation',
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
