"""URLs of the lists pages."""

urlpatterns: list = []
