# Bosted — one command to run it (make start), one to test it (make test). `make` lists targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM_DEPS := node_modules/.package-lock.json
# The project's own Node (the version in .node-version, ADR 0016): fetched from the npm registry into
# .tools/node on first use and first on PATH for every target, so each process runs on it whatever
# Node the machine has; native addons build against its headers (no header download).
export PATH := $(CURDIR)/.tools/node/bin:$(PATH)
export npm_config_nodedir := $(CURDIR)/.tools/node

.PHONY: node-runtime help install start dev test test-unit test-integration test-parity parity test-e2e screenshots lint typecheck format seed migrate audit-verify bench clean up down logs test-containers check-docker pilot pilot-down pilot-admin pilot-logs pilot-audit-verify backup restore test-pilot test-e2e-containers

help: ## List the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

node-runtime:
	@infra/stack/scripts/ensure-node.sh >/dev/null

$(NPM_DEPS): package-lock.json node-runtime
	@infra/stack/scripts/ensure-deps.sh

install: node-runtime ## Install Node (.tools/node), npm dependencies (and nginx/chromium from apt when possible)
	@infra/stack/scripts/ensure-deps.sh browser

start: $(NPM_DEPS) ## Run the whole system natively: emulators, api, seed, web on http://127.0.0.1:8000
	@node --import tsx infra/stack/src/cli.ts

dev: $(NPM_DEPS) ## Same as start, with the Vite dev server (HMR) instead of the built bundle
	@node --import tsx infra/stack/src/cli.ts --dev

test: node-runtime ## Lint, typecheck, unit, integration, parity and end-to-end tests (installs what is missing first)
	@infra/stack/scripts/ensure-deps.sh browser
	@node infra/stack/scripts/test-all.mjs

test-unit: $(NPM_DEPS) ## Unit tests only (vitest: domain, api, seed, emulator-lite, stack, web)
	@node infra/stack/scripts/test-all.mjs unit

test-integration: $(NPM_DEPS) ## Integration tests only (real Auth emulator + emulator-lite)
	@node infra/stack/scripts/test-all.mjs integration

test-parity: $(NPM_DEPS) ## emulator-lite vs Google's Firestore emulator: access matrix + bounded differential
	@node infra/stack/scripts/test-all.mjs parity

parity: $(NPM_DEPS) ## The differential for longer: ARGS="--runs=N [--seed=S] [--verbose]"
	@node infra/emulator-lite/parity/run.mjs $(ARGS)

test-e2e: $(NPM_DEPS) ## End-to-end tests only (Playwright + Debian chromium against the native stack)
	@infra/stack/scripts/ensure-deps.sh browser
	@node infra/stack/scripts/test-all.mjs e2e

screenshots: $(NPM_DEPS) ## PNGs of every route at 390×844, 768×1024 and desktop in test-results/screenshots (native stack)
	@infra/stack/scripts/ensure-deps.sh browser
	@npm run --silent -w tests screenshots

lint: $(NPM_DEPS) ## Biome lint + format check (import cycles included), then the import boundaries (ADR 0026)
	@npx biome check --error-on-warnings .
	@node infra/stack/scripts/check-boundaries.ts

format: $(NPM_DEPS) ## Apply Biome fixes and formatting
	@npx biome check --write .

typecheck: $(NPM_DEPS) ## TypeScript (strict) over every workspace
	@npm run --silent typecheck

seed: $(NPM_DEPS) ## Seed the running native stack (idempotent; ARGS=--reset to wipe and reseed)
	@node --import tsx infra/stack/scripts/with-stack-env.ts seed/src/seed.ts $(ARGS)

migrate: $(NPM_DEPS) ## Run data migrations against the running native stack
	@node --import tsx infra/stack/scripts/with-stack-env.ts seed/src/migrate.ts

audit-verify: $(NPM_DEPS) ## Check the access log's hash chain and every client write's entry (native stack's .data; ARGS="--data DIR" for another)
	@node --import tsx infra/emulator-lite/src/audit/verify-cli.ts --access-classifier @bosted/domain/access-classifier $(ARGS)

bench: $(NPM_DEPS) ## Benchmarks: emulator-lite, api, seed, web bundle (prints figures)
	@node infra/stack/scripts/bench-all.mjs

clean: ## Remove build output, test results and local data (.data)
	rm -rf .data web/dist

up: $(NPM_DEPS) ## Compose (Docker, or podman here): build and start the whole system, print the URL when healthy
	@node infra/docker/compose.ts up

down: $(NPM_DEPS) ## Compose: stop (data volumes are kept; add ARGS=-v to remove them)
	@node infra/docker/compose.ts down $(ARGS)

logs: $(NPM_DEPS) ## Compose: follow the logs
	@node infra/docker/compose.ts logs

test-containers: $(NPM_DEPS) ## The Compose stack for real (podman here, installed when root): pilot checks + QA's smoke, then cleanup
	@infra/stack/scripts/ensure-deps.sh browser
	@node infra/docker/test-containers.ts $(ARGS)

test-e2e-containers: $(NPM_DEPS) ## QA's whole e2e suite in a container against the Compose stack, reports in test-results/e2e-containers (TARGET=pilot: through a fresh pilot's HTTPS origin, first admin and demo fixture made by the setup, reports in test-results/e2e-containers-pilot); ARGS="--project=desktop" etc. go to Playwright
	@node infra/docker/test-e2e-containers.ts $(if $(TARGET),--target=$(TARGET)) $(ARGS)

check-docker: $(NPM_DEPS) ## Static checks of docker-compose.yml and the Dockerfiles (no engine needed)
	@node infra/docker/check.ts

pilot: $(NPM_DEPS) ## A pilot on one HTTPS address (docker-compose.pilot.yml, docs/pilot.md): build, start, wait until healthy, print it
	@node infra/docker/pilot.ts up

pilot-down: $(NPM_DEPS) ## Stop the pilot (its data, certificate and backups stay)
	@node infra/docker/pilot.ts down

pilot-admin: $(NPM_DEPS) ## A pilot administrator: EMAIL=name@kommune.dk [FIRST_NAME=… LAST_NAME=…]; the password is printed once
	@node infra/docker/pilot.ts admin "$(EMAIL)" "$(FIRST_NAME)" "$(LAST_NAME)"

pilot-logs: $(NPM_DEPS) ## Follow the pilot's logs
	@node infra/docker/pilot.ts logs

pilot-audit-verify: $(NPM_DEPS) ## Check the pilot's access log (hash chain), inside the pilot
	@node infra/docker/pilot.ts audit-verify

backup: $(NPM_DEPS) ## An online backup of the running pilot, into ./backups/ (and the pilot's backups volume)
	@node infra/docker/pilot.ts backup

restore: $(NPM_DEPS) ## Restore the pilot from FILE=backups/bosted-backup-….tar.gz (checked first; the backend is stopped meanwhile)
	@node infra/docker/pilot.ts restore "$(FILE)"

test-pilot: $(NPM_DEPS) ## The pilot for real (podman here): TLS origin, edge refusals, backup/restore, restart; prints timings
	@node infra/docker/test-pilot.ts $(ARGS)
