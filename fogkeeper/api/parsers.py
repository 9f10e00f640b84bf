"""The API's JSON parser: DRF's, once the body's nesting is checked (fogkeeper.documents).
A body nested 100,000 deep ended in a RecursionError and a 500 (issue 37, item 9); it is a
400 in words, like any body that is not JSON."""

from __future__ import annotations

import io

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from fogkeeper.safeload import Refused, check_json


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        body = stream.read() if stream is not None else b""
        try:
            check_json(body)
        except Refused as e:
            raise ParseError(f"The JSON body {e}.") from None
        return super().parse(io.BytesIO(body), media_type, parser_context)
