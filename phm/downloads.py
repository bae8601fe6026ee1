"""Exports that a page offers as a download (a forum post as .bbcode, a table as .csv): sent as an
attachment with a filename that says what it is, in UTF-8, so the browser saves the file rather than
showing it as text. The pages keep a "copy" button for pasting the post straight away."""

import re

from django.http import HttpResponse
from django.utils.http import content_disposition_header

BBCODE = "text/plain; charset=utf-8"
CSV = "text/csv; charset=utf-8"


def safe_filename_part(text):
    """A round code or a name as part of a filename: `45:01` → `45-01` (no colon, slash or space)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", str(text)).strip("-.") or "export"


def download(text, filename, content_type):
    response = HttpResponse(text.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    return response


def round_filename(round_, what, extension):
    """`phm-45-01-hands.bbcode`: the round by its code, which players know it by."""
    return f"phm-{safe_filename_part(round_.code)}-{what}.{extension}"
