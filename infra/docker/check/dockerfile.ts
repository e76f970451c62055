// A small Dockerfile linter for the rules this project holds its images to (hadolint is not
// available on the project's machines): pinned base images, multi-stage builds, a non-root USER in
// every image that runs, no ADD of URLs, exec-form CMD/ENTRYPOINT/HEALTHCHECK, `npm ci` rather than
// `npm install`, and COPY sources that exist in the build context and are not excluded from it.

export type Instruction = { line: number; keyword: string; args: string }
export type Stage = { name: string; base: string; line: number; instructions: Instruction[] }

/** Instructions with their line numbers; continuation lines joined, comments and blank lines dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = []
  let pending: { line: number; text: string } | null = null
  text.split('\n').forEach((raw, index) => {
    const line = raw.trimEnd()
    if (pending === null && (line.trim() === '' || line.trimStart().startsWith('#'))) return
    if (pending !== null && line.trimStart().startsWith('#')) return
    const continued = line.endsWith('\\')
    const body = continued ? line.slice(0, -1) : line
    if (pending === null) pending = { line: index + 1, text: body.trim() }
    else pending.text += ` ${body.trim()}`
    if (!continued) {
      const [keyword = '', ...rest] = pending.text.split(/\s+/)
      instructions.push({ line: pending.line, keyword: keyword.toUpperCase(), args: rest.join(' ') })
      pending = null
    }
  })
  return instructions
}

/** The stages: name, base (ARG defaults substituted), and the instructions that belong to each. */
export function stagesOf(instructions: Instruction[]): Stage[] {
  const args: Record<string, string> = {}
  const stages: Stage[] = []
  for (const instruction of instructions) {
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name, value] = instruction.args.split('=')
      if (name && value !== undefined) args[name.trim()] = value.trim()
      continue
    }
    if (instruction.keyword === 'FROM') {
      const words = instruction.args.split(/\s+/).filter((word) => !word.startsWith('--'))
      const base = (words[0] ?? '').replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => args[name] ?? '')
      const asIndex = words.findIndex((word) => word.toUpperCase() === 'AS')
      stages.push({
        name: asIndex >= 0 ? (words[asIndex + 1] ?? '') : String(stages.length),
        base,
        line: instruction.line,
        instructions: [],
      })
      continue
    }
    stages.at(-1)?.instructions.push(instruction)
  }
  return stages
}

const isPinned = (image: string) => {
  if (image.includes('@sha256:')) return true
  const slash = image.lastIndexOf('/')
  const colon = image.indexOf(':', slash + 1)
  if (colon < 0) return false
  const tag = image.slice(colon + 1)
  return tag !== 'latest' && /\d/.test(tag) && !/^(lts|current|stable|mainline)(-|$)/.test(tag)
}

const isExecForm = (args: string) => {
  try {
    const parsed = JSON.parse(args)
    return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string')
  } catch {
    return false
  }
}

/** Walks `FROM <stage>` links up to the first stage, nearest first. */
function lineage(stages: Stage[], stage: Stage): Stage[] {
  const chain = [stage]
  let current = stage
  for (;;) {
    const parent = stages.find((candidate) => candidate.name === current.base && candidate !== current)
    if (!parent || chain.includes(parent)) return chain
    chain.push(parent)
    current = parent
  }
}

/** The last USER the stage runs as (inherited through `FROM <stage>`), or null when none is set. */
export function effectiveUser(stages: Stage[], stage: Stage): string | null {
  for (const link of lineage(stages, stage)) {
    const users = link.instructions.filter((instruction) => instruction.keyword === 'USER')
    if (users.length > 0) return (users.at(-1)?.args ?? '').trim()
  }
  return null
}

export function hasHealthcheck(stages: Stage[], stage: Stage): boolean {
  return lineage(stages, stage).some((link) =>
    link.instructions.some(
      (instruction) => instruction.keyword === 'HEALTHCHECK' && !/^NONE\b/i.test(instruction.args),
    ),
  )
}

