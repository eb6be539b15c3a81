"""Catalog pages: thin views over the registered games."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation


def root(request: HttpRequest) -> HttpResponse:
    """The bare address: follow the browser's language on a first visit."""
    language = translation.get_language_from_request(request)
    with translation.override(language):
        return HttpResponseRedirect(reverse("catalog:home"))


def health(request: HttpRequest) -> JsonResponse:
    """For load balancers: the process answers."""
    return JsonResponse({"status": "ok"})


def home(request: HttpRequest) -> HttpResponse:
    """The catalog: games by category."""
    return render(request, "catalog/home.html")
