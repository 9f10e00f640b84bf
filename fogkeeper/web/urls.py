from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

app_name = "web"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(template_name="web/login.html"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("agency/switch/", views.agency_switch, name="agency_switch"),
    path("establishments/", views.establishment_list, name="establishments"),
    path("establishments/<str:code>/", views.establishment_detail, name="establishment"),
]
