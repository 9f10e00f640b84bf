"""Onboarding: an agency brings its program from spreadsheets (CSV or XLSX), one kind of
record per file, checked row by row through the registry's services; a dry run says what
would change and stores nothing."""
