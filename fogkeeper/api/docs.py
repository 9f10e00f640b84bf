"""The API's browsable documentation: Swagger UI from drf-spectacular-sidecar's vendored files,
its start-up script served as a file of its own so the page needs no inline script or style
(Content-Security-Policy)."""

from drf_spectacular.views import SpectacularSwaggerSplitView


class SwaggerView(SpectacularSwaggerSplitView):
    template_name = "api/swagger_ui.html"
    title = "fogkeeper API"
