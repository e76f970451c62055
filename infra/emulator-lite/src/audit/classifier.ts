import { isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AccessClassifier } from '@bosted/domain/access-classifier'
import { NO_PERSON_DATA } from './recorder.ts'

/**
 * The access log's classifier from a module (`--access-classifier`): a package specifier
 * (`@bosted/domain/access-classifier`) or a file, relative to the working directory. Its default
 * export, or its `accessClassifier` export, says which paths are whose data. None: nothing is.
 */
export async function loadAccessClassifier(specifier: string | undefined): Promise<AccessClassifier> {
  if (specifier === undefined || specifier.trim() === '') return NO_PERSON_DATA
  const target = specifier.startsWith('.') || isAbsolute(specifier) ? pathToFileURL(resolve(specifier)).href : specifier
  const module = (await import(target)) as { default?: unknown; accessClassifier?: unknown }
  const candidate = module.default ?? module.accessClassifier
  if (!isClassifier(candidate))
    throw new Error(
      `--access-classifier ${specifier}: the module exports no classifier (default or accessClassifier: { document, object, prefixes })`,
    )
  return candidate
}

function isClassifier(value: unknown): value is AccessClassifier {
  if (typeof value !== 'object' || value === null) return false
  const { document, object, prefixes } = value as Record<string, unknown>
  return (
    typeof document === 'function' &&
    typeof object === 'function' &&
    Array.isArray(prefixes) &&
    prefixes.every((prefix) => typeof prefix === 'string')
  )
}
