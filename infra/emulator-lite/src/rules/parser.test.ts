import fc from 'fast-check'
import { expect, test } from 'vitest'
import { checkFirestore, type DocLookup, parseRules, RulesError } from './index.ts'

const FULL = `rules_version = '2';
/* every construct the engine supports */
service cloud.firestore {
  function signedIn() { return request.auth != null; }
  function twice(x) {
    let y = x * 2;
    let z = y + 0;
    return z;
  }
  match /databases/{database}/documents {
    function owner(uid) { return request.auth.uid == uid }
    match /users/{uid} {
      allow get: if owner(uid);
      allow list;
      allow create, update: if signedIn() && request.resource.data.keys().hasOnly(['a', "b"]);
      allow delete: if false;
      match /private/{doc} {
        allow read, write: if owner(uid) && doc != 'x';
      }
    }
    match /things/{thing}/{rest=**} {
      allow read: if rest == path('a/b') || thing in ['t1', 't2'] ? true : false;
    }
    match /{path=**}/items/{item} {
      allow list: if resource.data.n is int && -resource.data.n < 0 && !(resource.data.n > 10);
    }
    match /calc/{id} {
      allow get: if twice(2) == 4 && [1, 2][0:1] == [1] && {'k': b'\\x00'}['k'].size() == 1
        && 0x1F == 31 && 1.5e1 == 15.0 && r'\\d' == '\\\\d'
        && get(/databases/$(database)/documents/users/$(request.auth.uid)) == null
        && math.abs(-1) == 1 && duration.value(1, 'h') > duration.value(59, 'm')
        && debug(true);
    }
  }
}
`

const lookup: DocLookup = { get: () => null, getAfter: () => null }
const time = new Date('2026-01-01T00:00:00Z')
const auth = { uid: 'u1', token: {} }
const get = (ruleset: ReturnType<typeof parseRules>, path: string, resource: Record<string, unknown> | null = null) =>
  checkFirestore(ruleset, {
    database: '(default)',
    path,
    method: 'get',
    auth,
    time,
    resource: resource as never,
    requestResource: null,
    lookup,
  }).allowed

test('a file using every supported construct parses and evaluates', () => {
  const ruleset = parseRules(FULL, 'full.rules')
  expect(ruleset.service).toBe('cloud.firestore')
  expect(ruleset.version).toBe('2')
  expect(get(ruleset, 'users/u1')).toBe(true)
  expect(get(ruleset, 'users/u2')).toBe(false)
  expect(get(ruleset, 'users/u1/private/a')).toBe(true)
  expect(get(ruleset, 'users/u1/private/x')).toBe(false)
  expect(get(ruleset, 'things/t1/a/b')).toBe(true)
  expect(get(ruleset, 'things/t9/a/b')).toBe(true)
  expect(get(ruleset, 'things/t9/c/d')).toBe(false)
  expect(get(ruleset, 'calc/1')).toBe(true)
})

test('rules_version 1 recursive wildcards need at least one segment', () => {
  const v1 = parseRules(
    'service cloud.firestore { match /databases/{d}/documents { match /a/{rest=**} { allow read; } } }',
    'v1.rules',
  )
  expect(v1.version).toBe('1')
  expect(get(v1, 'a/x')).toBe(true)
  const v2 = parseRules(
    "rules_version = '2'; service cloud.firestore { match /databases/{d}/documents { match /a/{x}/{rest=**} { allow read; } } }",
    'v2.rules',
  )
  expect(get(v2, 'a/x')).toBe(true)
  expect(get(v2, 'a/x/b/y')).toBe(true)
})

test('storage rules parse, and firestore lookups there need the firestore. prefix', () => {
  const ruleset = parseRules(
    "rules_version = '2'; service firebase.storage { match /b/{bucket}/o { match /{all=**} { allow read: if firestore.exists(/databases/(default)/documents/x/y); } } }",
    'storage.rules',
  )
  expect(ruleset.service).toBe('firebase.storage')
  expect(() =>
    parseRules(
      'service firebase.storage { match /b/{bucket}/o { allow read: if exists(/databases/(default)/documents/x/y); } }',
      'storage.rules',
    ),
  ).toThrow(/storage.rules:1:65: exists\(\) is not available in storage rules/)
})

