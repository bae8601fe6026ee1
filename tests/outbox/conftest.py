from tests.submissions.conftest import alice, bob, carol, catalog_index, dave, open_round  # noqa: F401  (fixtures)
