import { chromiumLaunchOptions } from '@bosted/stack/chromium'
import { defineConfig, devices, type ReporterDescription } from '@playwright/test'

// Debian's Chromium without its window's own web UI (@bosted/stack/chromium): every test opens a new
// context, which is a new window, and each window's address bar popups cost about a second of CPU on
// two cores. The probe behind it runs once, when the runner loads this config; the workers, which load
// it again, find its answer in the environment they inherit. E2E_WINDOW_UI=1 keeps the window's UI,
// to compare.
const launchOptions = await chromiumLaunchOptions(
  [
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-gpu',
    '--no-sandbox',
    // A pilot's origin (E2E_TARGET=pilot): Chromium trusts exactly the pilot's generated key, by the
    // SHA-256 of its SubjectPublicKeyInfo (infra/docker/test-e2e-containers.ts reads it from the pilot).
    ...(process.env.E2E_TLS_SPKI ? [`--ignore-certificate-errors-spki-list=${process.env.E2E_TLS_SPKI}`] : []),
  ],
  { windowUi: process.env.E2E_WINDOW_UI === '1' },
)

// Natively, where results go under .data; in a container (infra/docker/test-e2e-containers.ts)
// E2E_RESULTS_DIR names a host folder, which gets the HTML report as well.
const resultsDir = process.env.E2E_RESULTS_DIR
const reporter: ReporterDescription[] = resultsDir
  ? [
      ['list'],
      ['json', { outputFile: `${resultsDir}/results.json` }],
      ['html', { outputFolder: `${resultsDir}/html`, open: 'never' }],
    ]
  : [['list'], ['json', { outputFile: '../.data/test-results/e2e.json' }]]

// The stack is started once by global-setup.ts on free ports; it hands the app URL to the workers
// through the environment, which is read here when each worker loads this config. With E2E_TARGET
// set, the target (the Compose stack, a pilot) and its URL come from the environment instead.
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter,
  outputDir: resultsDir ? `${resultsDir}/artifacts` : '../.data/test-results/e2e-artifacts',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'da-DK',
    timezoneId: 'Europe/Copenhagen',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The app shell's worker (ADR 0034) answers page loads and kept files itself, which page.route
    // would then not see: the journeys run without it, and app-shell.spec.ts with it.
    serviceWorkers: 'block',
  },
  projects: [
    // Every spec; the narrow header's own tests (@narrow) need a narrow screen.
    { name: 'desktop', grepInvert: /@narrow/, use: { ...devices['Desktop Chrome'], launchOptions } },
    // The shell journeys (@shell) again on the house's shared tablet and on a phone, both by touch;
    // a page's main journey tagged @tablet runs on the tablet as well.
    {
      name: 'tablet',
      grep: /@shell|@narrow|@tablet/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 768, height: 1024 }, hasTouch: true, launchOptions },
    },
    {
      name: 'phone',
      grep: /@shell|@narrow/,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
        launchOptions,
      },
    },
  ],
})
