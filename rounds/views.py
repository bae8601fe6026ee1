"""Public card pages: search, autocomplete fragment (htmx), a card's page, the banned lists."""

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, render

from . import page_extensions, selectors
from .card_verdicts import phm_verdict
from .cardquery import QuerySyntaxError, caret_display, is_filter_query, search_cards_by_query
from .catalog.history import card_legality_history
from .catalog.lookup import look_up_name
from .catalog.resolve import resolve_name
from .catalog.sources import CORE_FORMATS
from .formats import format_label
from .models import Card, Printing
from .services import catalog as services

MAX_QUERY_LENGTH = 200
QUERY_PAGE_SIZE = 50
NAME_PAGE_SIZE = 50  # cards a name search lists on the page
AUTOCOMPLETE_SHOWN = 10  # of those, the first ones shown under a box as the name is typed


def _query(request, name="q"):
    return request.GET.get(name, "")[:MAX_QUERY_LENGTH]


def card_search(request):
    """Search page: for a plain name, autocomplete matches and, when none, the resolver's verdict; for a
    filter query (`t:dragon mv<=3`), the matching cards a page at a time, or where the query is wrong."""
    query = _query(request).strip()
    context = {"query": query, "catalog": services.latest_catalog_version(), "filter_query": False}
    if query and is_filter_query(query):
        context["filter_query"] = True
        page = _page_number(request)
        try:
            results, total = search_cards_by_query(
                query, limit=QUERY_PAGE_SIZE, offset=(page - 1) * QUERY_PAGE_SIZE
            )
        except QuerySyntaxError as error:
            context.update(
                results=[],
                query_error=error.message,
                query_error_position=error.position,
                query_caret=caret_display(query, error.position),
            )
        else:
            context.update(
                results=results,
                total=total,
                page=page,
                first=(page - 1) * QUERY_PAGE_SIZE + 1,
                last=(page - 1) * QUERY_PAGE_SIZE + len(results),
                has_next=page * QUERY_PAGE_SIZE < total,
                has_previous=page > 1,
            )
        return render(request, "rounds/card_search.html", context)
    lookup = look_up_name(query, limit=NAME_PAGE_SIZE)
    context.update(results=lookup.matches, lookup=lookup)
    return render(request, "rounds/card_search.html", context)


def _page_number(request):
    try:
        return max(1, min(int(request.GET.get("page", "1")), 10_000))
    except ValueError:
        return 1


def card_autocomplete(request):
    """HTML fragment for htmx: the suggestions under a card-name box, the same answer the search page gives
    for that text (`look_up_name`), the first AUTOCOMPLETE_SHOWN of them."""
    query = _query(request) or _query(request, "name")
    # A filter query is answered by the search itself, not by name suggestions.
    return render_name_suggestions(request, "" if is_filter_query(query) else query)


def render_name_suggestions(request, query):
    """The suggestions fragment for a typed name; the hand form's card boxes use it too."""
    return render(
        request,
        "rounds/_card_autocomplete.html",
        {"lookup": look_up_name(query, limit=AUTOCOMPLETE_SHOWN)},
    )


def card_detail(request, slug):
    printings = Printing.objects.select_related("card_set").order_by(
        "card_set__release_date", "card_set__code"
    )
    card = get_object_or_404(
        Card.objects.prefetch_related("faces", Prefetch("printings", queryset=printings)), slug=slug
    )
    formats = list(CORE_FORMATS) + sorted(key for key in card.legalities if key not in CORE_FORMATS)
    legalities = [(format_label(key), card.legality(key)) for key in formats]
    legality_history = card_legality_history(card)
    for change in legality_history:
        change.format_label = format_label(change.format)
    oracle_faces = card.oracle_text.split("\n//\n") if card.oracle_text else []
    faces = list(card.faces.all())
    face_texts = list(zip(faces, oracle_faces, strict=False)) if len(faces) > 1 else []
    return render(
        request,
        "rounds/card_detail.html",
        {
            "card": card,
            "faces": faces,
            "face_texts": face_texts,
            "legalities": legalities,
            "legality_history": legality_history,
            "printings": list(card.printings.all()),
            "catalog": services.latest_catalog_version(),
            "verdict": phm_verdict(card),
            "card_rounds": selectors.rounds_naming_card(card),
            "metagame": None,  # the scoring app adds how the card was played
            **page_extensions.extra_context(page_extensions.CARD_PAGE, request, card),
        },
    )


def banned_lists(request):
    # Entries link to their card pages through the `card` tag, which resolves names in memory (no query).
    lists = services.banned_lists()
    return render(
        request,
        "rounds/banned_lists.html",
        {"banned_lists": lists, "catalog": services.latest_catalog_version()},
    )


def card_check(request):
    """HTML fragment for htmx: how one typed name resolves, for live validation beside a card input."""
    name = _query(request, "name") or _query(request)
    resolution = resolve_name(name) if name.strip() else None
    return render(
        request,
        "rounds/_card_check.html",
        {"resolution": resolution, "catalog": services.latest_catalog_version() if resolution else None},
    )
