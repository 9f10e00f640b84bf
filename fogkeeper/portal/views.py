"""Where a person lands after signing in: staff on the dashboard, others in their portal."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from fogkeeper.web.common import policy
from fogkeeper.web.common.pages import reads_only

HOMES = {"operator": "portal:operator", "hauler": "portal:hauler", "owner": "portal:owner"}


@login_required
@reads_only
def home(request):
    agency = policy.current_agency(request)
    if agency is None:
        return render(request, "web/no_agency.html", status=403)
    role = policy.role(request.user, agency)
    return redirect(HOMES.get(role or "", "web:dashboard"))
