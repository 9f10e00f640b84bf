from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="owner"),
    path("<str:code>/", views.establishment, name="owner_establishment"),
]
