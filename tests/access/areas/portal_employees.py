"""The operator's employee roster and its trainings' signed logs in the portal: its own
establishments' only (ACCESS.md: trainings are the operator's to read and file); every other
role answers 404, as if the page did not exist, and another operator's establishment too."""

from fogkeeper.training.models import Employee

from .enrolment import logged_training

TABLE = """
portal:operator_employees           GET   404   404   404   404   ok    404   404   404   login
portal:operator_employees           POST  404   404   404   404   405   404   404   404   login
portal:operator_employee_add        GET   404   404   404   404   ok    404   404   404   login
portal:operator_employee_add        POST  404   404   404   404   ok    404   404   404   login
portal:operator_employee_left       GET   404   404   404   404   ok    404   404   404   login
portal:operator_employee_left       POST  404   404   404   404   ok    404   404   404   login
portal:operator_training_log        GET   404   404   404   404   ok    404   404   404   login
portal:operator_training_log        POST  404   404   404   404   405   404   404   404   login
"""


def _employee(side) -> dict:
    """An employee on the roster of an establishment agency A's operator reaches."""
    employee = (
        Employee.objects.filter(
            establishment__agency=side.agency,
            establishment__code__in=side.reach["operator"],
            left_on__isnull=True,
        )
        .order_by("pk")
        .first()
    )
    return {"code": employee.establishment.code, "employee": employee.pk}


def _training(side) -> dict:
    training = logged_training(side)
    return {"code": training.establishment.code, "training": training.pk}


RECORDS = {"portal:operator_employee_left": _employee, "portal:operator_training_log": _training}
