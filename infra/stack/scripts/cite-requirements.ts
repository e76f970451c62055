// Rewrites the citations of documents that live outside the repository ("SPEC §4", "wire reference §7",
// "shared/reference/identity.md §9.7", DESIGN) into citations of the repository's own documents: a
// requirement id of docs/requirements.md (REQ-SESSION-3) or a section of docs/wire/*.md
// (docs/wire/auth.md#revocation).
//
//   node infra/stack/scripts/cite-requirements.ts [--dry-run] [root]   rewrite in place (default root: the repo)
//   node infra/stack/scripts/cite-requirements.ts --check [root]        list leftover citations, exit 1 if any
//
// Each rewrite is decided by, in order: an exact text (for the few citations that span lines or need
// other words), a line rule (a phrase of the cited sentence, which survives the code moving to another
// file) naming the precise requirement, and last the section's default area, reported as a fallback so
// it can be made precise. Wire citations that do not name their document ("wire reference §7", a bare
// "(§1.2)") take it from the file's folder.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

type SourceDoc = 'auth-wire' | 'firebase-wire' | 'identity' | 'rules-language' | 'firestore-streams'

/** The area of docs/requirements.md that each section of the original specification became. */
export const SPEC_AREAS: Record<string, string> = {
  '1': 'REQ-PRODUCT',
  '2': 'REQ-ROUTE',
  '3': 'REQ-MODEL',
  '4': 'REQ-SESSION',
  '5': 'REQ-VALID',
  '6': 'REQ-ROLE',
  '7': 'REQ-CALL',
  '8': 'REQ-MSG',
  '9': 'REQ-CONST',
}

const ENTITIES = 'REQ-PERSON, REQ-LOCATION and REQ-USER'

