"""Pages of the API's lists (docs/api.md: Pages of a list).

A list whose size grows with a round, a league or the site is answered a page at a time: `?limit=` items
(each list has its default and its maximum) from `?offset=` (0 first). The answer is still the list of
items it always was, so a client written for the whole list keeps parsing it; what the page is comes in
headers: `X-Total-Count` (every item of the list) and an RFC 8288 `Link` with the `first`, `prev`, `next`
and `last` pages (`next` only when there is more, `prev` only when this is not the first page). A limit
above the maximum, or anything that is not a whole number, is a 400 naming the parameter.
"""

from dataclasses import dataclass

from django.utils.http import urlencode
from drf_spectacular.utils import OpenApiParameter

from .query import whole_number_parameter

MAX_OFFSET = 10**9
TOTAL_HEADER = "X-Total-Count"


@dataclass(frozen=True)
class Page:
    """Which items of a list a request asks for: `limit` of them from `offset`."""

    offset: int
    limit: int

    @property
    def stop(self):
        return self.offset + self.limit

    def of(self, items):
        """The page's items of a list or a queryset (a queryset gets OFFSET and LIMIT)."""
        return items[self.offset : self.stop]


def page_of(request, *, default: int, maximum: int) -> Page:
    """The page `request` asks for (400 for a limit or offset that is not a whole number in range)."""
    return Page(
        offset=whole_number_parameter(request, "offset", default=0, lowest=0, highest=MAX_OFFSET),
        limit=whole_number_parameter(request, "limit", default=default, lowest=1, highest=maximum),
    )


def with_page_headers(response, request, page: Page, total: int):
    """`response` with `X-Total-Count` and the `Link` header of `page` in a list of `total` items."""
    response[TOTAL_HEADER] = str(total)
    links = [("first", 0)]
    if page.offset > 0:
        links.append(("prev", max(0, min(page.offset, total) - page.limit)))
    if page.stop < total:
        links.append(("next", page.stop))
    links.append(("last", max(0, (total - 1) // page.limit * page.limit)))
    response["Link"] = ", ".join(
        f'<{_page_url(request, offset, page.limit)}>; rel="{rel}"' for rel, offset in links
    )
    return response


def _page_url(request, offset, limit):
    query = {key: values for key, values in request.query_params.lists() if key not in ("offset", "limit")}
    query.update(offset=[str(offset)], limit=[str(limit)])
    return request.build_absolute_uri(f"{request.path}?{urlencode(query, doseq=True)}")


def page_parameters(default: int, maximum: int) -> list:
    """The OpenAPI description of a paged list: its two query parameters and its two response headers."""
    return [
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": maximum},
            description=f"Items per page, from 1 to {maximum} (default {default}); more is a 400.",
        ),
        OpenApiParameter(
            "offset",
            {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET},
            description="Items to skip (default 0): the first page starts at 0.",
        ),
        OpenApiParameter(
            TOTAL_HEADER,
            int,
            location=OpenApiParameter.HEADER,
            response=[200],
            description="How many items the whole list has.",
        ),
        OpenApiParameter(
            "Link",
            str,
            location=OpenApiParameter.HEADER,
            response=[200],
            description='RFC 8288 links to the other pages: rel="first", "prev" (not on the first page), '
            '"next" (while there are more items) and "last".',
        ),
    ]
