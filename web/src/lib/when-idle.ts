/**
 * Runs `task` once the browser has nothing more urgent to do (at the latest after `timeoutMs`), or in
 * the next task where there is no idle callback (Safari). Returns what cancels it.
 */
export function whenIdle(task: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(task, 0)
    return () => clearTimeout(timer)
  }
  const handle = requestIdleCallback(task, { timeout: timeoutMs })
  return () => cancelIdleCallback(handle)
}
