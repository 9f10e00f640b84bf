"""Enrolment (ACCESS.md): the public request form and setting a password from the emailed link
are for anyone; the queue of requests is read by the agency's staff and decided by the manager
(policy kind "membership"); another agency's request answers 404. A training's signed log is
read by staff from the establishment page."""

from datetime import date

from django.core.files.uploadedfile import SimpleUploadedFile

from fogkeeper.portal.enrolment import enrolment_request_submit
from fogkeeper.portal.models import EnrolmentRequest
from fogkeeper.training.models import Training

TABLE = """
web:enrol_agencies                  GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
web:enrol_agencies                  POST  405   405   405   405   405   405   405   405   405
web:enrol                           GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
web:enrol                           POST  ok    ok    ok    ok    ok    ok    ok    ok    ok
web:enrol_sent                      GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
web:enrol_sent                      POST  405   405   405   405   405   405   405   405   405
web:password_reset_confirm          GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
web:password_reset_confirm          POST  ok    ok    ok    ok    ok    ok    ok    ok    ok
web:password_reset_complete         GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
web:password_reset_complete         POST  405   405   405   405   405   405   405   405   405
web:enrolment_requests              GET   ok    ok    ok    ok    404   404   404   own   login
web:enrolment_requests              POST  405   405   405   405   404   404   404   own   login
web:enrolment_request               GET   ok    ok    ok    ok    404   404   404   404   login
web:enrolment_request               POST  405   405   405   405   404   404   404   404   login
web:enrolment_request_approve       GET   ok    403   403   403   404   404   404   404   login
web:enrolment_request_approve       POST  ok    403   403   403   404   404   404   404   login
web:enrolment_request_reject        GET   ok    403   403   403   404   404   404   404   login
web:enrolment_request_reject        POST  ok    403   403   403   404   404   404   404   login
web:training_log                    GET   ok    ok    ok    ok    404   404   404   404   login
web:training_log                    POST  405   405   405   405   404   404   404   404   login
"""


def _agency(side) -> dict:
    return {"agency_code": side.agency.code}


def _request(side) -> dict:
    """A hauler's request waiting at agency A."""
    req = EnrolmentRequest.objects.filter(agency=side.agency, status="waiting").first()
    req = req or enrolment_request_submit(
        agency=side.agency,
        kind="hauler",
        business_name="Matrix Vac",
        contact_name="Max",
        email="max@matrix.example",
        phone="949-555-0199",
        mailing_address="1 Grid St",
        service_area="everywhere",
        licence_number="L-1",
        licence_expires_on=date(2030, 1, 1),
    )
    return {"pk": req.pk}


def logged_training(side) -> Training:
    """A training of an establishment agency A's operator reaches, with a signed log."""
    training = (
        Training.objects.filter(
            establishment__agency=side.agency, establishment__code__in=side.reach["operator"]
        )
        .order_by("pk")
        .first()
    )
    if not training.log:
        training.log.save("log.pdf", SimpleUploadedFile("log.pdf", b"%PDF-1.4 log"))
    return training


def _training(side) -> dict:
    training = logged_training(side)
    return {"code": training.establishment.code, "training": training.pk}


RECORDS = {
    "web:enrol": _agency,
    "web:enrol_sent": _agency,
    "web:password_reset_confirm": lambda side: {"uidb64": "MQ", "token": "no-such-token"},
    "web:enrolment_request": _request,
    "web:enrolment_request_approve": _request,
    "web:enrolment_request_reject": _request,
    "web:training_log": _training,
}
