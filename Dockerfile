# The Nemeton game server: the web app on 0.0.0.0:8000, SQLite in the volume /data.
#
#   docker build -t nemeton .
#   docker run -p 8000:8000 -v nemeton-data:/data nemeton
#
# On PostgreSQL (deploy/compose.yaml runs two of these behind nginx):
#   docker run -e NEMETON_DATABASE_URL=postgresql+psycopg://user:pw@host/db nemeton
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    NEMETON_DATA=/data \
    NEMETON_HOST=0.0.0.0 \
    NEMETON_PORT=8000

# The package from the source tree, with the server extra (FastAPI, uvicorn, SQLAlchemy,
# Alembic, psycopg with its own libpq): no compiler needed on the slim image.
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-compile ".[server]" && rm -rf /src

# A non-root user owning the data directory.
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin nemeton \
    && mkdir -p /data && chown nemeton:nemeton /data
USER nemeton
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000

# Liveness: the process answers /health (Python's urllib: the slim image has no curl).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('NEMETON_PORT', '8000'), timeout=2).status == 200 else 1)"]

# Host and port come from NEMETON_HOST and NEMETON_PORT above (every flag of `nemeton serve`
# has its NEMETON_* variable: NEMETON_DATABASE_URL, NEMETON_AGENT, NEMETON_FORWARDED_ALLOW_IPS...).
CMD ["nemeton", "serve"]
