"""The people who act for the agency:

- members.py: the agency's memberships, the invitation, a change of role, the end of a
  membership (the manager's, policy kind "membership"), written by services.py with their
  audit rows (audit.services) and read by selectors.py;
- enrolment.py: the public request for an account, the staff's queue and the manager's
  decision (portal.enrolment's services), and a training's signed log;
- demo.py: the demo's logins, one for each role;
- forms.py: the forms of both.

Templates: web/members/, web/enrolment/."""
