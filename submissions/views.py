"""Pages for hands: the submission form with live checks, receipts, the forum export and the commitment check
(the moderator's review pages are in submissions.review_views). Every page that shows a hand is private to
whoever may see it, and never cached."""

from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from phm.downloads import BBCODE, download, round_filename
from rounds.legality import check_hand, rules_for_round
from rounds.models import HandSizeMode
from rounds.views import render_name_suggestions

from . import commitments, errors, selectors
from .bbcode import hands_posted
from .forms import DECISION_FIELD_PREFIX, HandForm, fill_from_paste
from .services import submit


def _round_or_404(round_id):
    try:
        return submit.submittable_round(round_id)
    except errors.HandNotFound:
        raise Http404("No such round.") from None


def _card_rows(form, verdict):
    """[(field, card verdict or None)] for the template: each problem sits next to its own card."""
    by_index = {card.index: card for card in verdict.cards} if verdict else {}
    return [(field, by_index.get(position)) for position, field in enumerate(form.card_fields)]


def _initial(hand):
    if hand is None or hand.current_version is None:
        return {}
    initial = {"name": hand.name}
    for position, card in enumerate(hand.current_version.cards, start=1):
        initial[f"card_{position}"] = card
    for key, answer in (hand.current_version.decisions or {}).items():
        initial[DECISION_FIELD_PREFIX + key] = answer
    return initial


def _add_input_errors(form, errors):
    """A HandInputError's problems next to their fields; decisions' problems next to each decision. A field
    the form itself refused keeps its own message (the service says the same thing in other words)."""

    def add(name, problem):
        name = name if name in form.fields else None
        if name is not None and name in form.errors and problem not in form.errors[name]:
            return
        if problem not in form.errors.get(name or "__all__", []):
            form.add_error(name, problem)

    for field, problems in errors.items():
        if isinstance(problems, dict):
            for key, messages_ in problems.items():
                for problem in messages_:
                    add(DECISION_FIELD_PREFIX + key, problem)
            continue
        for problem in problems:
            add(field, problem)


def _problem_summary(form, verdict, hand_problems):
    """[(field id, what, [problems])] of a refused submission, in the form's order: each illegal card, the
    hand's own problems, then every field the form or the service refused."""
    fields = form.card_fields
    summary = [
        (
            fields[card.index].id_for_label,
            f"{fields[card.index].label}, {card.name}",
            [p.message for p in card.problems],
        )
        for card in (verdict.cards if verdict else [])
        if card.problems and card.index < len(fields)
    ]
    summary += [("hand-form", "The hand", [problem]) for problem in hand_problems]
    for name, problems in form.errors.items():
        if name in form.fields:
            what = "Rules you attest" if name == "attest" else str(form[name].label)
            summary.append((form[name].id_for_label, what, list(problems)))
        else:
            summary.append(("hand-form", "The hand", list(problems)))
    return summary


def _readable_parts(form):
    """After the form refused a submission: the parts of it the service can still check (its cards always,
    the name and each decision unless the form refused them), as submit.check_submission takes them."""
    parts = {"cards": form.card_inputs()}
    if "name" not in form.errors:
        parts["name"] = form.cleaned_data.get("name", "")
    parts["decisions"] = {
        decision["key"]: form.cleaned_data[DECISION_FIELD_PREFIX + decision["key"]]
        for decision in form.decisions
        if DECISION_FIELD_PREFIX + decision["key"] in form.cleaned_data
    }
    return parts


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def my_hand(request, round_id):
    round_ = _round_or_404(round_id)
    now = timezone.now()
    hand = selectors.own_hand(request.user, round_)
    accepting = round_.accepts_hands_at(now)
    form_options = {
        "hand_size": round_.hand_size,
        "attestations": submit.attestations_for(round_),
        "up_to": round_.hand_size_mode == HandSizeMode.UP_TO,
        "decisions": round_.decisions or [],
    }
    verdict, hand_problems, status = None, [], 200

    if request.method == "POST" and not accepting:
        form = HandForm(request.POST, **form_options)
        messages.error(request, submit.deadline_passed_message(round_))
        status = 409
    elif request.method == "POST" and "fill" in request.POST:
        data, left_over, count = fill_from_paste(request.POST, round_.hand_size)
        form = HandForm(data, **form_options)
        verdict = submit.judge(round_, form.card_inputs())
        if left_over:
            needs = f"allows up to {round_.hand_size}" if form.up_to else f"needs {round_.hand_size}"
            hand_problems.append(
                f"Your list has {count} cards; this round {needs}. Left out: {' / '.join(left_over)}."
            )
        form.errors.clear()  # filling is not submitting: only the card checks speak
    elif request.method == "POST":
        form = HandForm(request.POST, **form_options)
        if form.is_valid():
            try:
                result = submit.submit_hand(
                    player=request.user,
                    round_id=round_.pk,
                    name=form.cleaned_data["name"],
                    cards=form.card_inputs(),
                    # The form's one checkbox attests every rule it lists, and is required.
                    attested=submit.attestations_for(round_),
                    decisions=form.decision_answers(),
                )
            except errors.IllegalHand as error:
                verdict = error.verdict
                hand_problems = [problem.message for problem in verdict.problems]
                _add_input_errors(form, error.errors)
                status = 400
            except errors.HandInputError as error:
                _add_input_errors(form, error.errors)
                status = 400
            except errors.HandConflict as error:
                messages.error(request, str(error))
                status = 409
            else:
                if result.changed:
                    verb = "submitted" if result.created else "changed"
                    messages.success(request, f"Your hand is {verb}: version {result.version.number}.")
                else:
                    messages.info(request, "Nothing changed: your current hand is the same.")
                return redirect("submissions:receipt", round_.pk, result.version.number)
        else:
            # The form's own refusal (the attestation unticked, a decision left empty) hides nothing else:
            # the cards are judged and the service's other problems are shown with it, all at once.
            check = submit.check_submission(round_, **_readable_parts(form))
            verdict = check.verdict
            hand_problems = [problem.message for problem in verdict.problems] if verdict else []
            _add_input_errors(form, check.errors)
            status = 400
    else:
        form = HandForm(initial=_initial(hand), **form_options)

    refused = request.method == "POST" and "fill" not in request.POST and status == 400
    context = {
        "round": round_,
        "hand": hand,
        "form": form,
        "card_rows": _card_rows(form, verdict),
        "hand_problems": hand_problems,
        # A refused submission lists every problem at the top, each linked to its field: nothing hides below.
        "problem_summary": _problem_summary(form, verdict, hand_problems) if refused else [],
        "accepting": accepting,
        "state": round_.state_at(now),
        "not_eligible": submit.tiebreak_message(round_)
        if round_.tiebreak and not submit.may_enter_tiebreak(request.user, round_)
        else "",
    }
    return render(request, "submissions/my_hand.html", context, status=status)


