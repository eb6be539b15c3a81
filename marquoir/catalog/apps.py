from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "marquoir.catalog"
    verbose_name = "Catalog"
