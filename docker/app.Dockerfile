# One image for web, worker and migrations (they share the workspace). Build context: the repository root.
# Base: node:20-bookworm-slim from a registry, or, where none can be reached, any local Debian image with
# Node 20 and npm on its PATH, named with --build-arg GITBENCH_NODE_IMAGE=<image>.
ARG GITBENCH_NODE_IMAGE=node:20-bookworm-slim
FROM ${GITBENCH_NODE_IMAGE}
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# The image has no .git (see .dockerignore): the build names the GitBench version it was made from,
# recorded with every campaign and attempt (`<commit>`, `-dirty` appended for a modified tree).
ARG GITBENCH_VERSION=
ENV GITBENCH_VERSION=${GITBENCH_VERSION}
COPY . .
# next build renders the layout once, which reads the web environment before it bails out to dynamic
# rendering: placeholders for that build only (nothing is connected to; compose gives the real ones).
RUN npm ci --no-audit --no-fund \
 && bash scripts/prisma.sh generate \
 && node apps/cli/build.mjs \
 && DATABASE_URL=postgresql://build@127.0.0.1:1/none REDIS_URL=redis://127.0.0.1:1 \
    GITBENCH_SECRET_KEY=placeholder-for-the-build-only-never-at-run-time npm run build -w @gitbench/web \
 && (id node >/dev/null 2>&1 || useradd --uid 1000 --create-home --shell /usr/sbin/nologin node) \
 && chown -R node:node /app/apps/web/.next
# Never root at run time: the code is read-only to the app; only Next's cache is its own.
USER node
