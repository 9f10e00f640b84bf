"""What every area of the staff pages shares, and nothing of any one area (it imports no
area package):

- policy.py: who may read and write what, for which agency (ACCESS.md), asked by every page,
  the portals and the API;
- pages.py: the page decorators (agency_page, record_page, reads_only), the day a page is
  shown as of, the page size, a record's form page and the evaluation again after it;
- forms.py: shared inputs (dates, photos, suggestions) and put_errors, which puts a service's
  ValidationError back on the fields;
- selectors.py: one page of a long section of a page;
- dates.py, exports.py (CSV and Excel, streamed, neutralised), jobs.py (the pages of
  background runs), context_processors.py (the agency acted for);
- views.py, urls.py: signing in and out, choosing the agency.

Templates: the layout (web/base.html, standalone.html, the error pages), the shared partials
(_pagination, _as_of, _field, _form_errors, _export_links, record_form) and django/forms/, which
give every field the U.S. Web Design System's classes."""
