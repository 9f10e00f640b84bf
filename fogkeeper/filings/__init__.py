"""Requests an operator files and staff decide: the kinds each pack declares
(fogkeeper/rules/requests.py, the pack's requests.yaml), the request filed and its answer
(granted, denied, delivered, acknowledged), and what a granted request changes on the
records the engine reads (a device's or the permit's service frequency)."""
