/**
 * The layer that hands tslab's compiler TypeScript's lib and @types files without their JSDoc
 * (kernel/src/server/kernel/declaration-docs.ts): only comment openers at line starts change, every position
 * stays, and documentation is read back from the file on disk.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { UNDOCUMENTED_DECLARATIONS, documentationFromDisk, jsDocProse, withoutDocComments } from '../../kernel/src/server/kernel/declaration-docs.js';

describe('declaration docs', () => {
  it('turns JSDoc openers at line starts into plain comments of the same length, and nothing else', () => {
    const text = '/** A. */\nexport declare const a: "/**";\n  /**\n   * B.\n   */\n  b(): void;\n/**/\nconst c = 1; /** trailing */\n/*** stars */\n';
    const out = withoutDocComments(text);
    expect(out.length).toBe(text.length);
    expect(out).toBe('/*  A. */\nexport declare const a: "/**";\n  /* \n   * B.\n   */\n  b(): void;\n/**/\nconst c = 1; /** trailing */\n/* * stars */\n');
    // The same tokens, at the same positions.
    const tokens = (source: string): string[] => {
      const scanner = ts.createScanner(ts.ScriptTarget.ES2022, true, ts.LanguageVariant.Standard, source);
      const seen: string[] = [];
      for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) seen.push(`${kind}@${scanner.getTokenPos()}:${scanner.getTokenText()}`);
      return seen;
    };
    expect(tokens(out)).toEqual(tokens(text));
  });

  it("applies to TypeScript's lib files and installed packages' declaration files only", () => {
    for (const file of ['/x/node_modules/@tslab/typescript-for-tslab/lib/lib.es5.d.ts', '/x/node_modules/typescript/lib/lib.dom.d.ts', '/x/node_modules/@types/node/fs.d.ts', '/x/node_modules/@types/node/ts5.6/index.d.ts', 'C:\\x\\node_modules\\undici-types\\fetch.d.ts', '/x/node_modules/zod/v4/index.d.cts', '/x/node_modules/nighthawk-ts/dist/kernel/src/index.d.ts']) {
      expect(UNDOCUMENTED_DECLARATIONS.test(file), file).toBe(true);
    }
    // A notebook's own files and a package's sources next to it keep their JSDoc.
    for (const file of ['/x/node_modules/@types/node/fs.js', '/x/notebooks/lib/lib.d.ts', '/x/dist/kernel/src/index.d.ts', '/x/notebooks/helpers.ts', '/x/node_modules/pkg/src/index.ts']) {
      expect(UNDOCUMENTED_DECLARATIONS.test(file), file).toBe(false);
    }
  });

  it("reads a declaration's prose back from its file on disk (a variable's from its statement), tags left out", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nh-docs-'));
    const file = path.join(dir, 'node_modules', '@types', 'demo', 'index.d.ts');
    mkdirSync(path.dirname(file), { recursive: true });
    const text = '/**\n * Adds two numbers.\n *\n * Really.\n * @param a first\n */\ndeclare function add(a: number, b: number): number;\n/** The answer. */\ndeclare const answer: number;\ndeclare function bare(): void;\n';
    writeFileSync(file, text);
    const source = ts.createSourceFile(file, withoutDocComments(text), ts.ScriptTarget.ES2022, true);
    const [add, answer, bare] = source.statements;
    expect(documentationFromDisk(ts, [add!])).toBe('Adds two numbers.\n\nReally.');
    expect(documentationFromDisk(ts, [(answer as ts.VariableStatement).declarationList.declarations[0]!])).toBe('The answer.');
    expect(documentationFromDisk(ts, [bare!])).toBe('');
    // A file outside the lib and @types keeps its JSDoc in the program: nothing is read for it.
    const own = ts.createSourceFile(path.join(dir, 'own.d.ts'), text, ts.ScriptTarget.ES2022, true);
    expect(documentationFromDisk(ts, [own.statements[0]!])).toBe('');
    expect(jsDocProse('/**\n * First.\n * Second.\n * @returns x\n */')).toBe('First.\nSecond.');
    // A file with a byte-order mark: the compiler reads it without one, and so does this.
    const marked = path.join(dir, 'node_modules', '@types', 'demo', 'marked.d.ts');
    writeFileSync(marked, `\ufeff${text}`);
    const markedSource = ts.createSourceFile(marked, withoutDocComments(text), ts.ScriptTarget.ES2022, true);
    expect(documentationFromDisk(ts, [markedSource.statements[0]!])).toBe('Adds two numbers.\n\nReally.');
  });
});