/** A phrase of the citing sentence → the requirement each cited section means there. */
export const LINE_RULES: ReadonlyArray<{ phrase: string; spec: Record<string, string> }> = [
  { phrase: 'so every default of SPEC §3 is', spec: { '3': ENTITIES } },
  { phrase: 'yields every default of SPEC §3', spec: { '3': 'REQ-PERSON' } },
  { phrase: 'SPEC §3 is present). Pure', spec: { '3': ENTITIES } },
  { phrase: 'every field and default of SPEC §3', spec: { '3': ENTITIES } },
  { phrase: "a location's answers get a missing entity", spec: { '3': 'REQ-LOCATION-4' } },
  { phrase: '2000 ms after the last touch ended', spec: { '9': 'REQ-CONST-5' } },
  { phrase: 'Toasts sit top-center', spec: { '9': 'REQ-CONST-5' } },
  { phrase: 'Asks before leaving a form', spec: { '2': 'REQ-LEAVE-1' } },
  { phrase: 'wired to the real world', spec: { '4': 'REQ-SESSION' } },
  { phrase: 'validates at app start', spec: { '4': 'REQ-SESSION-3' } },
  { phrase: 'the authentication check stops', spec: { '4': 'REQ-SESSION-6' } },
  { phrase: 'Whenever the active user becomes empty', spec: { '4': 'REQ-SESSION-5' } },
  { phrase: "'fade-slide' page transition", spec: { '9': 'REQ-CONST-7' } },
  { phrase: 'as soon as it becomes visible', spec: { '9': 'REQ-CONST-7' } },
  { phrase: 'scrolled more than 48 px', spec: { '9': 'REQ-HEADER-3' } },
  { phrase: 'The sticky top bar of', spec: { '2': 'REQ-HEADER-1' } },
  { phrase: "SPEC §7's update", spec: { '7': 'REQ-DATA-4' } },
  { phrase: "SPEC §7's person update", spec: { '7': 'REQ-DATA-4' } },
  { phrase: '"updating a location"', spec: { '7': 'REQ-DATA-4' } },
  { phrase: '"adding a location"', spec: { '7': 'REQ-DATA-3' } },
  { phrase: 'dates as ISO strings (SPEC §7)', spec: { '7': 'REQ-DATA-3' } },
  { phrase: "'Page Not Found: {path}' (SPEC §2)", spec: { '2': 'REQ-ERROR-1' } },
  { phrase: 'no header and no vertical padding', spec: { '2': 'REQ-ROUTE-4' } },
  { phrase: 'several path segments', spec: { '2': 'REQ-ROUTE-14' } },
  { phrase: 'The routes of SPEC §2', spec: { '2': 'REQ-ROUTE' } },
  { phrase: 'one per route of SPEC §2', spec: { '2': 'REQ-ROUTE' } },
  { phrase: 'switches to the first remaining one', spec: { '4': 'REQ-ACTIVE-3' } },
  { phrase: 'the active location includes its logo', spec: { '3': 'REQ-MODEL-3' } },
  { phrase: 'still among the locations, else the first one', spec: { '4': 'REQ-ACTIVE-2' } },
  { phrase: 'clears the active location too', spec: { '4': 'REQ-SESSION-1' } },
  { phrase: 'array, SPEC §4)', spec: { '4': 'REQ-ACTIVE-4' } },
  { phrase: 'daily reminder time', spec: { '8': 'REQ-MSG-6' } },
  { phrase: 'The active user (SPEC §3)', spec: { '3': 'REQ-MODEL-2' } },
  { phrase: 'The active user as the app sees it', spec: { '3': 'REQ-MODEL-2' } },
  { phrase: '"with an active user"', spec: { '4': 'REQ-SESSION-2' } },
  { phrase: 'says a valid session loads the user', spec: { '4': 'REQ-SESSION-3' } },
  { phrase: 'the stored user must go too', spec: { '4': 'REQ-SESSION-1' } },
  { phrase: 'the stored user is kept', spec: { '4': 'REQ-SESSION-2' } },
  { phrase: 'only warns (SPEC §7)', spec: { '7': 'REQ-CALL-4' } },
  { phrase: 'for a user document without a name', spec: { '3': 'REQ-USER-1' } },
  { phrase: "into the location's persons (SPEC §7)", spec: { '7': 'REQ-DATA-2' } },
  { phrase: "'Auth-oprettelse", spec: { '8': 'REQ-MSG-3' } },
  { phrase: 'POST /api/user/create (SPEC §7)', spec: { '7': 'REQ-CALL-5' } },
  { phrase: 'users/{uid} as SPEC §3 has it', spec: { '3': 'REQ-USER' } },
  { phrase: 'The same toasts as for a person', spec: { '8': 'REQ-MSG-2' } },
  { phrase: 'The person document of SPEC §3', spec: { '3': 'REQ-PERSON' } },
  { phrase: 'Adding a person (SPEC §7)', spec: { '7': 'REQ-DATA-2' } },
  { phrase: 'the caller shows the toasts of SPEC §8', spec: { '8': 'REQ-MSG-2' } },
  { phrase: "toasts for adding a person: the create call's failure", spec: { '8': 'REQ-MSG-2' } },
  { phrase: "the general step's rules are the domain's", spec: { '5': 'REQ-VALID' } },
  { phrase: "SPEC §8: 'Opdaterer borger'", spec: { '8': 'REQ-MSG-1' } },
  { phrase: "blank name as SPEC §3's default", spec: { '3': 'REQ-PERSON-2' } },
  { phrase: "SPEC §3's defaults for a person's names", spec: { '3': 'REQ-PERSON-2' } },
  { phrase: "SPEC §3's default 'Angivet'", spec: { '3': 'REQ-PERSON-2' } },
  { phrase: "SPEC §3's 'Angivet'", spec: { '3': 'REQ-PERSON-2' } },
  { phrase: 'SPEC §4: no or invalid session', spec: { '4': 'REQ-SESSION-1' } },
  { phrase: 'the app-start branch of SPEC §4', spec: { '4': 'REQ-SESSION' } },
  { phrase: 'A promise-style toast (SPEC §4)', spec: { '4': 'REQ-FLOW-1' } },
  { phrase: 'the Firebase web config must carry', spec: { '5': 'REQ-CONFIG-1' } },
  { phrase: 'no cloud service is set up then', spec: { '4': 'REQ-SESSION-7' } },
  { phrase: 'Superusers add person ids (SPEC §7)', spec: { '7': 'REQ-DATA-1' } },
  { phrase: "SPEC §7's array-union", spec: { '7': 'REQ-DATA-1' } },
  { phrase: 'SPEC §7 compound actions', spec: { '7': 'REQ-DATA-2' } },
  { phrase: "SPEC §7's compound action", spec: { '7': 'REQ-DATA-2' } },
  { phrase: '(SPEC §4: a valid session loads the', spec: { '4': 'REQ-SESSION-3' } },
  { phrase: 'session and userId cookies loads the user', spec: { '4': 'REQ-SESSION-3' } },
  { phrase: 'Firestore and Storage directly (SPEC §7)', spec: { '7': 'REQ-DATA-1' } },
  { phrase: "SPEC §3 gives a location's", spec: { '3': 'REQ-LOCATION-2' } },
  { phrase: '(SPEC §5) says "at least 6 characters"', spec: { '5': 'REQ-VALID-3' } },
  { phrase: 'SPEC §5: at least 6 characters', spec: { '5': 'REQ-VALID-3' } },
  { phrase: 'Cookie names read by the web', spec: { '3': 'REQ-MODEL-4' } },
  { phrase: "'Required fields present' (SPEC §5)", spec: { '5': 'REQ-VALID-5' } },
  { phrase: 'The person creation draft (SPEC §3, §5)', spec: { '3': 'REQ-MODEL-1', '5': 'REQ-VALID-4' } },
  { phrase: 'Business constants and timings', spec: { '9': 'REQ-CONST' } },
  { phrase: 'The name of a user document that has none', spec: { '3': 'REQ-USER-1' } },
  { phrase: "The user creation draft's validated part", spec: { '5': 'REQ-VALID' } },
]

