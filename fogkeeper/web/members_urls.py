"""URLs of the agency staff pages (members): the agency's memberships, the invitation, and
the manager's change of a role or end of a membership."""

from django.urls import path

from . import members

urlpatterns = [
    path("members/", members.members, name="members"),
    path("members/invite/", members.member_invite, name="member_invite"),
    path("members/<int:pk>/", members.member, name="member"),
    path("members/<int:pk>/role/", members.member_role, name="member_role"),
    path("members/<int:pk>/end/", members.member_end, name="member_end"),
]
