/** What every step reports: one progress line with counts and time. */
export type StepResult = { name: string; total: number; written: number; unchanged: number; ms: number }

export function formatStep(result: StepResult, unit: string, verb = 'written'): string {
  const counts = `${result.written} ${verb}, ${result.unchanged} unchanged`
  return `seed: ${result.name.padEnd(13)} ${String(result.total).padStart(5)} ${unit.padEnd(5)} (${counts}) in ${result.ms} ms`
}
