// Types of compose.mjs for the TypeScript tests.
export type ComposeService = {
  [key: string]: unknown
  build?: { context?: string; dockerfile?: string; target?: string }
  restart?: string
  healthcheck?: { test?: string[]; disable?: boolean; [key: string]: unknown }
  ports?: unknown[]
  volumes?: unknown[]
}
export type ComposeModel = {
  [key: string]: unknown
  services?: Record<string, ComposeService>
  volumes?: Record<string, unknown>
}
export declare const SCHEMA_PATH: string
export declare function parseComposeYaml(text: string): ComposeModel
export declare function referencedVariables(text: string): Map<string, Set<string>>
export declare function interpolate<T>(value: T, env: Record<string, string | undefined>): T
export declare function mergeCompose(base: ComposeModel, override: ComposeModel): ComposeModel
export declare function schemaErrors(document: unknown): string[]
export declare function composeInvariants(
  model: ComposeModel,
  images: { imageHealthcheck: (service: ComposeService) => boolean },
): string[]
export declare function parseEnvFile(text: string): { values: Record<string, string>; commented: Set<string> }
