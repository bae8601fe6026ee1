"""The forum archive: a past round imported from the forum's "hands posted" post (`post` reads it,
`post_import` checks and saves it), and correction replies applied to imported rounds (`corrections`); their
page (`views`, `urls`) and API (`api`, `api_urls`)."""