/** Texts rewritten as a whole: citations spanning lines, or needing other words than an id. */
export const EXACT: ReadonlyArray<readonly [string, string]> = [
  [
    'The session state machine of SPEC §4 with the timings of §9.',
    'The session state machine of REQ-SESSION with the timings of REQ-CONST-1.',
  ],
  ['attempts (identity.md\n * §7.1);', 'attempts\n * (docs/wire/identity.md#abuse-controls);'],
  ['(§9 is the design\nfollowed here)', '(its "Design" section is the design\nfollowed here)'],
  ['(SPEC §7, DESIGN "Sessions and the api")', '(REQ-CALL; the routes themselves: api/README.md)'],
  ['(DESIGN: notifications)', '(ADR 0024)'],
  ['DESIGN.md keeps answer options', 'The design keeps answer options'],
  ['`docs/auth-wire-notes.md`', '`docs/wire/auth.md#observed-beyond-the-captures`'],
]

/** docs/wire page + anchor for each cited section of each original wire document. */
export const WIRE_SECTIONS: Record<SourceDoc, { page: string; sections: Record<string, string> }> = {
  'auth-wire': {
    page: 'docs/wire/auth.md',
    sections: {
      '0': 'docs/wire/auth.md',
      '1': 'docs/wire/auth.md#url-scheme',
      '1.1': 'docs/wire/auth.md#url-scheme',
      '1.2': 'docs/wire/auth.md#callers-api-key-or-owner',
      '1.3': 'docs/wire/auth.md#request-bodies',
      '1.4': 'docs/wire/auth.md#request-bodies',
      '1.5': 'docs/wire/auth.md#request-bodies',
      '2': 'docs/wire/auth.md#error-envelope',
      '3': 'docs/wire/auth.md#web-sdk-operations',
      '4': 'docs/wire/auth.md#admin-operations',
      '4.7': 'docs/wire/auth.md#custom-tokens-from-admin',
      '5': 'docs/wire/auth.md#user-record',
      '6': 'docs/wire/auth.md#tokens',
      '6.1': 'docs/wire/auth.md#id-token',
      '6.2': 'docs/wire/auth.md#refresh-token',
      '7': 'docs/wire/auth.md#revocation',
      '8': 'docs/wire/auth.md#emulator-only-endpoints',
      '9': 'docs/wire/auth.md#cors',
      '10': 'docs/wire/auth.md',
      '11': 'docs/wire/auth.md',
    },
  },
  'firebase-wire': {
    page: 'docs/wire/README.md',
    sections: {
      '1': 'docs/wire/firestore-rest.md',
      '1.1': 'docs/wire/firestore-rest.md#lite-transport',
      '1.2': 'docs/wire/firestore-rest.md#operations',
      '1.3': 'docs/wire/firestore-rest.md#operations',
      '1.4': 'docs/wire/firestore-rest.md#queries',
      '1.5': 'docs/wire/firestore-rest.md#operations',
      '1.6': 'docs/wire/firestore-rest.md#values',
      '1.7': 'docs/wire/firestore-rest.md#writes',
      '1.8': 'docs/wire/firestore-rest.md#transactions',
      '1.9': 'docs/wire/firestore-rest.md#errors',
      '1.10': 'docs/wire/firestore-rest.md#authorization-values',
      '2': 'docs/wire/firestore-rest.md#firebase-admin-set-up',
      '2.4': 'docs/wire/firestore-rest.md#transactions',
      '2.5': 'docs/wire/firestore-rest.md#transactions',
      '2.6': 'docs/wire/firestore-rest.md#admin-responses-and-retries',
      '3': 'docs/wire/firestore-rest.md#emulator-only-endpoints',
      '4': 'docs/wire/storage.md',
      '4.1': 'docs/wire/storage.md#web-sdk-transport',
      '4.2': 'docs/wire/storage.md#web-sdk-operations',
      '4.3': 'docs/wire/storage.md#metadata',
      '4.4': 'docs/wire/storage.md#web-sdk-errors',
      '5': 'docs/wire/storage.md#firebase-admin-storage',
      '5.3': 'docs/wire/storage.md#integrity-checks',
      '6': 'docs/wire/auth.md#tokens',
      '7': 'docs/wire/README.md',
      '8': 'docs/wire/README.md',
    },
  },
  identity: {
    page: 'docs/wire/identity.md',
    sections: {
      '1': 'docs/wire/identity.md#production-id-tokens',
      '2': 'docs/wire/identity.md#session-cookies',
      '3': 'docs/wire/identity.md#how-firebase-admin-verifies',
      '3.3': 'docs/wire/identity.md#observed-verification-decisions',
      '3.4': 'docs/wire/identity.md#firebase-admin-in-emulator-mode',
      '4': 'docs/wire/identity.md#custom-token-claims',
      '5': 'docs/wire/identity.md#refresh-tokens-in-production',
      '6': 'docs/wire/identity.md#the-privileged-credential',
      '7': 'docs/wire/identity.md#abuse-controls',
      '8': 'docs/wire/identity.md#out-of-band-codes',
      '9': 'docs/wire/identity.md#design',
      '9.2': 'docs/wire/identity.md#keys-and-rotation',
      '9.3': 'docs/wire/identity.md#keys-and-rotation',
      '9.4': 'docs/wire/identity.md#minting-and-checking',
      '9.5': 'docs/wire/identity.md#refresh-and-custom-tokens',
      '9.6': 'docs/wire/identity.md#the-apis-verification',
      '9.7': 'docs/wire/identity.md#verification-checklist',
    },
  },
  'rules-language': {
    page: 'docs/wire/rules.md',
    sections: {
      '1': 'docs/wire/rules.md#structure-and-matching',
      '2': 'docs/wire/rules.md#types',
      '2.2': 'docs/wire/rules.md#equality',
      '2.3': 'docs/wire/rules.md#equality',
      '2.4': 'docs/wire/rules.md#equality',
      '2.6': 'docs/wire/rules.md#missing-fields-and-null',
      '2.7': 'docs/wire/rules.md#error-absorption',
      '4': 'docs/wire/rules.md#the-request',
      '5': 'docs/wire/rules.md#list-queries',
      '5.3': 'docs/wire/rules.md#constraints',
      '5.4': 'docs/wire/rules.md#document-id-constraints',
      '5.5': 'docs/wire/rules.md#collection-groups',
      '6': 'docs/wire/rules.md#storage-rules',
      '7': 'docs/wire/rules.md#emulator-versus-production',
    },
  },
  'firestore-streams': { page: 'docs/wire/README.md', sections: {} },
}

