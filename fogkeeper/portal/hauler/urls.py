from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="hauler"),
    path("customers/<str:code>/", views.customer, name="hauler_customer"),
    path("customers/<str:code>/pump-out/", views.submit, name="hauler_submit"),
    path("upload/", views.upload, name="hauler_upload"),
    path("submissions/", views.submissions, name="hauler_submissions"),
    path("api-token/", views.api_token, name="hauler_api_token"),
]
