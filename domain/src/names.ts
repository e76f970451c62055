// Names as shown, without zod: imported by pages whose bundle must stay small (the sign-in page).

/** The initials shown while a picture loads or when there is none: first letters of both names, upper case. */
export function initials(name: { firstName: string; lastName: string }): string {
  return `${name.firstName.charAt(0)}${name.lastName.charAt(0)}`.toUpperCase()
}

/**
 * A person's or staff member's name as shown everywhere: first and last name with one space, no stray
 * space when either is empty. Parts that are not strings (an unparsed document) count as empty.
 */
export function displayName(name: { firstName?: unknown; lastName?: unknown }): string {
  return [name.firstName, name.lastName]
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(' ')
    .trim()
}
