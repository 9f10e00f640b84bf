"""URLs of the records pages."""

urlpatterns: list = []
