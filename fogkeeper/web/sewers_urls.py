"""URLs of the sewers pages."""

urlpatterns: list = []
