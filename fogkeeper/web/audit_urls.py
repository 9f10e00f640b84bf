"""URLs of the audit pages."""

urlpatterns: list = []