const BAD: [string, string][] = [
  ['', "x.rules:1:1: expected 'service'"],
  ["rules_version = '3';", "x.rules:1:17: rules_version must be '1' or '2'"],
  ['service cloud.datastore {}', 'x.rules:1:9: unsupported service cloud.datastore'],
  ['service cloud.firestore {\n  allow read;\n}', "x.rules:2:3: expected 'match', 'function' or '}'"],
  [
    'service cloud.firestore {\n  match /a/{b} {\n    allow read: if true\n  }\n',
    "x.rules:5:1: expected 'match', 'function' or '}', found end of file",
  ],
  [
    'service cloud.firestore {\n  match /a/{b} {\n    allow peek: if true;\n  }\n}',
    'x.rules:3:11: unknown method peek',
  ],
  [
    'service cloud.firestore {\n  match /a/{b} {\n    allow read: if foo();\n  }\n}',
    'x.rules:3:20: unknown function foo',
  ],
  [
    'service cloud.firestore {\n  match /a/{b} {\n    allow read: if c == 1;\n  }\n}',
    'x.rules:3:20: unknown variable c',
  ],
  [
    'service cloud.firestore {\n  match /a/{b} {\n    allow read: if b.frob();\n  }\n}',
    'x.rules:3:22: unknown method frob()',
  ],
  [
    'service cloud.firestore {\n  match /a/{b} {\n    allow read: if b is thing;\n  }\n}',
    'x.rules:3:25: unknown type thing',
  ],
  [
    'service cloud.firestore {\n  match /a/{b} {\n    allow read: if (1 + ;\n  }\n}',
    "x.rules:3:25: unexpected ';' in an expression",
  ],
  [
    "service cloud.firestore {\n  match /a/{b} {\n    allow read: if 'abc;\n  }\n}",
    'x.rules:3:20: unterminated string',
  ],
  ['service cloud.firestore {\n  /* never closed', 'x.rules:2:3: unterminated comment'],
  ['service cloud.firestore {\n  match /a/{b {\n  }\n}', 'x.rules:2:12: invalid wildcard'],
  ['service cloud.firestore {\n  match /a/{x=**}/{y=**} {\n  }\n}', 'x.rules:2:19: only one recursive wildcard'],
  [
    'service cloud.firestore {\n  match /a/{x=**}/b {\n  }\n}',
    'x.rules:2:9: in rules_version 1 a recursive wildcard must be the last segment',
  ],
  ['service cloud.firestore {\n  function f() { return f(); }\n}', 'x.rules:2:25: recursive call of function f'],
  [
    'service cloud.firestore {\n  function f() { return g(); }\n  function g() { return f(); }\n}',
    'x.rules:3:25: recursive call of function f',
  ],
  [
    'service cloud.firestore {\n  function f(a) { return a; }\n  match /x/{y} { allow read: if f(); }\n}',
    'x.rules:3:33: function f takes 1 argument(s), got 0',
  ],
  [
    'service cloud.firestore {\n  function f() { return 1; }\n  function f() { return 2; }\n}',
    'x.rules:3:3: function f is already defined here',
  ],
  [
    'service cloud.firestore {\n  match /a/{x} {\n    match /b/{x} {}\n  }\n}',
    'x.rules:3:5: wildcard {x} is already bound',
  ],
  [
    "service cloud.firestore {\n  match /a/{x} {\n    allow read: if x.matches('(a');\n  }\n}",
    'x.rules:3:30: Invalid regular expression',
  ],
  [
    'service cloud.firestore {\n  match /a/{x} {\n    allow read: if 99999999999999999999 > 1;\n  }\n}',
    'x.rules:3:20: integer literal',
  ],
  [
    'service cloud.firestore {\n  match /a/{x} {\n    allow read: if math.tau() > 1;\n  }\n}',
    'x.rules:3:25: unknown function math.tau',
  ],
  ['service cloud.firestore {} service firebase.storage {}', 'x.rules:1:28: only one service per rules file'],
  [
    'service cloud.firestore {\n  function f() { let a = 1; return a; }\n  match /a/{x} { allow read: if a; }\n}',
    'x.rules:3:33: unknown variable a',
  ],
  ['service cloud.firestore {\n  match /a/{x} { allow read: if 1 # 2; }\n}', 'x.rules:2:35: unexpected character "#"'],
  [
    `service cloud.firestore {\n  function f() {\n${Array.from({ length: 11 }, (_, i) => `    let v${i} = ${i};`).join('\n')}\n    return true;\n  }\n}`,
    'x.rules:2:3: a function may have at most 10 let bindings',
  ],
]

