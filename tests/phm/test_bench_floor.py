"""The benchmark's framework floor (bench/floor_urls.py) is never part of the product: the product's URLconf
has no such route, and the bench settings refuse to load unless the benchmark asks for them."""

import importlib
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.urls import Resolver404, get_resolver, resolve


def all_patterns(resolver):
    for pattern in resolver.url_patterns:
        if hasattr(pattern, "url_patterns"):
            yield from all_patterns(pattern)
        else:
            yield pattern


def test_the_product_urls_have_no_floor(settings):
    assert settings.ROOT_URLCONF == "phm.urls"
    with pytest.raises(Resolver404):
        resolve("/bench/floor/")
    modules = {getattr(pattern.callback, "__module__", "") for pattern in all_patterns(get_resolver())}
    assert not any(module.startswith("bench") for module in modules), sorted(modules)


def test_the_bench_settings_refuse_to_load_unless_the_benchmark_asks(monkeypatch):
    monkeypatch.delenv("PHM_BENCH_FLOOR", raising=False)
    monkeypatch.delitem(sys.modules, "bench.floor_settings", raising=False)
    with pytest.raises(ImproperlyConfigured, match=r"bench/submit\.py"):
        importlib.import_module("bench.floor_settings")
