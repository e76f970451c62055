// Types of dockerignore.mjs for the TypeScript tests.
export declare function dockerignoreMatcher(text: string): (path: string) => boolean