/** Which wire document an unnamed citation ("wire reference §7", "(§1.2)") means, by the file's path. */
export const FILE_CONTEXT: ReadonlyArray<readonly [RegExp, SourceDoc]> = [
  [/^infra\/emulator-lite\/src\/auth\//, 'auth-wire'],
  [/^infra\/emulator-lite\/test\/auth-/, 'auth-wire'],
  [/^infra\/emulator-lite\/src\/rules\//, 'rules-language'],
  [/^infra\/emulator-lite\/(src|test)\//, 'firebase-wire'],
]

/** What must not remain anywhere once the codemod ran. */
export const LEFTOVER: ReadonlyArray<readonly [string, RegExp]> = [
  ['SPEC citation', /\bSPEC(?:\.md)? ?§/],
  ['SPEC.md', /\bSPEC\.md\b/],
  ['reference citation', /\breference §/],
  ['section sign outside an RFC', /(?<!RFC \d+ )§ ?\d/],
  ['path to the shared folder', /shared\/reference|\.\.\/shared\/|\/work\/shared/],
  ['DESIGN document', /\bDESIGN\b/],
  ['STYLE.md', /\bSTYLE\.md\b/],
  ['old auth notes', /docs\/auth-wire-notes\.md/],
]

export type Fallback = { file: string; cited: string; written: string }

const SECTION_LIST = /§(\d+(?:\.\d+)*)((?:(?:, | and )§\d+(?:\.\d+)*)*)/
const sectionsOf = (first: string, rest: string) => [
  first,
  ...[...rest.matchAll(/§(\d+(?:\.\d+)*)/g)].map((m) => m[1]!),
]

function wireTarget(doc: SourceDoc, section: string, onFallback: (written: string) => void): string {
  const { page, sections } = WIRE_SECTIONS[doc]
  for (let key = section; key; key = key.includes('.') ? key.slice(0, key.lastIndexOf('.')) : '') {
    const target = sections[key]
    if (target) return target
  }
  onFallback(page)
  return page
}

/** `docs/wire/auth.md#a`, `docs/wire/auth.md#b` → `docs/wire/auth.md#a, #b` */
function joinTargets(targets: string[]): string {
  const unique = [...new Set(targets)]
  const [first, ...rest] = unique
  const page = first!.split('#')[0]
  return [first, ...rest.map((t) => (t.split('#')[0] === page && t.includes('#') ? `#${t.split('#')[1]}` : t))].join(
    ', ',
  )
}

function contextOf(file: string): SourceDoc | undefined {
  return FILE_CONTEXT.find(([pattern]) => pattern.test(file))?.[1]
}

/** The text with every citation rewritten; `fallbacks` collects what was decided by a default. */
export function rewrite(text: string, file: string, fallbacks: Fallback[] = []): string {
  let out = text
  for (const [from, to] of EXACT) out = out.split(from).join(to)
  const context = contextOf(file)
  const lines = out.split('\n').map((line) => {
    let next = line
    // SPEC §n[, §m]
    next = next.replace(new RegExp(`\\bSPEC ${SECTION_LIST.source}`, 'g'), (whole, first: string, rest: string) => {
      const rule = LINE_RULES.find(({ phrase }) => line.includes(phrase))
      return sectionsOf(first, rest)
        .map((section) => {
          const top = section.split('.')[0]!
          const precise = rule?.spec[top]
          if (precise) return precise
          const area = SPEC_AREAS[top] ?? 'REQ-PRODUCT'
          fallbacks.push({ file, cited: whole, written: area })
          return area
        })
        .join(', ')
    })
    // [path/]identity.md §9.7 · `shared/reference/auth-wire.md`
    next = next.replace(
      new RegExp(
        `(?:(?:\\.\\./)*(?:shared/)?reference/)?(auth-wire|firebase-wire|identity|rules-language|firestore-streams)\\.md(?: ${SECTION_LIST.source})?`,
        'g',
      ),
      (whole, doc: SourceDoc, first: string | undefined, rest: string | undefined) => {
        if (!first) {
          if (!/reference\//.test(whole)) return whole // a file of ours with the same name (docs/wire/identity.md)
          return WIRE_SECTIONS[doc].page
        }
        const targets = sectionsOf(first, rest ?? '').map((s) =>
          wireTarget(doc, s, (written) => fallbacks.push({ file, cited: whole, written })),
        )
        return joinTargets(targets)
      },
    )
    next = next.replace(/(?:\.\.\/)*shared\/reference(?![/\w])/g, 'docs/wire')
    if (context) {
      // "wire reference §7", "reference §5.3", and a bare "(§1.2)" in a file whose folder names the document
      next = next.replace(
        new RegExp(`(?:(?:wire )?reference )?(?<!RFC \\d+ )${SECTION_LIST.source}`, 'g'),
        (whole, first: string, rest: string) =>
          joinTargets(
            sectionsOf(first, rest).map((s) =>
              wireTarget(context, s, (written) => fallbacks.push({ file, cited: whole, written })),
            ),
          ),
      )
    }
    return next
  })
  return lines.join('\n')
}

/** Every line of `text` that still holds a citation of an outside document. */
export function leftovers(text: string): Array<{ line: number; kind: string; text: string }> {
  const found: Array<{ line: number; kind: string; text: string }> = []
  text.split('\n').forEach((line, index) => {
    for (const [kind, pattern] of LEFTOVER) {
      if (pattern.test(line)) {
        found.push({ line: index + 1, kind, text: line.trim() })
        break
      }
    }
  })
  return found
}

const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  '.tools',
  '.data',
  'dist',
  'test-results',
  'playwright-report',
  '.turbo',
])
const TEXT_FILE =
  /\.(ts|tsx|mts|cts|js|mjs|cjs|md|rules|json|ya?ml|sh|html|css|conf|toml|txt)$|^(Makefile|Dockerfile.*)$/
/** The codemod and its test spell the old citations on purpose. */
export const SELF = ['infra/stack/scripts/cite-requirements.ts', 'infra/stack/scripts/cite-requirements.test.ts']

/** The repository's text files, relative to `root`, with `/` separators. */
export function textFiles(root: string): string[] {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(join(dir, entry.name))
      } else if (entry.isFile() && TEXT_FILE.test(entry.name) && entry.name !== 'package-lock.json') {
        const path = join(dir, entry.name)
        if (statSync(path).size <= 1_000_000) files.push(relative(root, path).split(sep).join('/'))
      }
    }
  }
  walk(root)
  return files.filter((file) => !SELF.includes(file)).sort()
}

