from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    """?page=N (from 1; past the last page answers 404) and ?page_size=N (1 to 200, default
    50). A page size out of range is refused (400), not quietly changed."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_number(self, request, paginator):
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        return paginator.num_pages if raw in self.last_page_strings else raw  # "" is no page

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        try:
            size = int(raw)
        except ValueError:
            size = 0
        if not 1 <= size <= self.max_page_size:
            raise ValidationError(
                {self.page_size_query_param: [f"A whole number from 1 to {self.max_page_size}."]}
            )
        return size

    def get_schema_operation_parameters(self, view):
        page, size = super().get_schema_operation_parameters(view)
        page["schema"]["minimum"] = 1
        size["schema"].update(minimum=1, maximum=self.max_page_size, default=self.page_size)
        return [page, size]
