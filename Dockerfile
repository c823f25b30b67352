# syntax=docker/dockerfile:1
# arraygraph's image. The builder stage gathers every dependency's wheel at the version
# requirements/runtime.txt locks, each file checked against the lock's hashes, then builds
# arraygraph's own wheel from those alone (no index); the final stage installs them from that
# directory alone, so a container starts, and restarts, without the network. Nothing is built
# in the checkout: the builder works on a copy (`docker build .` sends only what .dockerignore
# lets through). docs/deploying.md says how it is used; tests/deploy/test_dockerfile.py checks
# this file.
ARG PYTHON_VERSION=3.12

FROM python:${PYTHON_VERSION}-slim AS builder
ENV PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
# The lock first, alone: its layer is rebuilt when the lock changes, not at every source edit.
COPY requirements/runtime.txt requirements/
# pip's cache outlives the build (not in any image): a rebuild downloads nothing it had.
# --require-hashes: a file whose hash the lock does not list fails the build.
RUN --mount=type=cache,target=/root/.cache/pip \
    pip wheel --require-hashes --no-deps --wheel-dir /wheels -r requirements/runtime.txt
COPY pyproject.toml README.md ./
COPY app.py cli.py ./
COPY settings/ settings/
COPY web/ web/
COPY schema/ schema/
COPY runtime/ runtime/
COPY resolvers/ resolvers/
COPY store/ store/
COPY embedded/ embedded/
# Built with the locked setuptools among the wheels: nothing unhashed is fetched.
RUN pip wheel --no-index --find-links=/wheels --no-deps --wheel-dir /wheels .

FROM python:${PYTHON_VERSION}-slim
# ARRAYGRAPH_KEEP_ALIVE_S: how long a kept-alive connection may idle. It must exceed the idle
# timeout of the load balancer in front (AWS ALB, nginx: 60 s), so that the balancer closes an
# idle connection first instead of reusing one the server is closing (a 502): raise both together.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PATH=/opt/arraygraph/bin:$PATH \
    ARRAYGRAPH_ENV=production \
    ARRAYGRAPH_KEEP_ALIVE_S=75
# The wheels are mounted for this one step, not copied: they take no room in the image.
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    python -m venv /opt/arraygraph \
    && /opt/arraygraph/bin/pip install --no-index --find-links=/wheels arraygraph \
    && groupadd --system --gid 10001 arraygraph \
    && useradd --system --uid 10001 --gid arraygraph --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin arraygraph
COPY --chmod=0755 deploy/docker-entrypoint.sh /usr/local/bin/arraygraph-entrypoint
# Numeric, so that an orchestrator can tell it is not root (Kubernetes' runAsNonRoot).
USER 10001:10001
EXPOSE 8000
# Liveness: the process answers. Readiness (the database answers) is /readyz, for a load
# balancer: a database outage must not make the container unhealthy and restarted in a loop.
# Both answer past ARRAYGRAPH_MAX_CONCURRENCY, and idle connections cannot keep them out
# (ARRAYGRAPH_MAX_CONNECTIONS closes the longest idle): a busy or flooded server is not restarted.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --start-interval=2s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
ENTRYPOINT ["arraygraph-entrypoint"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
