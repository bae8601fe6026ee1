"""Benchmark of the JSON body guard (phm.json_scan, phm.input_guard) on adversarial bodies, against baselines
measured in the same run.

    .venv/bin/python bench/json_guard.py [--sizes 10k,100k,1m,10m] [--repeat 5] [--old-sizes 10k,20k]

No database. For each family of adversarial bodies and each size it times `json_too_deep(body)` (the depth
measure that runs before any body is decoded) and prints milliseconds, milliseconds per MB, and the ratio
to the baseline: `json.loads` of a benign body of the same size (a list of hands: names and card names, the
shape the API takes). Then, at 1 MB (the request limit), the whole parser (`GuardedJSONParser.parse`:
depth, decode, refused characters) on each family, the same families with one refused character at their
end (its decoded data is then walked to name the field), and the baseline. Last, the guard this one
replaced (a regular expression over strings, quadratic on runs of escaped quotes) on small sizes only.

Target: linear time, at most 50 ms per MB for the guard at every size up to 10 MB.
Best of --repeat runs (default 5); the machine's other work only ever adds time.
"""

import argparse
import io
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MB = 1 << 20
TARGET_MS_PER_MB = 50


def _repeat(unit, size):
    """`unit` repeated to at most `size` bytes (at least once)."""
    return unit * max(1, size // len(unit))


# name → body of about `size` bytes. Each is what a hostile client can send to any JSON endpoint.
FAMILIES = {
    "escaped quotes, open string": lambda size: b'"' + _repeat(b'\\"', size),
    "escaped quotes, closed string": lambda size: b'["' + _repeat(b'\\"', size) + b'"]',
    "escaped quotes and brackets": lambda size: b'["' + _repeat(b'\\"[', size) + b'"]',
    "one run of backslashes": lambda size: b'["' + _repeat(b"\\", size) + b'"]',
    "backslash runs, brackets": lambda size: b"[" + _repeat(b'"\\\\\\\\\\\\\\"[",[],', size) + b"[]]",
    "deep brackets": lambda size: _repeat(b"[", size),
    "shallow brackets": lambda size: b"[" + _repeat(b"[],", size) + b"[]]",
    "brackets inside a string": lambda size: b'["' + _repeat(b"[{", size) + b'"]',
    "many short strings": lambda size: b"[" + _repeat(b'"[",', size) + b'""]',
    "one huge string": lambda size: b'"' + _repeat(b"a", size) + b'"',
}


def benign(size):
    """A list of hands (names and card names: the shape the API takes) of about `size` bytes."""
    hand = json.dumps({"name": "Red Deck Wins", "cards": ["Goblin Guide", "Lightning Bolt", "Mountain"]})
    unit = hand.encode() + b","
    return b"[" + _repeat(unit, size - len(hand) - 2) + hand.encode() + b"]"


def best_ms(function, repeat):
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best * 1000


# The guard this one replaced, verbatim, for the comparison on small sizes.
_OLD_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_OLD_NOT_A_BRACKET = re.compile(rb"[^\[\]{}]+")


def old_json_too_deep(raw, limit=32):
    depth = 0
    for byte in _OLD_NOT_A_BRACKET.sub(b"", _OLD_STRING.sub(b"", raw)):
        if byte in b"[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def parse_size(text):
    text = text.strip().lower()
    factor = {"k": 1000, "m": 1000 * 1000}.get(text[-1], 1)
    return int(float(text.rstrip("km")) * factor)


def label(size):
    return f"{size // 1000:,} KB" if size < 1000 * 1000 else f"{size / (1000 * 1000):g} MB"


def guard_table(sizes, repeat):
    from phm.json_scan import json_too_deep

    print("## json_too_deep (the depth measure, before decoding)\n")
    print("| family | " + " | ".join(label(size) for size in sizes) + " | worst ms/MB |")
    print("|---|" + "---|" * (len(sizes) + 1))
    baseline = {}
    for size in sizes:
        body = benign(size)
        baseline[size] = best_ms(lambda body=body: json.loads(body), repeat)
    print(
        "| baseline: json.loads of a benign body | "
        + " | ".join(f"{baseline[size]:.1f} ms" for size in sizes)
        + f" | {max(baseline[size] / (size / MB) for size in sizes):.1f} |"
    )
    worst_overall = 0.0
    for name, make in FAMILIES.items():
        cells, worst = [], 0.0
        for size in sizes:
            body = make(size)
            ms = best_ms(lambda body=body: json_too_deep(body), repeat)
            per_mb = ms / (len(body) / MB)
            worst = max(worst, per_mb)
            cells.append(f"{ms:.2f} ms ({ms / baseline[size]:.2f}x)")
        worst_overall = max(worst_overall, worst)
        print(f"| {name} | " + " | ".join(cells) + f" | {worst:.1f} |")
    verdict = "met" if worst_overall <= TARGET_MS_PER_MB else "NOT MET"
    print(f"\nWorst: {worst_overall:.1f} ms per MB (target ≤ {TARGET_MS_PER_MB}: {verdict}).")
    print("Cells: best time, and in brackets its ratio to the baseline of the same size.\n")


def parser_table(repeat):
    from django.conf import settings

    from phm.input_guard import GuardedJSONParser

    size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE - 64  # about the largest body a request may carry

    def parse(body):
        try:
            GuardedJSONParser().parse(io.BytesIO(body), "application/json", {})
        except Exception as error:  # a 400 (too deep, parse error, refused character) is the point here
            return type(error).__name__
        return "accepted"

    print(f"## GuardedJSONParser.parse at {size:,} bytes (the request limit)\n")
    print("| family | whole parser | answer | with a refused character at the end | answer |")
    print("|---|---|---|---|---|")
    baseline = best_ms(lambda: json.loads(benign(size)), repeat)
    print(f"| baseline: json.loads of a benign body | {baseline:.1f} ms | | | |")
    families = {**FAMILIES, "benign hands": benign}
    for name, make in families.items():
        body = make(size)
        spoiled = _spoiled(body)
        ms = best_ms(lambda body=body: parse(body), repeat)
        spoiled_ms = best_ms(lambda body=spoiled: parse(body), repeat)
        print(
            f"| {name} | {ms:.1f} ms ({ms / baseline:.2f}x) | {parse(body)} | "
            f"{spoiled_ms:.1f} ms ({spoiled_ms / baseline:.2f}x) | {parse(spoiled)} |"
        )
    print()


def _spoiled(body):
    """The body and, after it, a string holding an escaped NUL, in a list (JSON if the body is)."""
    return b"[" + body + b',"\\u0000"]'


def old_table(sizes, repeat):
    from phm.json_scan import json_too_deep

    print("## The replaced guard (regular expression over strings), small sizes only\n")
    print("| family | " + " | ".join(f"{label(size)}: old / new" for size in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for name, make in FAMILIES.items():
        cells = []
        for size in sizes:
            body = make(size)
            old = best_ms(lambda body=body: old_json_too_deep(body), max(1, repeat // 3))
            new = best_ms(lambda body=body: json_too_deep(body), repeat)
            cells.append(f"{old:.1f} / {new:.2f} ms ({old / new:,.0f}x)")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10k,100k,1m,10m")
    parser.add_argument("--old-sizes", default="10k,20k")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phm.settings")
    os.environ.setdefault("SECRET_KEY", "bench-json-guard")
    import django

    django.setup()
    guard_table([parse_size(size) for size in args.sizes.split(",")], args.repeat)
    parser_table(args.repeat)
    old_table([parse_size(size) for size in args.old_sizes.split(",")], args.repeat)


if __name__ == "__main__":
    main()
