from pathlib import Path

from django.conf import settings
from django.core.management import call_command


def test_vendored_front_end_files_are_present():
    vendor = Path(settings.BASE_DIR) / "static" / "vendor"
    for relative in [
        "bootstrap/bootstrap.min.css",
        "bootstrap/bootstrap.bundle.min.js",
        "htmx/htmx.min.js",
        "bootstrap-icons/bootstrap-icons.min.css",
        "bootstrap-icons/fonts/bootstrap-icons.woff2",
    ]:
        assert (vendor / relative).stat().st_size > 1000, relative


def test_production_collectstatic_builds_a_manifest(tmp_path, settings):
    """What the Docker image does at build time: every file a stylesheet references must exist."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    manifest = (tmp_path / "staticfiles.json").read_text()
    assert "vendor/bootstrap/bootstrap.min.css" in manifest
    assert "vendor/htmx/htmx.min.js" in manifest
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in manifest
