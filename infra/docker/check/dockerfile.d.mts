// Types of dockerfile.mjs for the TypeScript tests.
export type Instruction = { line: number; keyword: string; args: string }
export type Stage = { name: string; base: string; line: number; instructions: Instruction[] }
export declare function parseDockerfile(text: string): Instruction[]
export declare function stagesOf(instructions: Instruction[]): Stage[]
export declare function effectiveUser(stages: Stage[], stage: Stage): string | null
export declare function hasHealthcheck(stages: Stage[], stage: Stage): boolean
export declare function lintDockerfile(
  text: string,
  context: { targets: string[]; sourceExists: (path: string) => boolean; isIgnored: (path: string) => boolean },
): string[]
