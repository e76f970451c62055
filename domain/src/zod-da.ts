import * as z from 'zod/mini'
import { formatNumber } from './danish-format.ts'
import { da } from './messages/da.ts'

type Issue = z.core.$ZodRawIssue

const isEmpty = (value: unknown) => value === undefined || value === null || value === ''

/**
 * The whole app's zod messages in Danish (issue 32): every way a field can be wrong says what to
 * fix, in words a care worker reads. A schema's own message (`.min(1, 'Fornavn er påkrævet')`)
 * still wins; this map speaks for every check that has none, so zod's English ("Invalid input:
 * expected string, received null") never reaches a screen.
 */
export function danishZodError(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (isEmpty(issue.input)) return da.validation.required
      if (issue.expected === 'int' && typeof issue.input === 'number') return da.validation.wholeNumber
      if (issue.expected === 'number' || issue.expected === 'int') return da.form.answerValueNumber
      return da.validation.invalid
    case 'too_small': {
      const minimum = Number(issue.minimum)
      if (issue.origin === 'string') return minimum <= 1 ? da.validation.required : da.validation.tooShort(minimum)
      if (issue.origin === 'array' || issue.origin === 'set') return da.validation.tooFew(minimum)
      return da.validation.numberTooSmall(formatNumber(minimum, 20))
    }
    case 'too_big': {
      const maximum = Number(issue.maximum)
      if (issue.origin === 'string') return da.validation.tooLong(maximum)
      if (issue.origin === 'array' || issue.origin === 'set') return da.validation.tooMany(maximum)
      return da.validation.numberTooBig(formatNumber(maximum, 20))
    }
    case 'invalid_format':
      return issue.format === 'email' ? da.validation.emailInvalid : da.validation.invalidFormat
    case 'invalid_value':
    case 'invalid_union':
      return isEmpty(issue.input) ? da.validation.choose : da.validation.invalid
    case 'not_multiple_of':
      return Number(issue.divisor) === 1 ? da.validation.wholeNumber : da.validation.invalid
    default:
      return da.validation.invalid
  }
}

/** Makes `danishZodError` zod's message for every schema of this process (web and api call it at start). */
export function installDanishZodErrors(): void {
  z.config({ customError: danishZodError })
}
