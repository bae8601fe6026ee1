# PHM Moderator — the two set-up commands are `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# Test processes (pytest-xdist): one per core by default; PYTEST_WORKERS=0 runs the suite in this process.
PYTEST_WORKERS ?= auto

.PHONY: install run demo test lint format worker beat migrate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@touch $(INSTALLED)

install: $(INSTALLED)

migrate: install
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput

run: migrate
	@DEBUG=$${DEBUG:-1} $(BIN)/python manage.py create_demo_moderator
	@echo ""
	@echo "  PHM Moderator is starting on http://$(HOST):$(PORT)/"
	@echo "  Log in as the demo moderator: username 'moderator', password 'phm-moderator'"
	@echo "  (stop with Ctrl-C)"
	@echo ""
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py runserver $(HOST):$(PORT)

# Like `run`, on a site filled with a living demo (manage.py seed_demo: idempotent, prints the logins). The
# demo's mail waits in the outbox like any; it is then delivered as the backstop would, to the console backend
# and out of sight, so the demo moderator is not told of weeks-old undelivered mail.
demo: migrate
	@DEBUG=$${DEBUG:-1} $(BIN)/python manage.py seed_demo --url http://$(HOST):$(PORT)
	@DEBUG=$${DEBUG:-1} EMAIL_BACKEND=django.core.mail.backends.console.EmailBackend \
		$(BIN)/python manage.py send_pending_mail > /dev/null
	@echo ""
	@echo "  PHM Moderator is starting on http://$(HOST):$(PORT)/ with the demo (stop with Ctrl-C)"
	@echo ""
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py runserver $(HOST):$(PORT)

# Tests run with DEBUG off, as in production; a throwaway key is supplied when none is set.
test: install
	SECRET_KEY=$${SECRET_KEY:-test-only-secret-key} $(BIN)/pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# The linter, the layers of the apps (import-linter contracts in pyproject.toml) and the types of the public
# services and selectors (mypy, configured in pyproject.toml).
lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	SECRET_KEY=$${SECRET_KEY:-lint-only-secret-key} $(BIN)/mypy

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

worker: install
	DEBUG=$${DEBUG:-1} $(BIN)/celery -A phm worker --loglevel=INFO

beat: install
	DEBUG=$${DEBUG:-1} $(BIN)/celery -A phm beat --loglevel=INFO

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
