# PHM Moderator: one image for web (gunicorn), worker and beat (celery).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY phm ./phm
COPY accounts ./accounts
COPY rounds ./rounds
COPY submissions ./submissions
COPY scoring ./scoring
COPY outbox ./outbox
RUN pip install .
COPY . .

# collectstatic needs settings but no database; a throwaway key is enough at build time.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput

# /app/sent-mail: the file e-mail backend's folder; a new `sent-mail` volume (docker-compose.yml) takes its owner.
RUN useradd --create-home --uid 1000 phm && mkdir -p /app/sent-mail && chown -R phm /app
USER phm

EXPOSE 8000
# gunicorn.conf.py reads WEB_CONCURRENCY, GUNICORN_THREADS, GUNICORN_TIMEOUT and PORT (README: Configuration).
# docker-compose.yml runs the workers, beat and the one-shot migrate from this same image with other commands.
CMD ["gunicorn", "--config", "/app/gunicorn.conf.py"]
