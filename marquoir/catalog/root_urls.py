"""Addresses outside the language prefix: the bare root sends a visitor to their language."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.root, name="root"),
    path("healthz", views.health, name="health"),
]
