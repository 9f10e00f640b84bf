"""The staff pages' URLs (namespace "web"): each area's own, in the order a request is
matched. The names and routes are the contract (tests/web/url_table.txt); which module
serves them is not."""

from .audit import urls as audit
from .billing import urls as billing
from .common import urls as common
from .communications import urls as communications
from .enforcement import urls as enforcement
from .field import urls as field
from .filings import urls as filings
from .inbox import urls as inbox
from .incidents import urls as incidents
from .onboarding import urls as onboarding
from .ordinance import urls as ordinance
from .people import urls as people
from .permits import urls as permits
from .records import urls as records
from .registry import urls as registry
from .reports import urls as reports
from .submittals import urls as submittals

app_name = "web"

urlpatterns = [
    *common.urlpatterns,
    *reports.urlpatterns,
    *registry.urlpatterns,
    *records.urlpatterns,
    *submittals.urlpatterns,
    *enforcement.urlpatterns,
    *permits.urlpatterns,
    *incidents.urlpatterns,
    *billing.urlpatterns,
    *field.urlpatterns,
    *people.urlpatterns,
    *inbox.urlpatterns,
    *filings.urlpatterns,
    *communications.urlpatterns,
    *onboarding.urlpatterns,
    *ordinance.urlpatterns,
    *audit.urlpatterns,
]