test('malformed or unsupported rules fail with file:line:column', () => {
  for (const [source, message] of BAD) {
    let thrown: unknown
    try {
      parseRules(source, 'x.rules')
    } catch (error) {
      thrown = error
    }
    expect(thrown, source).toBeInstanceOf(RulesError)
    expect((thrown as RulesError).message, source).toContain(message)
  }
  try {
    parseRules('service cloud.firestore {\n  match /a/{b} {\n    allow peek;\n  }\n}', 'f.rules')
  } catch (error) {
    expect(error).toMatchObject({ file: 'f.rules', line: 3, column: 11 })
  }
})

test('function scope: a function sees the wildcards of the match it is declared in, not those of its callers', () => {
  const ruleset = parseRules(
    `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /a/{id} {
      function isA() { return id == 'a'; }
      allow get: if isA();
      match /b/{sub} { allow get: if isA() && sub == 'b'; }
    }
  }
}`,
    'scope.rules',
  )
  expect(get(ruleset, 'a/a')).toBe(true)
  expect(get(ruleset, 'a/z')).toBe(false)
  expect(get(ruleset, 'a/a/b/b')).toBe(true)
  expect(() =>
    parseRules(
      'service cloud.firestore {\n  function f() { return id; }\n  match /a/{id} { allow get: if f(); }\n}',
      'scope.rules',
    ),
  ).toThrow(/scope.rules:2:25: unknown variable id/)
})

test('functions declared at file scope are visible in the service and shadowed by inner functions of the same name', () => {
  const source = (head: string) => `${head}
function isOwner(uid) { return request.auth.uid == uid; }
function kind() { return 'file'; }
service cloud.firestore {
  match /databases/{database}/documents {
    match /users/{uid} { allow get: if isOwner(uid) && kind() == 'file'; }
    match /shadowed/{id} {
      function kind() { return 'match'; }
      allow get: if kind() == 'match';
    }
  }
}`
  for (const head of ["rules_version = '2';", "function first() { return true; }\nrules_version = '2';"]) {
    const ruleset = parseRules(source(head), 'global.rules')
    expect(ruleset.version).toBe('2')
    expect(get(ruleset, 'users/u1')).toBe(true)
    expect(get(ruleset, 'users/u2')).toBe(false)
    expect(get(ruleset, 'shadowed/x')).toBe(true)
  }
  const serviceWins = parseRules(
    `function kind() { return 'file'; }
service cloud.firestore {
  function kind() { return 'service'; }
  match /databases/{database}/documents { match /x/{id} { allow get: if kind() == 'service'; } }
}`,
    'global.rules',
  )
  expect(get(serviceWins, 'x/1')).toBe(true)
  const storage = parseRules(
    `rules_version = '2';
function signedIn() { return request.auth != null; }
service firebase.storage { match /b/{bucket}/o { match /{all=**} { allow read: if signedIn(); } } }`,
    'global.rules',
  )
  expect(storage.service).toBe('firebase.storage')
})