/**
 * The problems of a Dockerfile (`text`), each `line N: …`. `context.targets`: the stages Compose builds
 * (the last stage when empty).
 */
export function lintDockerfile(
  text: string,
  context: { targets: string[]; sourceExists: (path: string) => boolean; isIgnored: (path: string) => boolean },
): string[] {
  const problems: string[] = []
  const instructions = parseDockerfile(text)
  const stages = stagesOf(instructions)
  if (stages.length < 2) problems.push('not a multi-stage build (build tools must stay out of the runtime image)')
  const stageNames = new Set(stages.map((stage) => stage.name))
  for (const stage of stages) {
    if (stageNames.has(stage.base)) continue
    if (!isPinned(stage.base)) {
      problems.push(
        `line ${stage.line}: base image ${stage.base || '(empty)'} is not pinned to a version tag or digest`,
      )
    }
  }
  for (const instruction of instructions) {
    const at = `line ${instruction.line}:`
    if (instruction.keyword === 'ADD') {
      if (/\bhttps?:\/\//.test(instruction.args) || /\bgit@/.test(instruction.args)) {
        problems.push(`${at} ADD of a remote source (download in a RUN step with a checksum, or COPY)`)
      } else problems.push(`${at} ADD where COPY is meant`)
    }
    if ((instruction.keyword === 'CMD' || instruction.keyword === 'ENTRYPOINT') && !isExecForm(instruction.args)) {
      problems.push(`${at} ${instruction.keyword} in shell form (signals would not reach the process)`)
    }
    if (instruction.keyword === 'HEALTHCHECK' && !/^NONE\b/i.test(instruction.args)) {
      const command = instruction.args.replace(/^(--[a-z-]+=\S+\s+)*/i, '')
      if (!/^CMD\s+\[/.test(command) || !isExecForm(command.replace(/^CMD\s+/, ''))) {
        problems.push(`${at} HEALTHCHECK without an exec-form CMD`)
      }
    }
    if (instruction.keyword === 'RUN') {
      if (/\bnpm (install|i)\b/.test(instruction.args) && !/\bnpm install -g\b/.test(instruction.args)) {
        problems.push(`${at} npm install (use npm ci, so the lock file decides the versions)`)
      }
      if (/\bsudo\b/.test(instruction.args)) problems.push(`${at} sudo in a RUN step`)
      if (/\bapt-get install\b/.test(instruction.args) && !/--no-install-recommends/.test(instruction.args)) {
        problems.push(`${at} apt-get install without --no-install-recommends`)
      }
      if (/\b(curl|wget)\b[^|]*\|\s*(ba)?sh\b/.test(instruction.args))
        problems.push(`${at} pipes a download into a shell`)
    }
    if (instruction.keyword === 'COPY' && !/--from=/.test(instruction.args)) {
      const words = instruction.args.split(/\s+/).filter((word) => !word.startsWith('--'))
      for (const source of words.slice(0, -1)) {
        const path = source.replace(/\/$/, '')
        if (!context.sourceExists(path))
          problems.push(`${at} COPY source ${source} does not exist in the build context`)
        else if (context.isIgnored(path)) problems.push(`${at} COPY source ${source} is excluded by .dockerignore`)
      }
    }
  }
  const finals = context.targets.length > 0 ? context.targets : [stages.at(-1)?.name ?? '']
  for (const target of finals) {
    const stage = stages.find((candidate) => candidate.name === target)
    if (!stage) {
      problems.push(`target ${target} is not a stage of this Dockerfile`)
      continue
    }
    const user = effectiveUser(stages, stage)
    if (user === null) problems.push(`target ${target}: runs as root (no USER)`)
    else if (/^(root|0)(:|$)/.test(user)) problems.push(`target ${target}: USER ${user} is root`)
  }
  return problems
}
