"""gunicorn's settings for fogkeeper: `gunicorn -c python:fogkeeper.config.gunicorn
fogkeeper.config.wsgi:application`.

gunicorn answers a request line or header over its limits itself, with an HTML 400 of its own
that no API client expects (issue 15, item 8). Its limits are raised to their maxima, so that
the app's own check (fogkeeper.security.inputs: a path over 2,000 characters, a query over
4,000) answers first, in JSON under /api/ and as a page elsewhere.

A client that sends its request slowly must not hold the server (issue 37, item 6: four
connections sending a header line every 5 s stopped every answer for 45 s and got both sync
workers killed). The worker (fogkeeper.config.workers) gathers a request's headers in its
main loop and gives them to one of its threads only once they are all in, within 10 s; a
connection is closed after each answer (no keep-alive to hold a thread between requests), and
a worker stuck past `timeout` is replaced. A slow body is still read by a thread: production
puts a buffering proxy in front (docs/operations.md, "Protection")."""

limit_request_line = 8190  # gunicorn's maximum
limit_request_field_size = 8190

worker_class = "fogkeeper.config.workers.HeadersFirstWorker"
threads = 8
keepalive = 0
timeout = 30
graceful_timeout = 10
