# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run test serve migrate demo lint schema bench bench-hall clean messages compilemessages

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The compiled rules engine (setup.py) is built from these sources: a change to them
# installs again, or the extension built from the old ones would still be imported.
COMPILED_SOURCES := setup.py scoring/rules/cards.py scoring/rules/deadwood.py

$(VENV)/.installed: pyproject.toml $(COMPILED_SOURCES) | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(COMPILED_SOURCES) | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(VENV)/.installed $@

# The web server and, beside it, the worker that runs background jobs (archive imports,
# rules changes, ladder refreshes). The worker waits out a database outage by itself;
# if it exits anyway, the loop starts it again two seconds later. Both stop when the
# server does (Ctrl-C stops both).
run: $(VENV)/.installed compilemessages
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) manage.py migrate --noinput
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) manage.py load_demo
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) manage.py checkpoint_ledger
	export DJANGO_DEBUG=$${DJANGO_DEBUG:-1}; \
	bin/respawn "The background worker" 2 $(PY) manage.py run_worker --no-reload & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver $(HOST):$(PORT)

test: $(VENV)/.installed-test compilemessages
	$(PY) -m pytest -n 2 --ignore=tests/test_api_fuzz.py $(PYTEST_ARGS)
	# schemathesis expands its operations only in a single process: two, side by side.
	bin/fuzz $(PY) $(PYTEST_ARGS)

# The Italian catalogue: `make messages` after adding or changing text (then translate
# every new entry in locale/it/LC_MESSAGES/django.po); the .mo is built, not committed.
I18N := DJANGO_DEBUG=1 $(PY) manage.py
messages: $(VENV)/.installed
	$(I18N) makemessages --locale it --no-location --no-obsolete --no-wrap \
		--ignore 'staticfiles/*' --ignore 'tests/*' --ignore 'benchmarks/*'

compilemessages: $(VENV)/.installed
	@command -v msgfmt >/dev/null || { echo "msgfmt missing: install GNU gettext (apt-get install gettext)"; exit 1; }
	$(I18N) compilemessages --locale it --ignore '.venv' --ignore 'staticfiles'

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

schema: $(VENV)/.installed
	DJANGO_DEBUG=1 $(PY) manage.py spectacular --file openapi.yaml --validate --fail-on-warn

bench: $(VENV)/.installed
	for script in benchmarks/bench_*.py; do \
		[ "$$script" = benchmarks/bench_hall.py ] && continue; \
		echo "== $$script"; $(PY) $$script || exit 1; done

# The hall under load (gunicorn + locust, minutes): HALL_TABLES=64 HALL_SECONDS=90 make bench-hall
bench-hall: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/bench_hall.py --tables $${HALL_TABLES:-32} --seconds $${HALL_SECONDS:-90}

clean:
	rm -rf $(VENV) .test-db*.sqlite3* staticfiles build scoring/rules/*.so
