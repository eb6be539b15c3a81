"""A base for the project's middleware: one class that runs in Django's sync mode and in its
async mode without a thread hop, so that the live streams (async) cross none and the
pages (sync) none either. A subclass says what it does once the view has answered."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse


class DualModeMiddleware:
    """A middleware that Django runs in its sync mode or its async mode, whichever the next
    one is, without a thread hop: ``is_async`` says which, and a subclass's ``__call__``
    hands back a coroutine when it is."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        raise NotImplementedError


class AfterViewMiddleware(DualModeMiddleware):
    """Calls ``after(request, response, started)`` on every answer, ``started`` being the
    ``time.perf_counter()`` when the request reached this middleware."""

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        started = time.perf_counter()
        return self.after(request, self.get_response(request), started)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response: HttpResponse = await self.get_response(request)
        return self.after(request, response, started)

    def after(self, request: HttpRequest, response: HttpResponse, started: float) -> HttpResponse:
        raise NotImplementedError
