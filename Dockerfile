# The standalone mock server, `inr-payouts-mock`, as a container image: for teams that test against a sandbox
# with `docker run`, compose, a CI service container or Testcontainers rather than with Node (docs/container.md).
#
# Built from the packed package, the tarball npm publishes, in the build context:
#   npm pack && docker build -t inr-payouts-mock .
# BASE is any image of the official Node images' shape (node and npm on PATH, a `node` user of uid 1000).
ARG BASE=node:24-slim

FROM ${BASE} AS install
# Only behind a proxy that re-signs TLS: the path of its CA certificate, mounted into the build (docs/container.md).
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY inr-payouts-*.tgz /tmp/
# The package and its dependencies, none of its devDependencies. Node reads no source map unless started with
# --enable-source-maps, so the maps (two thirds of dist/) go.
RUN npm install --omit=dev --no-audit --no-fund --no-update-notifier /tmp/inr-payouts-*.tgz \
 && find node_modules/inr-payouts/dist -name '*.map' -delete \
 && rm -rf /tmp/inr-payouts-*.tgz /root/.npm

FROM ${BASE}
ENV NODE_ENV=production \
    PATH=/app/node_modules/.bin:$PATH
WORKDIR /app
# package.json too: a script in /app (a webhook receiver, docs/container.md) imports inr-payouts from here.
COPY --from=install /app /app
# The state file's folder (the file, its -wal and its lock: all the server writes) belongs to the user the server
# runs as and to group 0, writable by the group: OpenShift runs an image as an arbitrary uid in group 0.
RUN mkdir -p /data && chown node:0 /data && chgrp -R 0 /data && chmod -R g=u /data
USER node
VOLUME /data
EXPOSE 4010
# /__mock/health touches no state, journal or recording; slim images have no curl, node has fetch.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:4010/__mock/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The bin is PID 1: it handles SIGTERM itself (open connections closed, the state file folded in, exit 0).
ENTRYPOINT ["inr-payouts-mock"]
# Arguments given to `docker run` replace these: keep --host 0.0.0.0, or nothing outside the container reaches it.
CMD ["--host", "0.0.0.0", "--port", "4010", "--state-file", "/data/sandbox.db"]