test('file scope refuses what production refuses', () => {
  const service = 'service cloud.firestore { match /databases/{d}/documents { match /x/{id} { allow get; } } }'
  const cases: [string, RegExp][] = [
    [
      `function f() { return 1; }\nfunction f() { return 2; }\n${service}`,
      /x.rules:2:1: function f is already defined/,
    ],
    [`${service}\nrules_version = '2';`, /rules_version must come before the service block/],
    [`rules_version = '2';\nrules_version = '2';\n${service}`, /x.rules:2:1: rules_version is already set/],
    [`${service}\nfunction f() { return 1; }\n${service}`, /x.rules:3:1: only one service per rules file/],
    [
      `function f() { return g(); }\nservice cloud.firestore { function g() { return true; } }`,
      /x.rules:1:23: unknown function g/,
    ],
    ['allow read;', /x.rules:1:1: expected 'service', found 'allow'/],
    ['function f() { return 1; }', /x.rules:1:27: expected 'service', found end of file/],
  ]
  for (const [source, message] of cases) expect(() => parseRules(source, 'x.rules'), source).toThrow(message)
  // A function after the service block is still at file scope.
  expect(() => parseRules(`${service}\nfunction f() { return 1; }`, 'x.rules')).not.toThrow()
})

test('let bindings are evaluated lazily, so an unused failing binding does not deny', () => {
  const ruleset = parseRules(
    `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    function ok() { let broken = resource.data.missing; let fine = 1; return fine == 1; }
    function deep(n) { return n > 0; }
    match /x/{id} { allow get: if ok() && deep(1); }
  }
}`,
    'let.rules',
  )
  expect(get(ruleset, 'x/1', { a: { integerValue: '1' } })).toBe(true)
})

test('call depth is capped at 20 functions', () => {
  const chain = Array.from(
    { length: 22 },
    (_, i) => `function f${i}() { return ${i === 21 ? 'true' : `f${i + 1}()`}; }`,
  )
  const source = (start: number) => `rules_version = '2';
service cloud.firestore {
  ${chain.join('\n  ')}
  match /databases/{database}/documents { match /x/{id} { allow get: if f${start}(); } }
}`
  expect(get(parseRules(source(0), 'deep.rules'), 'x/1')).toBe(false)
  expect(get(parseRules(source(2), 'deep.rules'), 'x/1')).toBe(true)
})

const FRAGMENTS = [
  'match',
  'allow',
  'function',
  'service',
  'rules_version',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  '/',
  '$(',
  ';',
  ':',
  ',',
  '.',
  'if',
  'let',
  'return',
  '==',
  '&&',
  '||',
  '!',
  '?',
  '**',
  '=',
  "'",
  '"',
  '/*',
  '//',
  '\n',
  ' ',
  'request.auth.uid',
  '{x=**}',
  '{id}',
  "b'\\x0",
  '\\u12',
  '0x',
  '1e',
  '9999999999999999999999',
  'in',
  'is',
  'int',
  'get',
]

test('garbled rules files only ever throw RulesError, and quickly', () => {
  const mutate = fc.tuple(
    fc.array(
      fc.record({
        at: fc.nat(),
        cut: fc.nat({ max: 12 }),
        insert: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 }), fc.constant('(((((((((')),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    fc.constantFrom(FULL, FULL.slice(0, 400), 'service firebase.storage { match /b/{b}/o { allow read; } }'),
  )
  fc.assert(
    fc.property(mutate, ([edits, base]) => {
      let source = base
      for (const { at, cut, insert } of edits) {
        const position = at % (source.length + 1)
        source = source.slice(0, position) + insert + source.slice(position + cut)
      }
      try {
        const ruleset = parseRules(source, 'fuzz.rules')
        if (ruleset.service === 'cloud.firestore') get(ruleset, 'users/u1')
      } catch (error) {
        if (!(error instanceof RulesError)) throw error
        expect(error.message).toMatch(/^fuzz\.rules:\d+:\d+: /)
      }
    }),
    { numRuns: 2000 },
  )
})

test('deeply nested expressions are rejected, not a stack overflow', () => {
  const deep = `service cloud.firestore { match /a/{b} { allow read: if ${'('.repeat(5000)}true${')'.repeat(5000)}; } }`
  expect(() => parseRules(deep, 'deep.rules')).toThrow(/deep.rules:1:\d+: expression nested too deeply/)
  const unary = `service cloud.firestore { match /a/{b} { allow read: if ${'!'.repeat(5000)}true; } }`
  expect(() => parseRules(unary, 'deep.rules')).toThrow(RulesError)
})
