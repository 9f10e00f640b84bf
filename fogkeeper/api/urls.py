from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import DefaultRouter

from . import docs, views

app_name = "api"

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("establishments", views.EstablishmentViewSet, basename="establishment")
router.register("devices", views.DeviceViewSet, basename="device")
router.register("permits", views.PermitViewSet, basename="permit")
router.register("services", views.ServiceViewSet, basename="service")
router.register("trainings", views.TrainingViewSet, basename="training")
router.register("inspections", views.InspectionViewSet, basename="inspection")
router.register("incidents", views.IncidentViewSet, basename="incident")
router.register("findings", views.FindingViewSet, basename="finding")

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", docs.SwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("token/", views.TokenView.as_view(), name="token"),
    path("", include(router.urls)),
    re_path(r"^[\s\S]*$", views.not_found),  # any path, a line break in it included
]
