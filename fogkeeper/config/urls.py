from django.contrib import admin
from django.urls import path
from django.views.generic import RedirectView

admin.site.site_header = "fogkeeper"
admin.site.site_title = "fogkeeper"
admin.site.index_title = "FOG program records"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
]