function main(argv: string[]): number {
  const check = argv.includes('--check')
  const dryRun = argv.includes('--dry-run')
  const root = resolve(argv.find((arg) => !arg.startsWith('--')) ?? join(fileURLToPath(import.meta.url), '../../../..'))
  const files = textFiles(root)
  if (check) {
    let count = 0
    for (const file of files) {
      for (const hit of leftovers(readFileSync(join(root, file), 'utf8'))) {
        count++
        console.log(`${file}:${hit.line}: ${hit.kind}: ${hit.text}`)
      }
    }
    console.log(count === 0 ? 'no citation of an outside document' : `${count} citation(s) of outside documents`)
    return count === 0 ? 0 : 1
  }
  const fallbacks: Fallback[] = []
  let changed = 0
  for (const file of files) {
    const before = readFileSync(join(root, file), 'utf8')
    const after = rewrite(before, file, fallbacks)
    if (after === before) continue
    changed++
    console.log(`${dryRun ? 'would rewrite' : 'rewrote'} ${file}`)
    if (!dryRun) writeFileSync(join(root, file), after)
  }
  for (const { file, cited, written } of fallbacks) {
    console.log(`fallback: ${file}: "${cited}" → ${written} (no line rule; make it precise in LINE_RULES)`)
  }
  let left = 0
  for (const file of files) {
    const text = dryRun ? rewrite(readFileSync(join(root, file), 'utf8'), file) : readFileSync(join(root, file), 'utf8')
    for (const hit of leftovers(text)) {
      left++
      console.log(`left: ${file}:${hit.line}: ${hit.kind}: ${hit.text}`)
    }
  }
  console.log(
    `${changed} file(s) ${dryRun ? 'to rewrite' : 'rewritten'}, ${fallbacks.length} fallback(s), ${left} left`,
  )
  return left === 0 ? 0 : 1
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2))
}
