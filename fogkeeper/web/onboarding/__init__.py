"""Onboarding pages: the manager uploads the agency's spreadsheets (fogkeeper/onboarding),
sees the dry run's every problem and what would change, then confirms the import."""
