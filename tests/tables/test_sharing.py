"""A table's watch and keep-score links and their QR codes: under MARQUOIR_PUBLIC_URL when it
is set (`make run` sets this machine's address on the local network), else the request's own."""

from __future__ import annotations

import pytest
from django.http import HttpRequest
from django.test import Client, RequestFactory

from marquoir.tables import services
from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.models import Match
from marquoir.tables.sharing import keep_score_link, qr_svg, watch_link

from .conftest import create_row

pytestmark = pytest.mark.django_db

LAN = "http://192.168.1.23:8000"
DEVICE = "device-secret-of-the-host-laptop-0123"


def local_request(path: str = "/en/") -> HttpRequest:
    """A request as the machine running `make run` sends it, to 127.0.0.1."""
    return RequestFactory().get(path, HTTP_HOST="127.0.0.1:8000")


@pytest.fixture
def row() -> Match:
    return create_row()[0]


def test_the_links_are_built_on_the_public_url_when_it_is_set(settings, row):
    settings.MARQUOIR_PUBLIC_URL = LAN
    request = local_request()
    watch = watch_link(request, row)
    keep = keep_score_link(request, row)
    assert watch.url == f"{LAN}/en/tables/{row.id}/"
    assert keep.url == f"{LAN}/en/tables/{row.id}/join/#key={services.edit_token_for(row.id)}"
    assert watch.qr_svg == qr_svg(watch.url)  # the QR codes carry the same addresses
    assert keep.qr_svg == qr_svg(keep.url)


def test_the_links_follow_the_request_when_no_public_url_is_set(settings, row):
    settings.MARQUOIR_PUBLIC_URL = ""
    request = local_request()
    assert watch_link(request, row).url == f"http://127.0.0.1:8000/en/tables/{row.id}/"
    assert keep_score_link(request, row).url.startswith(f"http://127.0.0.1:8000/en/tables/{row.id}/join/#key=")


def test_the_table_page_opened_on_this_machine_shows_the_lan_address(settings, client: Client, row):
    settings.MARQUOIR_PUBLIC_URL = LAN
    services.device_link(device_secret=DEVICE, match=row, can_edit=True)
    client.cookies[COOKIE_NAME] = DEVICE
    html = client.get(f"/en/tables/{row.id}/", headers={"host": "127.0.0.1:8000"}).content.decode()
    assert f'href="{LAN}/en/tables/{row.id}/"' in html
    assert f'href="{LAN}/en/tables/{row.id}/join/#key=' in html
    assert "127.0.0.1:8000" not in html.split('class="share"', 1)[1]


def test_french_links_keep_the_french_address(settings, client: Client, row):
    settings.MARQUOIR_PUBLIC_URL = LAN
    html = client.get(f"/fr/tables/{row.id}/").content.decode()
    assert f'href="{LAN}/fr/tables/{row.id}/"' in html
