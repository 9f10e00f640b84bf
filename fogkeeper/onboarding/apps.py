from django.apps import AppConfig


class OnboardingConfig(AppConfig):
    name = "fogkeeper.onboarding"
    verbose_name = "Onboarding"
