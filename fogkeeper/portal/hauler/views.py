from django.shortcuts import render

from ..access import portal_page


@portal_page("hauler")
def home(request):
    establishments = request.establishments.select_related("compliance").order_by("name")
    return render(request, "portal/home.html", {"establishments": establishments})
