"""Content-Security-Policy on every response, from settings.CONTENT_SECURITY_POLICY (a dict of
directive -> sources). Django 5.2 has none built in; this is all we need of django-csp. A view
that sets its own header keeps it."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings

HEADER = "Content-Security-Policy"


def tile_source(url: str) -> str:
    """The CSP source of a map tile URL template: its origin, Leaflet's {s} subdomain
    placeholder as a wildcard ('https://{s}.tile.example.org/{z}/{x}/{y}.png' ->
    'https://*.tile.example.org')."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.replace('{s}', '*')}"


def policy_header(policy: dict[str, list[str]]) -> str:
    return "; ".join(f"{name} {' '.join(sources)}".strip() for name, sources in policy.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.header = policy_header(settings.CONTENT_SECURITY_POLICY)

    def __call__(self, request):
        response = self.get_response(request)
        if HEADER not in response.headers:
            response.headers[HEADER] = self.header
        return response
