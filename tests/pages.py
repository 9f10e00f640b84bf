"""A page's cost as the server pays it: `measured(client, url)` answers the response with the
queries it ran and the milliseconds it took, its streamed body read to the end (counted by the
same execute_wrapper as the request middleware, fogkeeper.security.timings)."""

from __future__ import annotations

from fogkeeper.security.timings import Spent, counting


def measured(client, url: str, **extra):
    """(response, queries, ms) of a GET of `url` by `client`."""
    spent = Spent()
    with counting(spent):
        response = client.get(url, **extra)
        if getattr(response, "streaming", False):
            response.streamed_body = b"".join(response.streaming_content)
    spent.finish()
    return response, spent.queries, spent.ms
