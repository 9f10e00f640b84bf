"""A page's cost as the server pays it: `measured(client, url)` answers the response with the
queries it ran and the milliseconds it took, its streamed body read to the end (counted by the
same execute_wrapper as the request middleware, fogkeeper.security.timings); `queries` the
queries alone of a page that answers 200."""

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


def queries(client, url: str, **extra) -> int:
    """The queries of a GET of `url` by `client`, which must answer 200."""
    response, count, _ = measured(client, url, **extra)
    assert response.status_code == 200, (url, response.status_code)
    return count
