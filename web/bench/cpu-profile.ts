/** A CPU profile as the DevTools protocol's `Profiler.stop` gives it (the fields read here). */
export type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[]
  samples?: number[]
  timeDeltas?: number[]
}

/**
 * Self time in ms by where it was spent, largest first: a script (its file name, e.g. the build's
 * `app-….js`), the browser's own work on the thread ("(program)"), "(idle)", "(garbage collector)", or
 * a browser API called from a script (its name, e.g. `fetch`). A sample's time is the delta to the next.
 */
export function selfTimeByScript(profile: CpuProfile): [string, number][] {
  const where = new Map(
    profile.nodes.map((node) => {
      const { url, functionName } = node.callFrame
      return [node.id, url === '' ? functionName || '(anonymous)' : (url.split('/').pop() ?? url)] as const
    }),
  )
  const totals = new Map<string, number>()
  const deltas = profile.timeDeltas ?? []
  for (const [index, id] of (profile.samples ?? []).entries()) {
    const key = where.get(id) ?? '(unknown)'
    totals.set(key, (totals.get(key) ?? 0) + (deltas[index + 1] ?? 0) / 1000)
  }
  return [...totals].sort((a, b) => b[1] - a[1])
}
