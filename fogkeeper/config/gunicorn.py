"""gunicorn's settings for fogkeeper: `gunicorn -c python:fogkeeper.config.gunicorn
fogkeeper.config.wsgi:application`.

gunicorn answers a request line or header over its limits itself, with an HTML 400 of its own
that no API client expects (issue 15, item 8). Its limits are raised to their maxima, so that
the app's own check (fogkeeper.security.inputs: a path over 2,000 characters, a query over
4,000) answers first, in JSON under /api/ and as a page elsewhere."""

limit_request_line = 8190  # gunicorn's maximum
limit_request_field_size = 8190
