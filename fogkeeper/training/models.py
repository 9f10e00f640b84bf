"""Employees and their BMP training, with signed attendance."""

from django.db import models
from django.db.models import F, Q


class Employee(models.Model):
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="employees"
    )
    code = models.CharField(max_length=40)
    name = models.CharField(max_length=200)
    hired_on = models.DateField()
    left_on = models.DateField(null=True, blank=True, help_text="first day no longer employed")
    kitchen_duties = models.BooleanField(default=True)
    contractor = models.BooleanField(default=False)

    class Meta:
        ordering = ["establishment", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "code"], name="employee_code_unique_per_fse"
            ),
            models.CheckConstraint(
                condition=Q(left_on__isnull=True) | Q(left_on__gte=F("hired_on")),
                name="employee_left_after_hired",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Training(models.Model):
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="trainings"
    )
    code = models.CharField(max_length=40)
    date = models.DateField(db_index=True)
    topic = models.CharField(max_length=200, default="Kitchen BMPs and FOG control")
    trainer = models.CharField(max_length=200, blank=True)
    log = models.FileField(
        upload_to="trainings/%Y/%m/",
        blank=True,
        help_text="the signed attendance log, PDF or image (training.logs)",
    )

    class Meta:
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "code"], name="training_code_unique_per_fse"
            )
        ]
        # the trainings list: the agency's establishments' trainings counted from the index
        # alone, and one establishment's (its page links them) newest first
        indexes = [models.Index(fields=["establishment", "date"], name="training_fse_date")]

    def __str__(self) -> str:
        return f"{self.topic} on {self.date}"


class Attendance(models.Model):
    training = models.ForeignKey(Training, on_delete=models.CASCADE, related_name="attendance")
    employee = models.ForeignKey(Employee, on_delete=models.PROTECT, related_name="attendance")
    signed = models.BooleanField(default=True)

    class Meta:
        verbose_name_plural = "attendance"
        constraints = [
            models.UniqueConstraint(fields=["training", "employee"], name="attended_once")
        ]

    def __str__(self) -> str:
        return f"{self.employee} at {self.training}"
