"""URLs of the onboarding pages."""

from django.urls import path

from . import views

urlpatterns: list = [
    path("onboarding/", views.onboardings, name="onboardings"),
    path("onboarding/<int:pk>/", views.onboarding, name="onboarding"),
    path("onboarding/<int:pk>/confirm/", views.onboarding_confirm, name="onboarding_confirm"),
    path("onboarding/<int:pk>/requeue/", views.onboarding_requeue, name="onboarding_requeue"),
    path("onboarding/settings/", views.onboarding_settings, name="onboarding_settings"),
    path("onboarding/export.zip", views.onboarding_export, name="onboarding_export"),
    path(
        "onboarding/blank/<str:kind>.<str:file_format>",
        views.onboarding_blank,
        name="onboarding_blank",
    ),
]
