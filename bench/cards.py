"""Benchmark of card-name resolution and autocomplete over the full catalog.

    .venv/bin/python bench/cards.py [--lookups 3000] [--seed 7]

Uses the configured database (DATABASE_URL, else the SQLite file), migrating it first so the shipped
snapshot is loaded. Prints names/second, p50/p99 per lookup for exact, normalised and typo'd names, the
autocomplete p99, the memory of the index, and a plain dict lookup as the baseline.
Targets (issue 3): exact/normalised within 10x the dict baseline; fuzzy p99 <= 5 ms;
autocomplete p99 <= 20 ms.
"""

import argparse
import os
import random
import statistics
import sys
import time
import tracemalloc
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phm.settings")
os.environ.setdefault("DEBUG", "1")

import django

django.setup()

from django.core.management import call_command  # noqa: E402

from rounds.catalog import resolve  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def time_each(function, inputs):
    """Per-call durations in microseconds (timer overhead included, as it is for the baseline)."""
    durations = []
    clock = time.perf_counter_ns
    for text in inputs:
        start = clock()
        function(text)
        durations.append((clock() - start) / 1000)
    return durations


def throughput(function, inputs, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for text in inputs:
            function(text)
        best = min(best, time.perf_counter() - start)
    return len(inputs) / best


def strip_accents(text):
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def normalised_spelling(rng, name, faces):
    """How players mistype a name without a real typo: accents, apostrophes, commas, spacing, face names.

    Always something a case-insensitive exact match would miss, so that the normalised path is measured.
    """
    choice = rng.randrange(5)
    if choice == 0 and faces:
        spelled = rng.choice(faces)
    elif choice == 1:
        spelled = strip_accents(name).lower().replace(",", "")
    elif choice == 2:
        spelled = name.replace("'", "\u2019").upper()
    elif choice == 3:
        spelled = name.replace("'", "").replace(",", "")
    else:
        spelled = name.replace(" // ", "//").replace("-", " ")
    if spelled.strip().casefold() == name.casefold():
        spelled = spelled.replace(" ", "  ", 1) if " " in spelled else spelled + "."
    return spelled


def typo(rng, name):
    """One or two character edits, as in "Thalia, Gaurdian of Thraben"."""
    letters = list(name)
    for _ in range(rng.choice([1, 1, 2])):
        position = rng.randrange(len(letters))
        edit = rng.randrange(3)
        if edit == 0 and position + 1 < len(letters):
            letters[position], letters[position + 1] = letters[position + 1], letters[position]
        elif edit == 1 and len(letters) > 4:
            del letters[position]
        else:
            letters[position] = rng.choice("aeiourstln")
    return "".join(letters)


def report(label, durations, rate=None):
    line = (
        f"  {label:<28} p50 {percentile(durations, 0.5):9.2f} µs   p99 {percentile(durations, 0.99):9.2f} µs"
    )
    if rate:
        line += f"   {rate:>12,.0f} names/s"
    print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lookups", type=int, default=3000, help="names per category")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    call_command("migrate", verbosity=0)
    resolve.invalidate_index()
    tracemalloc.start()
    started = time.perf_counter()
    index = resolve.get_index()
    build_seconds = time.perf_counter() - started
    index_bytes, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    from rounds.models import CardFace

    faces_by_card = {}
    for card_id, face in CardFace.objects.values_list("card_id", "name"):
        faces_by_card.setdefault(card_id, []).append(face)
    cards = list(index.cards)
    sample = [rng.choice(cards) for _ in range(args.lookups)]
    exact_names = [card.name if rng.random() < 0.7 else card.name.lower() for card in sample]
    normalised_names = [
        normalised_spelling(
            rng, card.name, faces_by_card.get(card.id, [])[1:] if " // " in card.oracle_name else []
        )
        for card in sample
    ]
    typo_names = [typo(rng, card.name) for card in sample if len(card.name) >= 6]
    prefixes = [card.name[: rng.randint(1, 8)] for card in sample]
    fragments = []
    for card in sample:
        start = rng.randrange(max(1, len(card.name) - 4))
        fragments.append(card.name[start : start + rng.randint(3, 5)])

    baseline = {card.name: card for card in cards}
    baseline_inputs = [card.name for card in sample]

    def resolve_with_index(text):
        return resolve.resolve_name(text, index=index)

    outcome = {"exact": 0, "normalized": 0, "fuzzy": 0, "unknown": 0}
    for text in exact_names + normalised_names + typo_names:
        outcome[resolve_with_index(text).status] += 1

    print(
        f"Catalog: {len(index):,} cards, {len(index.sorted_keys):,} lookup keys; "
        f"index built in {build_seconds:.2f} s"
    )
    print(f"Index memory (tracemalloc while building): {index_bytes / 2**20:.1f} MiB")
    print(
        f"Mix: {len(exact_names)} exact, {len(normalised_names)} normalised, {len(typo_names)} typo'd inputs"
    )
    print(f"Outcomes: {outcome}")
    print("Per lookup:")
    dict_durations = time_each(baseline.get, baseline_inputs)
    dict_rate = throughput(baseline.get, baseline_inputs)
    report("dict baseline (.get)", dict_durations, dict_rate)
    exact_durations = time_each(resolve_with_index, exact_names)
    exact_rate = throughput(resolve_with_index, exact_names)
    report("exact", exact_durations, exact_rate)
    normal_durations = time_each(resolve_with_index, normalised_names)
    normal_rate = throughput(resolve_with_index, normalised_names)
    report("normalised", normal_durations, normal_rate)
    fuzzy_durations = time_each(resolve_with_index, typo_names)
    report("typo → fuzzy suggestions", fuzzy_durations, throughput(resolve_with_index, typo_names, repeat=1))
    autocomplete_durations = time_each(index.autocomplete, prefixes + fragments)
    report("autocomplete (prefix+infix)", autocomplete_durations)

    exact_ratio = statistics.median(exact_durations) / statistics.median(dict_durations)
    normal_ratio = statistics.median(normal_durations) / statistics.median(dict_durations)
    rate_ratio_exact, rate_ratio_normal = dict_rate / exact_rate, dict_rate / normal_rate
    print("Targets:")
    print(
        f"  exact      p50 {exact_ratio:5.1f}x dict, "
        f"throughput {rate_ratio_exact:5.1f}x slower  (target <= 10x)"
    )
    print(
        f"  normalised p50 {normal_ratio:5.1f}x dict, "
        f"throughput {rate_ratio_normal:5.1f}x slower  (target <= 10x)"
    )
    print(f"  fuzzy p99 {percentile(fuzzy_durations, 0.99) / 1000:.2f} ms (target <= 5 ms)")
    print(f"  autocomplete p99 {percentile(autocomplete_durations, 0.99) / 1000:.2f} ms (target <= 20 ms)")


if __name__ == "__main__":
    main()
