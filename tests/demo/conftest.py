from tests.submissions.conftest import catalog_index  # noqa: F401  (fixture)
