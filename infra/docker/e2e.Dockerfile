# QA's end-to-end runner (`make test-e2e-containers`, issue 37): the Playwright suite of tests/e2e
# with Debian's chromium, run on the Compose network against the stack's own containers.
# No browser download: Playwright comes from npm with PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 and drives
# /usr/bin/chromium (CHROMIUM_PATH, as tests/playwright.config.ts does natively).
# Build context: the repository root (infra/docker/e2e.compose.yml).

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE}
# Debian's chromium from bookworm-security, where its updates are published (the local base's
# sources name only the main mirror; a second entry for the same suite is harmless).
RUN echo 'deb http://deb.debian.org/debian-security bookworm-security main' > /etc/apt/sources.list.d/bosted-security.list \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-liberation fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && chromium --version
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 CHROMIUM_PATH=/usr/bin/chromium \
    npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
    NO_UPDATE_NOTIFIER=1
WORKDIR /app
# Every workspace's manifest: npm ci checks the lock file against all of them. No install scripts:
# the runner needs no native addon (the native stack's launcher is never loaded in a container).
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY web/package.json web/
COPY api/package.json api/
COPY seed/package.json seed/
COPY infra/emulator-lite/package.json infra/emulator-lite/
COPY infra/stack/package.json infra/stack/
COPY infra/docker/package.json infra/docker/
COPY tests/package.json tests/
RUN npm ci --workspace tests --ignore-scripts \
 && node -e "require.resolve('@playwright/test'); require.resolve('firebase-admin/app'); require.resolve('axe-core/axe.min.js')"
COPY tsconfig.base.json ./
# The config launches Chromium through @bosted/stack/chromium (without the window's own web UI): that
# one file of the native stack, which imports only Playwright.
COPY infra/stack/src/chromium.ts infra/stack/src/
COPY tests/tsconfig.json tests/playwright.config.ts tests/
COPY tests/e2e/ tests/e2e/
WORKDIR /app/tests
# Results (HTML report, JSON, traces and screenshots of failures) go to /results, a host folder.
ENV HOME=/tmp E2E_RESULTS_DIR=/results
CMD ["npx", "playwright", "test"]
