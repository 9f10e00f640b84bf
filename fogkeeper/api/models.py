"""The API's own records: a person's API token, as the admin shows it."""

from rest_framework.authtoken.models import TokenProxy

from fogkeeper.audit.access import token_shown


class ApiToken(TokenProxy):
    """A token named by its holder and the first characters of its key: the key itself is a
    password, shown once to its holder and never in the admin, its log or its pages."""

    class Meta:
        proxy = True
        verbose_name = "API token"
        verbose_name_plural = "API tokens"

    def __str__(self) -> str:
        return f"{self.user} ({token_shown(self.key)})"
