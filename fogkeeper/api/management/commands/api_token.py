"""`manage.py api_token USERNAME [--rotate]`: prints the person's API token, issuing one if
they have none; --rotate replaces it (the old one stops working at once)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from rest_framework.authtoken.models import Token

from fogkeeper.api.services import token_rotate


class Command(BaseCommand):
    help = "Print a person's API token (issuing one if needed); --rotate issues a new one."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--rotate", action="store_true", help="replace the token: the old one stops working"
        )

    def handle(self, *args, username: str, rotate: bool, **options):
        User = get_user_model()
        user = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"no such user: {username}")
        if not user.is_active:
            raise CommandError(f"{username} is not active")
        token = None if rotate else Token.objects.filter(user=user).first()
        if token is None:
            token = token_rotate(user=user, actor=None)
        self.stdout.write(token.key)
