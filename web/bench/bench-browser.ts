// The benches' Chromium (Debian's, through Playwright): launched without the browser window's own
// web UI, so that what a bench times is the page and not the window it opens in.
import { type Browser, chromium } from '@playwright/test'

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Chromium 156 draws its address bar's suggestion popups as web pages (chrome://omnibox-popup.top-chrome
 * and its AI-mode twin), and loads them for every new window, headless too: each browser context the
 * benches open for a cold run started a renderer of its own that ran ~0.8 s of CPU (unthrottled:
 * DevTools' CPU throttling slows the page's renderer only) and ~0.25 s more in the browser process,
 * while the page under measurement loaded beside it on the same two cores. A tablet's browser has its
 * window open before the app is; its address bar is not the page's work.
 */
const WINDOW_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']

/**
 * Playwright's own `--disable-features` list. Chromium keeps only the last `--disable-features` on its
 * command line, so a bench's features are added to that list, not given as a second switch (which
 * would quietly turn Playwright's back on). Playwright does not export the list: a first launch reads
 * it from the browser's command line (`Browser.getBrowserCommandLine`, which answers only with
 * `--enable-automation`; that launch does nothing else).
 */
async function playwrightDisabledFeatures(): Promise<string[]> {
  const probe = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--enable-automation'] })
  try {
    const session = await probe.newBrowserCDPSession()
    const { arguments: args } = await session.send('Browser.getBrowserCommandLine')
    const prefix = '--disable-features='
    const found = args.findLast((arg) => arg.startsWith(prefix))
    return found === undefined ? [] : found.slice(prefix.length).split(',').filter(Boolean)
  } finally {
    await probe.close()
  }
}

/**
 * Launches the benches' Chromium with `args`, the window's own web UI switched off (BENCH_WINDOW_UI=1
 * keeps it, to compare with runs before 2026-11-28).
 */
export async function launchBenchChromium(args: string[]): Promise<Browser> {
  if (process.env.BENCH_WINDOW_UI === '1') return chromium.launch({ executablePath: CHROMIUM_PATH, args })
  const disabled = [...new Set([...(await playwrightDisabledFeatures()), ...WINDOW_UI_FEATURES])]
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...args, `--disable-features=${disabled.join(',')}`] })
}
