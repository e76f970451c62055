// Types of node-version.mjs for the TypeScript tests.
export declare function nodeImageProblems(files: { file: string; text: string }[], major: number): string[]
