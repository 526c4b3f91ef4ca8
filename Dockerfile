# kolradar: the bot and its runtime dependencies, on Node 24, as a non-root user.
#   docker build -t kolradar .
#   docker run -d --name kolradar -v kolradar-data:/data --env-file .env -p 9090:9090 kolradar
# test/ops/image.test.ts runs this file's install and start steps as written, in a
# fresh folder (no container engine there): keep every RUN a plain shell line.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Runtime dependencies only (Node itself comes from this image, not from the node dev dependency).
RUN npm ci --omit=dev --no-audit --no-fund
COPY src ./src
COPY commands ./commands
COPY scripts/slim-install.ts ./scripts/slim-install.ts
# Keep only what the runtime reads: the font files the charts use, no TypeScript.
RUN node scripts/slim-install.ts && rm -r scripts

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    STORE_URL=sqlite:/data/kolradar.sqlite \
    HTTP_PORT=9090 \
    HTTP_HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app ./
# The code stays root-owned and read-only to the bot; only the data volume is its own.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# 9090: health and metrics (HTTP_PORT); 8080: the community pages (WEB_PORT), when WEB_URL is set.
EXPOSE 9090 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.HTTP_PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and gets SIGTERM itself (drains, then exits 0).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=16", "src/main.ts"]
