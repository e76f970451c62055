// Debian's Chromium as the end-to-end suite (tests/playwright.config.ts), the benches (web/bench) and
// the other Chromium checks launch it through Playwright: by its path (Playwright never downloads a
// browser here) and without the browser window's own web UI, which is not the page's work.
// Only Playwright and Node's own modules are imported: the e2e runner's image (infra/docker/e2e.Dockerfile)
// copies this file and nothing else of the native stack.
import { type Browser, chromium, type LaunchOptions } from 'playwright'

/** Debian's Chromium (`make install` and the e2e runner's image put it there); CHROMIUM_PATH names another. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Chromium 156 draws its address bar's suggestion popups as web pages (chrome://omnibox-popup.top-chrome
 * and its AI-mode twin), and loads them for every new window, headless too: each browser context
 * started a renderer of its own that ran ~0.8 s of CPU and ~0.25 s more in the browser process, on a
 * two-core machine, beside the page under test. No test or bench uses the address bar.
 */
export const WINDOW_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']

const DISABLE_FEATURES = '--disable-features='

/**
 * Playwright's list as a process found it, for its child processes: Playwright's test runner loads
 * its config again in every worker (one per project at least, and a new one after each failure), and
 * the workers inherit the runner's environment, so the probe runs once per run rather than per worker.
 */
const INHERITED_FEATURES = 'CHROMIUM_PLAYWRIGHT_DISABLED_FEATURES'

let probe: Promise<string[]> | undefined

/**
 * Playwright's own `--disable-features` list. Playwright does not export it, and it changes between
 * its versions: a first launch reads it from the browser's command line (`Browser.getBrowserCommandLine`,
 * which answers only with `--enable-automation`; that launch does nothing else, ~0.4 s).
 */
function playwrightDisabledFeatures(): Promise<string[]> {
  const inherited = process.env[INHERITED_FEATURES]
  if (inherited !== undefined) return Promise.resolve(inherited.split(',').filter(Boolean))
  probe ??= (async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--enable-automation'],
    })
    try {
      const session = await browser.newBrowserCDPSession()
      const { arguments: args } = await session.send('Browser.getBrowserCommandLine')
      const features = featuresOf(args)
      process.env[INHERITED_FEATURES] = features.join(',')
      return features
    } finally {
      await browser.close()
    }
  })()
  return probe
}

/** The features of the last `--disable-features` switch in `args` (the only one Chromium honours). */
function featuresOf(args: readonly string[]): string[] {
  const found = args.findLast((arg) => arg.startsWith(DISABLE_FEATURES))
  return found === undefined ? [] : found.slice(DISABLE_FEATURES.length).split(',').filter(Boolean)
}

/**
 * `args` with one `--disable-features` switch: Playwright's own list, the caller's, and the window's
 * web UI. Chromium honours only the last `--disable-features` on its command line, so a second switch
 * after Playwright's would quietly turn Playwright's list back on.
 */
export async function withoutWindowUi(args: readonly string[]): Promise<string[]> {
  const features = new Set([...(await playwrightDisabledFeatures()), ...featuresOf(args), ...WINDOW_UI_FEATURES])
  return [...args.filter((arg) => !arg.startsWith(DISABLE_FEATURES)), `${DISABLE_FEATURES}${[...features].join(',')}`]
}

type ChromiumLaunchOptions = LaunchOptions & { executablePath: string; args: string[] }

/**
 * Playwright's launch options for Debian's Chromium with `args`, the window's web UI switched off
 * (`windowUi: true` keeps it, to compare; the benches' figures before 2026-11-28 were taken with it).
 * Playwright's own `--disable-features` is left out of its default arguments, as ours carries its
 * list: the command line then says what Chromium does. Were it still there (Playwright changed how it
 * writes it), ours comes after it and is the one Chromium honours all the same.
 */
export async function chromiumLaunchOptions(
  args: readonly string[],
  { windowUi = false }: { windowUi?: boolean } = {},
): Promise<ChromiumLaunchOptions> {
  if (windowUi) return { executablePath: CHROMIUM_PATH, args: [...args] }
  const playwrightSwitch = `${DISABLE_FEATURES}${(await playwrightDisabledFeatures()).join(',')}`
  return { executablePath: CHROMIUM_PATH, args: await withoutWindowUi(args), ignoreDefaultArgs: [playwrightSwitch] }
}

/** Launches Debian's Chromium as `chromiumLaunchOptions` describes it. */
export async function launchChromium(args: readonly string[], options: { windowUi?: boolean } = {}): Promise<Browser> {
  return chromium.launch(await chromiumLaunchOptions(args, options))
}
