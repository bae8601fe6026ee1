from tests.submissions.conftest import alice, bob, catalog_index, open_round  # noqa: F401  (fixtures)
