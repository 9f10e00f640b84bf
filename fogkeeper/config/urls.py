from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "fogkeeper"
admin.site.site_title = "fogkeeper"
admin.site.index_title = "FOG program records"


def _superusers_only(request) -> bool:
    """The admin reaches every agency's records, so it is the deployment's superusers' alone;
    agency staff work in the staff pages, where policy keeps agencies apart (ACCESS.md)."""
    return request.user.is_active and request.user.is_superuser


admin.site.has_permission = _superusers_only  # type: ignore[method-assign]  # for every request

urlpatterns = [
    path("admin/", admin.site.urls),
    path("portal/", include("fogkeeper.portal.urls")),
    path("api/v1/", include("fogkeeper.api.urls")),
    path("", include("fogkeeper.web.urls")),
]

# Error answers with the request's id; JSON under /api/ (fogkeeper.security.errors).
handler400 = "fogkeeper.security.errors.bad_request"
handler403 = "fogkeeper.security.errors.permission_denied"
handler404 = "fogkeeper.security.errors.page_not_found"
handler500 = "fogkeeper.security.errors.server_error"
