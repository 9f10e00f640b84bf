"""Every named URL of the application resolves as it did (issue 29): the table of each URL's
name and route, the admin's own aside, is compared with tests/web/url_table.txt. Moving a
view to another module changes nothing here; renaming a URL or changing its route does, and
is then written into the table on purpose:

    .venv/bin/python -m tests.web.test_url_table > tests/web/url_table.txt
"""

from __future__ import annotations

from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

TABLE = Path(__file__).with_name("url_table.txt")


def url_table() -> list[str]:
    """`name  route` for every named URL, sorted (a name's twins, such as the API's .json
    suffixes, each on its own line)."""
    rows: set[str] = set()

    def walk(patterns, namespace: str | None, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                ns = p.namespace or namespace
                if ns != "admin":
                    walk(p.url_patterns, ns, route)
            elif isinstance(p, URLPattern) and p.name:
                name = f"{namespace}:{p.name}" if namespace else p.name
                rows.add(f"{name}  {route}")

    walk(get_resolver().url_patterns, None, "/")
    return sorted(rows)


def test_every_url_name_resolves_as_it_did():
    assert url_table() == TABLE.read_text(encoding="utf-8").splitlines()


if __name__ == "__main__":
    import django

    django.setup()
    print("\n".join(url_table()))
