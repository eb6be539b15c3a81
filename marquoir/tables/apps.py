from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "marquoir.tables"
    verbose_name = "Tables"
