"""Serving the gadget: the script and stylesheet (public: code, no data) and a page of
install instructions with this server's exact lines."""
from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from sideapp.gadget import install
from sideapp.gadget.assets import gadget_assets

YEAR = 365 * 86400
SHORT = 300  # the unversioned URL: a new version reaches readers within minutes


def _base(request) -> str:
    return settings.SIDE_PUBLIC_URL.rstrip("/") or request.build_absolute_uri("/").rstrip("/")


def _asset(request, body: str, content_type: str, version: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    current = request.GET.get("v") == version
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable" if current else f"public, max-age={SHORT}"
    response["ETag"] = f'"{version}"'
    patch_vary_headers(response, ["Host"])
    return response


@require_GET
def script(request):
    # ?copy=1: the copy an interface admin pastes into the wiki's pages, which loads no stylesheet
    assets = gadget_assets(_base(request), load_style=request.GET.get("copy") != "1")
    return _asset(request, assets.script, "text/javascript; charset=utf-8", assets.version)


@require_GET
def style(request):
    assets = gadget_assets(_base(request))
    return _asset(request, assets.style, "text/css; charset=utf-8", assets.version)


@require_GET
def instructions(request):
    base = _base(request)
    return render(request, "gadget/install.html", {
        "common_js": install.common_js_line(base),
        "site": install.gadget_pages(base, way="site"),
        "definition_copy": install.definition_line(with_style=True),
        "copy_url": f"{base}/gadget/side-editor.js?copy=1",
    })
