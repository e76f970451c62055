// The benches' Chromium (Debian's, through Playwright): launched without the browser window's own
// web UI (@bosted/stack/chromium, as the end-to-end suite), so that what a bench times is the page and
// not the window it opens in.
import { launchChromium } from '@bosted/stack/chromium'
import type { Browser } from '@playwright/test'

/**
 * Launches the benches' Chromium with `args`, the window's own web UI switched off (BENCH_WINDOW_UI=1
 * keeps it, to compare with runs before 2026-11-28).
 */
export function launchBenchChromium(args: string[]): Promise<Browser> {
  return launchChromium(args, { windowUi: process.env.BENCH_WINDOW_UI === '1' })
}
