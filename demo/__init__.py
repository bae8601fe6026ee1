"""The demo app: the demo moderator of `make run` (`python manage.py create_demo_moderator`) and the living
demo of `make demo` (`python manage.py seed_demo`): two leagues built through the services, as the site itself
would build them. `data` says what is in them, `specs` its vocabulary, `build` how it is made. It stands above
every other app: it may use any of them, and none uses it."""
