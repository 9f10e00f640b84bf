"""Members (ACCESS.md: the manager keeps the memberships of the agency's staff): the agency's
staff read who acts for the agency; the manager (policy kind "membership") invites, changes a
role and ends a membership; outside roles do not see the pages, and another agency's
membership answers 404. The empty form posted is refused for its content (ending needs its
box ticked), so the matrix changes no membership."""

from fogkeeper.web.models import Membership

TABLE = """
web:members                         GET   ok    ok    ok    ok    404   404   404   own   login
web:members                         POST  405   405   405   405   404   404   404   own   login
web:member_invite                   GET   ok    403   403   403   404   404   404   own   login
web:member_invite                   POST  ok    403   403   403   404   404   404   own   login
web:member                          GET   ok    ok    ok    ok    404   404   404   404   login
web:member                          POST  405   405   405   405   404   404   404   404   login
web:member_role                     GET   ok    403   403   403   404   404   404   404   login
web:member_role                     POST  ok    403   403   403   404   404   404   404   login
web:member_end                      GET   ok    403   403   403   404   404   404   404   login
web:member_end                      POST  ok    403   403   403   404   404   404   404   login
"""


def _clerk(side) -> dict:
    """The membership of agency A's clerk."""
    return {"pk": Membership.objects.get(user=side.users["clerk"], agency=side.agency).pk}


RECORDS = {"web:member": _clerk, "web:member_role": _clerk, "web:member_end": _clerk}
