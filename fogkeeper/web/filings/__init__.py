"""Staff pages of the requests operators file (fogkeeper/filings): one request, and its
answer."""
