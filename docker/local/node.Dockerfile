# A Node base for docker/app.Dockerfile where no registry can be reached: the build context (made by
# docker/build-local-images.sh) holds the host's node binary, its npm and the host's local CA
# certificates (/usr/local/share/ca-certificates: a TLS-inspecting proxy's, so npm ci reaches the registry).
ARG BASE
FROM ${BASE}
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca/ /usr/local/share/ca-certificates/
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN update-ca-certificates >/dev/null \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
