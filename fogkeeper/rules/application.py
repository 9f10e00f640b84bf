"""The fields of a permit application that a pack's `application.yaml` may ask for
(fogkeeper/permits/requirements.py reads the file; rules/packcheck/documents.py checks it)."""

ALWAYS = ("applicant_name", "applicant_address")  # the model requires them
# The fields an applicant fills in (the rest are the agency's: establishment, dates, decision).
DETAILS = (
    "applicant_name",
    "applicant_address",
    "business_name",
    "emergency_contact_name",
    "emergency_contact_phone",
    "wastewater_volume_gpd",
    "wastewater_type",
    "food_preparation_hours",
    "cleaning_hours",
    "food_preparation",
    "meals_per_day",
    "cleanup_procedures",
    "dining_capacity",
    "employee_count",
    "kitchen_size_sq_ft",
    "appliances_and_fixtures",
    "other_information",
    "building_permit_reference",
)
