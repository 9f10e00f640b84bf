"""Letters and emails to many establishments (fogkeeper/communications/): the recipients
chosen by the establishment list's own filters (registry.selectors), the draft, its preview
and the sending in the background (views.py, forms.py, communications.services). Templates:
web/communications/."""
