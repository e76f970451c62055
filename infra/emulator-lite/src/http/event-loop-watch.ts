const TICK_MS = 250

/**
 * Logs when the process did not run for `thresholdMs` or more (the event loop blocked, or the
 * process starved of CPU): a slow answer then names its cause in the log. Returns a stop function.
 */
export function watchEventLoop(name: string, thresholdMs = 1_000, log = console.warn): () => void {
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    const late = now - last - TICK_MS
    if (late >= thresholdMs)
      log(`${name}: nothing ran for ${Math.round(late)} ms (the event loop was blocked or starved)`)
    last = now
  }, TICK_MS)
  timer.unref()
  return () => clearInterval(timer)
}
