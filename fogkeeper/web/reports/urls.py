"""URLs of the reports pages: the landing and the dashboard, the map, the annual report, the
agency-wide lists and the sweep runs."""

from django.urls import path

from . import annual, dashboard, lists, map, sweeps

urlpatterns: list = [
    path("", dashboard.home, name="home"),
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("map/", map.map_page, name="map"),
    path("map/data.json", map.map_data, name="map_data"),
    path("reports/annual/", annual.annual, name="annual_report"),
    path("findings/", lists.finding_list, name="findings"),
    path("invoices/", lists.invoice_list, name="invoices"),
    path("enforcement/actions/", lists.action_list, name="enforcement_actions"),
    path("sweeps/", sweeps.sweep_list, name="sweep_list"),
    path("sweeps/start/", sweeps.sweep_start, name="sweep_start"),
    path("sweeps/<int:pk>/", sweeps.sweep_detail, name="sweep_detail"),
]
