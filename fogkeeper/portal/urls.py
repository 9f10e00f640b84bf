from django.urls import include, path

from . import views

app_name = "portal"

urlpatterns = [
    path("", views.home, name="home"),
    path("hauler/", include("fogkeeper.portal.hauler.urls")),
    path("operator/", include("fogkeeper.portal.operator.urls")),
    path("owner/", include("fogkeeper.portal.owner.urls")),
]
