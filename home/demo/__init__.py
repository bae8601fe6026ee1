"""The living demo of `make demo` (`python manage.py seed_demo`): two leagues built through the services, as
the site itself would build them. `data` says what is in them, `specs` its vocabulary, `build` how it is
made."""
