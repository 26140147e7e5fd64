/** A finding at a node of the parsed proposal (apart from violation.ts, whose declarations are public). */
import type TS from 'typescript';
import type { Violation, ViolationRule } from './violation.js';

export function violationAt(sourceFile: TS.SourceFile, node: TS.Node, rule: ViolationRule, message: string): Violation {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  return { rule, message, line: line + 1, column: character + 1 };
}