@login_required
@never_cache
@require_GET
def card_suggestions(request, round_id):
    """htmx: autocomplete under card field `index` (its value arrives under the field's own name)."""
    round_ = _round_or_404(round_id)
    index = _index(request, round_)
    return render_name_suggestions(request, request.GET.get(f"card_{index}", "")[:200])


@login_required
@never_cache
@require_GET
def card_check(request, round_id):
    """htmx: the verdict on one card under this round's rules, with suggestions one click away."""
    round_ = _round_or_404(round_id)
    index = _index(request, round_)
    typed = request.GET.get(f"card_{index}", "")[:200]
    card = None
    if typed.strip():
        rules = replace(rules_for_round(round_), hand_size=None)
        card = check_hand([typed], rules).cards[0]
    return render(request, "submissions/_card_verdict.html", {"card": card, "index": index})


def _index(request, round_):
    try:
        index = int(request.GET.get("index", ""))
    except ValueError:
        raise Http404("No such card field.") from None
    if not 1 <= index <= round_.hand_size:
        raise Http404("No such card field.")
    return index


@login_required
@never_cache
def receipt(request, round_id, version):
    round_ = _round_or_404(round_id)
    hand = selectors.own_hand(request.user, round_)
    shown = next((v for v in hand.version_list if v.number == version), None) if hand else None
    if shown is None:
        raise Http404("No such version of your hand.")
    revealed = selectors.is_revealed(round_, timezone.now())
    context = {
        "round": round_,
        "hand": hand,
        "version": shown,
        "revealed": revealed,
        "accepting": round_.accepts_hands_at(timezone.now()),
        "committed_text": commitments.version_text(shown) if revealed else "",
    }
    return render(request, "submissions/receipt.html", context)


def hands_bbcode(request, round_id):
    round_ = _round_or_404(round_id)
    if not selectors.is_revealed(round_, timezone.now()):
        raise Http404("The hands of this round are not revealed yet.")
    text = hands_posted(round_, selectors.hands_of_round(round_))
    return download(text, round_filename(round_, "hands", "bbcode"), BBCODE)


@require_http_methods(["GET", "POST"])
def verify(request):
    """Check a commitment on the server (the round page also checks in the browser, with crypto.subtle)."""
    text = request.POST.get("text", "")[:5000]
    commitment = request.POST.get("commitment", "")[:100]
    result = None
    if request.method == "POST" and text.strip() and commitment.strip():
        result = commitments.matches(text, commitment)
    example = commitments.canonical_text(
        round_id=12,
        username="Mogg",
        version=1,
        name="Never get warm",
        cards=["Black Lotus", "Black Lotus", "Black Lotus", "Frost Titan", "Nevermore"],
        nonce="0" * 64,
    )
    context = {
        "text": text,
        "commitment": commitment,
        "result": result,
        "example": example,
        "example_commitment": commitments.digest(example),
    }
    return render(request, "submissions/verify.html", context)
