from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "fogkeeper"
admin.site.site_title = "fogkeeper"
admin.site.index_title = "FOG program records"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("portal/", include("fogkeeper.portal.urls")),
    path("api/v1/", include("fogkeeper.api.urls")),
    path("", include("fogkeeper.web.urls")),
]
