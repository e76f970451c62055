// .dockerignore matching as Docker (BuildKit) does it: patterns are paths relative to the context
// root with `*`, `?` and `**`, a leading `!` re-includes, the last matching line wins, and a pattern
// that matches a directory excludes everything below it.

function toRegExp(pattern: string): RegExp {
  let source = ''
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? ''
    if (char === '*' && pattern[index + 1] === '*') {
      // `**/` matches any number of directories, including none.
      if (pattern[index + 2] === '/') {
        source += '(?:.*/)?'
        index += 2
      } else {
        source += '.*'
        index += 1
      }
    } else if (char === '*') source += '[^/]*'
    else if (char === '?') source += '[^/]'
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

/** `text`: the .dockerignore file. */
export function dockerignoreMatcher(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!')
      const pattern = (negated ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '')
      return { negated, regexp: toRegExp(pattern) }
    })
  /** Whether a context-relative path (a file or a directory) is excluded from the build context. */
  return function isIgnored(path: string): boolean {
    const parts = path.replace(/^\.\//, '').split('/')
    const prefixes = parts.map((_, index) => parts.slice(0, index + 1).join('/'))
    let ignored = false
    for (const rule of rules) {
      if (prefixes.some((prefix) => rule.regexp.test(prefix))) ignored = !rule.negated
    }
    return ignored
  }
}
