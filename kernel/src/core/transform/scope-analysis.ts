/**
 * Which names are lexically visible at a block, and how each is declared. The transform hands every
 * visible local to the runtime as a getter thunk, so JavaScript itself resolves them (and throws
 * ReferenceError in the TDZ); this analysis only decides which names to list and which may be
 * assigned by write-back.
 */
import type TS from 'typescript';
import { typescript } from './typescript-module.js';

export type DeclarationKind = 'let' | 'var' | 'const' | 'parameter' | 'catch' | 'function' | 'class' | 'enum' | 'import' | 'external';

export interface VisibleName {
  readonly name: string;
  readonly kind: DeclarationKind;
  /** Declared at source-file level (outside every function). */
  readonly moduleLevel: boolean;
  /** The declaration's type annotation, when the name is declared with a simple identifier. */
  readonly typeNode: TS.TypeNode | undefined;
}

/** The assignable declaration kinds: write-back targets. */
export function isAssignable(kind: DeclarationKind): boolean {
  return kind === 'let' || kind === 'var' || kind === 'parameter' || kind === 'catch';
}

type Collect = (name: string, kind: DeclarationKind, typeNode: TS.TypeNode | undefined) => void;

function collectBindingNames(name: TS.BindingName, kind: DeclarationKind, typeNode: TS.TypeNode | undefined, add: Collect): void {
  const ts = typescript();
  if (ts.isIdentifier(name)) {
    add(name.text, kind, typeNode);
    return;
  }
  for (const element of name.elements) {
    if (ts.isBindingElement(element)) collectBindingNames(element.name, kind, undefined, add);
  }
}

function declarationListKind(list: TS.VariableDeclarationList): DeclarationKind {
  const ts = typescript();
  if (list.flags & ts.NodeFlags.Const) return 'const';
  // `using` / `await using` declarations are constant bindings as well.
  if (list.flags & ts.NodeFlags.Let) return 'let';
  if (list.flags & (ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing)) return 'const';
  return 'var';
}

function collectList(list: TS.VariableDeclarationList, add: Collect, onlyVar: boolean): void {
  const kind = declarationListKind(list);
  if ((kind === 'var') !== onlyVar) return;
  for (const declaration of list.declarations) collectBindingNames(declaration.name, kind, declaration.type, add);
}

function isTypeOnlyImport(clause: TS.ImportClause): boolean {
  return clause.isTypeOnly;
}

/** Block-scoped declarations (let/const/function/class/enum/imports) directly in a statement list. */
function collectLexical(statements: readonly TS.Statement[], add: Collect): void {
  const ts = typescript();
  for (const statement of statements) {
    if (ts.isVariableStatement(statement)) collectList(statement.declarationList, add, false);
    else if (ts.isFunctionDeclaration(statement) && statement.name) add(statement.name.text, 'function', undefined);
    else if (ts.isClassDeclaration(statement) && statement.name) add(statement.name.text, 'class', undefined);
    else if (ts.isEnumDeclaration(statement) && !hasModifier(statement, ts.SyntaxKind.ConstKeyword)) add(statement.name.text, 'enum', undefined);
    else if (ts.isImportDeclaration(statement) && statement.importClause && !isTypeOnlyImport(statement.importClause)) {
      const clause = statement.importClause;
      if (clause.name) add(clause.name.text, 'import', undefined);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) add(bindings.name.text, 'import', undefined);
      else if (bindings) for (const spec of bindings.elements) if (!spec.isTypeOnly) add(spec.name.text, 'import', undefined);
    } else if (ts.isImportEqualsDeclaration(statement) && !statement.isTypeOnly) add(statement.name.text, 'import', undefined);
  }
}

function hasModifier(node: TS.Node, kind: TS.SyntaxKind): boolean {
  const ts = typescript();
  return (ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined)?.some((m) => m.kind === kind) ?? false;
}

/** `var` declarations anywhere in a function body or source file, not inside nested functions. */
function collectVars(root: TS.Node, add: Collect): void {
  const ts = typescript();
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isVariableDeclarationList(node)) collectList(node, add, true);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(root, visit);
}

/**
 * Every name visible at `statement`, innermost declaration first. Names declared at source-file
 * level are included too; callers list them in the scope only when a binding references them.
 */
export function visibleNames(statement: TS.Statement, externalNames: readonly string[]): Map<string, VisibleName> {
  const ts = typescript();
  const names = new Map<string, VisibleName>();
  let moduleLevel = false;
  const add: Collect = (name, kind, typeNode) => {
    if (!names.has(name)) names.set(name, { name, kind, moduleLevel, typeNode });
  };
  let child: TS.Node = statement;
  for (let node: TS.Node | undefined = statement.parent; node; child = node, node = node.parent) {
    if (ts.isSourceFile(node)) {
      moduleLevel = true;
      collectLexical(node.statements, add);
      collectVars(node, add);
    } else if (ts.isBlock(node) || ts.isModuleBlock(node)) {
      collectLexical(node.statements, add);
    } else if (ts.isCaseClause(node) || ts.isDefaultClause(node)) {
      // One lexical scope for the whole switch body.
      for (const clause of node.parent.clauses) collectLexical(clause.statements, add);
    } else if (ts.isForStatement(node) || ts.isForOfStatement(node) || ts.isForInStatement(node)) {
      const init = node.initializer;
      if (init && ts.isVariableDeclarationList(init)) collectList(init, add, false);
    } else if (ts.isCatchClause(node)) {
      const declaration = node.variableDeclaration;
      if (declaration) collectBindingNames(declaration.name, 'catch', declaration.type, add);
    } else if (ts.isFunctionLike(node)) {
      for (const parameter of node.parameters) collectBindingNames(parameter.name, 'parameter', parameter.type, add);
      if ((ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node)) && node.name && child !== node.name) {
        // A function expression's own name is a constant binding inside it.
        add(node.name.text, ts.isFunctionExpression(node) ? 'const' : 'function', undefined);
      }
      const body = 'body' in node ? (node.body as TS.Node | undefined) : undefined;
      if (body) collectVars(body, add);
    }
  }
  moduleLevel = true;
  for (const name of externalNames) add(name, 'external', undefined);
  return names;
}
