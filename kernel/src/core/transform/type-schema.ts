/**
 * Derives zod schema expressions from simple TypeScript annotations: primitives, literal types and
 * unions of them, arrays, tuples and object type literals of those (optional properties allowed).
 * Anything else yields undefined, and the runtime infers the schema from the initial value.
 */
import type TS from 'typescript';
import { typescript } from './typescript-module.js';

/** `z` is the local name the emitted module imports zod's `z` under. */
export function schemaForType(type: TS.TypeNode, z: string): string | undefined {
  const ts = typescript();
  switch (type.kind) {
    case ts.SyntaxKind.StringKeyword:
      return `${z}.string()`;
    case ts.SyntaxKind.NumberKeyword:
      return `${z}.number()`;
    case ts.SyntaxKind.BooleanKeyword:
      return `${z}.boolean()`;
    case ts.SyntaxKind.BigIntKeyword:
      return `${z}.bigint()`;
    case ts.SyntaxKind.UndefinedKeyword:
    case ts.SyntaxKind.VoidKeyword:
      return `${z}.undefined()`;
    case ts.SyntaxKind.UnknownKeyword:
    case ts.SyntaxKind.AnyKeyword:
      return `${z}.unknown()`;
  }
  if (ts.isParenthesizedTypeNode(type)) return schemaForType(type.type, z);
  if (ts.isLiteralTypeNode(type)) return literalSchema(type.literal, z);
  if (ts.isUnionTypeNode(type)) {
    const members = type.types.map((member) => schemaForType(member, z));
    if (members.some((m) => m === undefined)) return undefined;
    return members.length === 1 ? members[0] : `${z}.union([${members.join(', ')}])`;
  }
  if (ts.isArrayTypeNode(type)) {
    const element = schemaForType(type.elementType, z);
    return element && `${z}.array(${element})`;
  }
  if (ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword) return schemaForType(type.type, z);
  if (ts.isTupleTypeNode(type)) {
    const elements = type.elements.map((element) => (ts.isNamedTupleMember(element) || ts.isOptionalTypeNode(element) || ts.isRestTypeNode(element) ? undefined : schemaForType(element, z)));
    if (elements.some((e) => e === undefined)) return undefined;
    return `${z}.tuple([${elements.join(', ')}])`;
  }
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeArguments?.length === 1) {
    const name = type.typeName.text;
    if (name === 'Array' || name === 'ReadonlyArray') {
      const element = schemaForType(type.typeArguments[0]!, z);
      return element && `${z}.array(${element})`;
    }
    return undefined;
  }
  if (ts.isTypeLiteralNode(type)) return objectSchema(type, z);
  return undefined;
}

function literalSchema(literal: TS.LiteralTypeNode['literal'], z: string): string | undefined {
  const ts = typescript();
  switch (literal.kind) {
    case ts.SyntaxKind.NullKeyword:
      return `${z}.null()`;
    case ts.SyntaxKind.TrueKeyword:
      return `${z}.literal(true)`;
    case ts.SyntaxKind.FalseKeyword:
      return `${z}.literal(false)`;
  }
  if (ts.isStringLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal)) return `${z}.literal(${JSON.stringify(literal.text)})`;
  if (ts.isNumericLiteral(literal)) return `${z}.literal(${Number(literal.text)})`;
  if (ts.isBigIntLiteral(literal)) return `${z}.literal(${literal.text})`;
  if (
    ts.isPrefixUnaryExpression(literal) &&
    literal.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(literal.operand)
  ) {
    return `${z}.literal(${-Number(literal.operand.text)})`;
  }
  return undefined;
}

function objectSchema(type: TS.TypeLiteralNode, z: string): string | undefined {
  const ts = typescript();
  const fields: string[] = [];
  for (const member of type.members) {
    if (!ts.isPropertySignature(member) || !member.type) return undefined;
    const key = member.name;
    let keyText: string;
    if (ts.isIdentifier(key)) keyText = key.text;
    else if (ts.isStringLiteral(key) || ts.isNumericLiteral(key)) keyText = JSON.stringify(key.text);
    else return undefined;
    const schema = schemaForType(member.type, z);
    if (!schema) return undefined;
    fields.push(`${keyText}: ${member.questionToken ? `${schema}.optional()` : schema}`);
  }
  return `${z}.object({ ${fields.join(', ')} })`;
}

/** The awaited type of an async function's return annotation: `Promise<T>` gives T. */
export function awaitedReturnType(type: TS.TypeNode | undefined): TS.TypeNode | undefined {
  const ts = typescript();
  if (!type) return undefined;
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'Promise' && type.typeArguments?.length === 1) {
    return type.typeArguments[0];
  }
  return undefined;
}
