"""URLs of the reports pages."""

urlpatterns: list = []
