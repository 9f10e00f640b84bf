"""The equipment registry pages: devices, their sizing inputs and food grinders ("device":
manager and inspector; a device's frequency and approved longer intervals the manager's,
"frequency"; design exceptions the manager's, "permit", but neither ordinance of the demo
allows one, so that page is not there), haulers and service contracts
("hauler": the manager's), employees ("employee": manager and inspector among staff). Every
staff role reads them; nobody outside the agency's staff reaches them, and another agency's
record is not there (404)."""

from fogkeeper.registry.models import GreaseControlDevice, Hauler, ServiceContract
from fogkeeper.training.models import Employee

TABLE = """
web:device_install                  GET   ok    ok    403   403   404   404   404   404   login
web:device_install                  POST  ok    ok    403   403   404   404   404   404   login
web:device                          GET   ok    ok    ok    ok    404   404   404   404   login
web:device                          POST  405   405   405   405   404   404   404   404   login
web:device_edit                     GET   ok    ok    403   403   404   404   404   404   login
web:device_edit                     POST  ok    ok    403   403   404   404   404   404   login
web:device_replace                  GET   ok    ok    403   403   404   404   404   404   login
web:device_replace                  POST  ok    ok    403   403   404   404   404   404   login
web:device_remove                   GET   ok    ok    403   403   404   404   404   404   login
web:device_remove                   POST  ok    ok    403   403   404   404   404   404   login
web:device_frequency                GET   ok    403   403   403   404   404   404   404   login
web:device_frequency                POST  ok    403   403   403   404   404   404   404   login
web:device_exception                GET   404   404   404   404   404   404   404   404   login
web:device_exception                POST  404   404   404   404   404   404   404   404   login
web:device_interval_approval        GET   ok    403   403   403   404   404   404   404   login
web:device_interval_approval        POST  ok    403   403   403   404   404   404   404   login
web:device_sizing                   GET   ok    ok    403   403   404   404   404   404   login
web:device_sizing                   POST  ok    ok    403   403   404   404   404   404   login
web:food_grinder                    GET   ok    ok    403   403   404   404   404   404   login
web:food_grinder                    POST  ok    ok    403   403   404   404   404   404   login
web:haulers                         GET   ok    ok    ok    ok    404   404   404   own   login
web:haulers                         POST  405   405   405   405   404   404   404   own   login
web:hauler_register                 GET   ok    403   403   403   404   404   404   own   login
web:hauler_register                 POST  ok    403   403   403   404   404   404   own   login
web:hauler                          GET   ok    ok    ok    ok    404   404   404   404   login
web:hauler                          POST  405   405   405   405   404   404   404   404   login
web:hauler_edit                     GET   ok    403   403   403   404   404   404   404   login
web:hauler_edit                     POST  ok    403   403   403   404   404   404   404   login
web:hauler_contract_start           GET   ok    403   403   403   404   404   404   404   login
web:hauler_contract_start           POST  ok    403   403   403   404   404   404   404   login
web:contract_new                    GET   ok    403   403   403   404   404   404   404   login
web:contract_new                    POST  ok    403   403   403   404   404   404   404   login
web:contract_end                    GET   ok    403   403   403   404   404   404   404   login
web:contract_end                    POST  ok    403   403   403   404   404   404   404   login
web:employees                       GET   ok    ok    ok    ok    404   404   404   404   login
web:employees                       POST  405   405   405   405   404   404   404   404   login
web:employee_hire                   GET   ok    ok    403   403   404   404   404   404   login
web:employee_hire                   POST  ok    ok    403   403   404   404   404   404   login
web:employee_edit                   GET   ok    ok    403   403   404   404   404   404   login
web:employee_edit                   POST  ok    ok    403   403   404   404   404   404   login
web:employee_leave                  GET   ok    ok    403   403   404   404   404   404   login
web:employee_leave                  POST  ok    ok    403   403   404   404   404   404   login
"""


def _device(side) -> dict:
    """A device of the agency still installed."""
    device = GreaseControlDevice.objects.filter(
        establishment__agency=side.agency, removed_on__isnull=True
    ).earliest("pk")
    return {"code": device.establishment.code, "device": device.pk}


def _hauler(side) -> dict:
    return {"hauler": Hauler.objects.filter(agency=side.agency).earliest("pk").code}


def _contract(side) -> dict:
    """A running contract of the agency; one is put on record where the demo has none."""
    contracts = ServiceContract.objects.filter(
        establishment__agency=side.agency, until__isnull=True
    )
    contract = contracts.first()
    if contract is None:
        contract = ServiceContract.objects.create(
            hauler=Hauler.objects.filter(agency=side.agency).earliest("pk"),
            establishment=side.mine("manager"),
            since=side.mine("manager").opened_on,
        )
    return {"code": contract.establishment.code, "contract": contract.pk}


def _employee(side) -> dict:
    employee = Employee.objects.filter(
        establishment__agency=side.agency, left_on__isnull=True
    ).earliest("pk")
    return {"code": employee.establishment.code, "employee": employee.pk}


RECORDS = {
    "web:device": _device,
    "web:device_edit": _device,
    "web:device_replace": _device,
    "web:device_remove": _device,
    "web:device_frequency": _device,
    "web:device_exception": _device,
    "web:device_interval_approval": _device,
    "web:device_sizing": _device,
    "web:hauler": _hauler,
    "web:hauler_edit": _hauler,
    "web:hauler_contract_start": _hauler,
    "web:contract_end": _contract,
    "web:employee_edit": _employee,
    "web:employee_leave": _employee,
}
