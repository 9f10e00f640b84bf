"""URLs of no area: signing in and out, and choosing the agency one acts for."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import lookups, views

urlpatterns: list = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(template_name="web/login.html"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("agency/switch/", views.agency_switch, name="agency_switch"),
    path("lookup/<str:kind>/", lookups.lookup, name="lookup"),
]
