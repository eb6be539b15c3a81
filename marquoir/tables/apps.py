from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "marquoir.tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        from marquoir import checks  # noqa: F401  (registers the deployment checks)
