// The images' Node against the project's pin (.node-version, ADR 0016): every `node:<tag>` base image
// named in a Dockerfile, a Compose file or .env.example must carry the pinned major in its tag.

/**
 * One line per image reference on another major than `major` (or on a tag with no version).
 */
export function nodeImageProblems(files: { file: string; text: string }[], major: number): string[] {
  const problems: string[] = []
  for (const { file, text } of files) {
    text.split('\n').forEach((line, index) => {
      for (const match of line.matchAll(/(?<=(?:FROM\s+|=|:-|image:\s*))node:([\w.-]+)/g)) {
        const tag = match[1] ?? ''
        const tagMajor = /^(\d+)(?:[.-]|$)/.exec(tag)?.[1]
        if (tagMajor !== String(major)) {
          problems.push(`${file}:${index + 1}: node:${tag} is not Node ${major} (.node-version)`)
        }
      }
    })
  }
  return problems
}
