/**
 * tslab 1.0.22's converter, mended where cells failed:
 * - It printed TypeScript's escaped names as code. A name starting with two underscores is kept escaped inside
 *   (`__x` is `___x` in a file's locals), so a cell declaring and using `__x` failed with "Cannot find name
 *   '___x'", a class whose name a later cell gave to an interface was kept as `let ___K: any`, and completion of
 *   `__al` looked for `___al`.
 * - An inspection's documentation of a declaration file read without its JSDoc (declaration-docs.ts) came out empty;
 *   its quick info now names the symbol's declarations, so the kernel reads their documentation from the file.
 * - `declare global { var flag: number }` failed: the block's internal name (`__global`) was exported as a
 *   variable, later cells read `flag` from the earlier cells' exports instead of the global object, and the
 *   block was dropped from the declarations after one cell.
 * Node built-ins only: the compiler snapshot's builder bundles this too. Each fix must apply exactly once; a
 * converter where one does not (another tslab) is refused with the fix named, rather than run with a defect back.
 */
import { readFileSync } from 'node:fs';
import { commonJsLoader, loadCommonJsModule, newCommonJsModule } from './commonjs-module.js';

interface Fix {
  what: string;
  from: string;
  to: string;
}

const FIXES: readonly Fix[] = [
  {
    what: "the export of a cell's own names",
    from: 'const suffix = "\\nexport {" + Array.from(keys).join(", ") + "}";',
    // Internal names (`__global` of `declare global`, which a user's `__x` can never be: it is `___x`) are no variables.
    to: 'const suffix = "\\nexport {" + Array.from(keys).filter((key) => !/^__(?!_)/.test(key)).map((key) => ts.unescapeLeadingUnderscores(key)).join(", ") + "}";',
  },
  {
    what: 'the value kept for a class whose name became a type',
    from: 'anyVarsDecls.push(`let ${name}: any;\\n`);',
    to: 'anyVarsDecls.push(`let ${ts.unescapeLeadingUnderscores(name)}: any;\\n`);',
  },
  {
    what: "references to an earlier cell's globals",
    from: 'if (decl.getSourceFile() === declsFile) {',
    // A `declare global` variable lives on the global object, not among the earlier cells' exports.
    to: 'if (decl.getSourceFile() === declsFile && !ts.findAncestor(decl, (n) => ts.isModuleDeclaration(n) && (n.flags & ts.NodeFlags.GlobalAugmentation) !== 0)) {',
  },
  {
    what: "the declarations kept for later cells",
    from: 'let names = keepMap.get(stmt);\n            if (!names) {\n                return;',
    // A `declare global` block names no local, so the converter dropped it after one cell.
    to: 'let names = keepMap.get(stmt);\n            if (!names) {\n                if (ts.isModuleDeclaration(stmt) && (stmt.flags & ts.NodeFlags.GlobalAugmentation) !== 0) statements.push(stmt);\n                return;',
  },
  {
    what: 'the prefix completion matches against',
    from: 'let name = id.escapedText.toString();',
    to: 'let name = ts.idText(id);',
  },
  {
    what: "an inspection's declarations",
    from: 'const info = ts.getQuickInfoAtPosition(srcFile, builder.getProgram().getTypeChecker(), cancellationToken, position + srcPrefix.length);',
    // For declaration-docs.ts: documentation of a file read without its JSDoc is taken from the file on disk.
    to: 'const checker = builder.getProgram().getTypeChecker();\n        const info = ts.getQuickInfoAtPosition(srcFile, checker, cancellationToken, position + srcPrefix.length);\n        if (info) Object.defineProperty(info, "declarations", { value: () => { let symbol = checker.getSymbolAtLocation(ts.getTouchingPropertyName(srcFile, position + srcPrefix.length)); if (symbol && (symbol.flags & ts.SymbolFlags.Alias) !== 0) symbol = checker.getAliasedSymbol(symbol); return (symbol && symbol.declarations) || []; } });',
  },
];

/** Bumped when FIXES change: conversions stored by a kernel with other fixes are not reused (conversion-store.ts). */
export const CONVERTER_FIXES_VERSION = 'escaped-names-globals-and-declarations-2';

export class TslabConverterMismatchError extends Error {
  override readonly name = 'TslabConverterMismatchError';
}

/** The converter's source with every fix applied; throws TslabConverterMismatchError naming a fix that did not apply. */
export function mendConverterSource(source: string, file: string): string {
  let mended = source;
  for (const fix of FIXES) {
    const at = mended.indexOf(fix.from);
    if (at < 0 || mended.indexOf(fix.from, at + fix.from.length) >= 0) {
      throw new TslabConverterMismatchError(
        `${file} is not the tslab converter this kernel mends (${fix.what}: expected its code exactly once); install the tslab version package.json pins`,
      );
    }
    mended = mended.slice(0, at) + fix.to + mended.slice(at + fix.from.length);
  }
  return mended;
}

const mendedModules = new WeakSet<object>();

/**
 * Loads the converter at `file` mended, as the CommonJS module of that path (its own requires resolve beside
 * it, and later requires of the path get this module). A copy someone required unmended before is left alone.
 */
export function loadMendedConverter(file: string): unknown {
  const cached = commonJsLoader._cache[file];
  if (cached && mendedModules.has(cached)) return cached.exports;
  const source = mendConverterSource(readFileSync(file, 'utf8'), file);
  const module = newCommonJsModule(file);
  if (!cached) commonJsLoader._cache[file] = module;
  const exports = loadCommonJsModule(module, source, () => {
    if (commonJsLoader._cache[file] === module) delete commonJsLoader._cache[file];
  });
  mendedModules.add(module);
  return exports;
}
