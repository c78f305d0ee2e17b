// Filter expressions over molecular properties (docs/jobs.md, "filter"), such as
// `mw <= 500 and clogp < 5 and not pains`: parsed by jsep (a maintained JavaScript-expression
// parser, extended with `and`, `or` and `not`) into a syntax tree that this file checks and
// evaluates itself. Nothing is ever passed to eval or Function: only numbers, true/false, the
// known property names, comparisons, arithmetic and the three logical words are accepted.
import jsep from 'jsep';
import { listFew } from '../errors.js';

jsep.addBinaryOp('and', 2); // the precedences of && and ||
jsep.addBinaryOp('or', 1);
jsep.addUnaryOp('not');
// Not part of the language: JavaScript's own logical operators and member access stay errors.
jsep.removeBinaryOp('&&');
jsep.removeBinaryOp('||');
jsep.removeBinaryOp('|');
jsep.removeBinaryOp('&');
jsep.removeBinaryOp('^');
jsep.removeBinaryOp('<<');
jsep.removeBinaryOp('>>');
jsep.removeBinaryOp('>>>');
jsep.removeBinaryOp('===');
jsep.removeBinaryOp('!==');
jsep.removeUnaryOp('~');
jsep.removeUnaryOp('!');

export type ValueType = 'number' | 'boolean';
export type Env = Record<string, number | boolean | null>;
export type Compiled = (env: Env) => boolean;

/** A problem with an expression, at `index` (0-based character) when known. */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly index: number | null = null,
  ) {
    super(message);
  }
}

const COMPARE = new Set(['<', '<=', '>', '>=', '==', '!=']);
const ARITH = new Set(['+', '-', '*', '/', '%']);

/**
 * Bounds checked at parse time (docs/jobs.md, "filter"): nesting deeper than MAX_DEPTH or a tree
 * of more than MAX_NODES nodes is refused. Evaluation visits each node once, so a molecule costs
 * at most MAX_NODES steps, whatever the expression.
 */
export const MAX_DEPTH = 64;
export const MAX_NODES = 500;

type Node = jsep.Expression;
type Value = number | boolean | null;
type Eval = (env: Env) => Value;

const COMPARE_FNS: Record<string, (x: number, y: number) => boolean> = {
  '<': (x, y) => x < y,
  '<=': (x, y) => x <= y,
  '>': (x, y) => x > y,
  '>=': (x, y) => x >= y,
  '==': (x, y) => x === y,
  '!=': (x, y) => x !== y,
};
const ARITH_FNS: Record<string, (x: number, y: number) => number> = {
  '+': (x, y) => x + y,
  '-': (x, y) => x - y,
  '*': (x, y) => x * y,
  '/': (x, y) => x / y,
  '%': (x, y) => x % y,
};

/** The sub-expressions of a node, whatever its kind. */
function childrenOf(n: Node): Node[] {
  const out: Node[] = [];
  for (const v of Object.values(n)) {
    if (Array.isArray(v)) for (const c of v) if (c && typeof c === 'object' && typeof (c as Node).type === 'string') out.push(c as Node);
    if (v && typeof v === 'object' && typeof (v as Node).type === 'string') out.push(v as Node);
  }
  return out;
}

/** Checks the tree's size and depth without recursion (a deep tree must not overflow the stack here). */
function checkShape(tree: Node): void {
  let nodes = 0;
  const stack: { n: Node; depth: number }[] = [{ n: tree, depth: 1 }];
  while (stack.length) {
    const { n, depth } = stack.pop()!;
    if (depth > MAX_DEPTH) throw new ExpressionError(`the expression is nested more than ${MAX_DEPTH} levels deep`);
    if (++nodes > MAX_NODES) throw new ExpressionError(`the expression has more than ${MAX_NODES} parts`);
    for (const c of childrenOf(n)) stack.push({ n: c, depth: depth + 1 });
  }
}

/** Collects the identifiers that are neither true/false nor one of `names` (own properties only). */
function unknownNames(tree: Node, names: Readonly<Record<string, ValueType>>): string[] {
  const out = new Set<string>();
  const stack: Node[] = [tree];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'Identifier') {
      const name = (n as jsep.Identifier).name;
      if (name !== 'true' && name !== 'false' && !Object.hasOwn(names, name)) out.add(name);
    }
    // Member access and calls are refused as a whole later; their parts are not names of ours.
    if (n.type === 'MemberExpression' || n.type === 'CallExpression') continue;
    stack.push(...childrenOf(n).reverse()); // names in the order they are written
  }
  return [...out];
}

function compileNode(n: Node, names: Readonly<Record<string, ValueType>>): { type: ValueType; run: Eval } {
  switch (n.type) {
    case 'Literal': {
      const v = (n as jsep.Literal).value;
      if (typeof v === 'number' || typeof v === 'boolean') return { type: typeof v as ValueType, run: () => v };
      throw new ExpressionError(`only numbers and true/false are values here, not ${JSON.stringify(v)}`);
    }
    case 'Identifier': {
      const name = (n as jsep.Identifier).name;
      if (name === 'true' || name === 'false') return { type: 'boolean', run: () => name === 'true' };
      if (!Object.hasOwn(names, name)) throw new ExpressionError(`unknown name "${name}"; the names are ${Object.keys(names).join(', ')}`);
      const type = names[name]!;
      return { type, run: (env) => (Object.hasOwn(env, name) ? (env[name] ?? null) : null) };
    }
    case 'UnaryExpression': {
      const u = n as jsep.UnaryExpression;
      const arg = compileNode(u.argument, names);
      const inner = arg.run;
      // Each operand is evaluated once: the cost of a molecule is linear in the expression's size.
      if (u.operator === 'not') {
        if (arg.type !== 'boolean') throw new ExpressionError('"not" needs a true/false value');
        return {
          type: 'boolean',
          run: (env) => {
            const v = inner(env);
            return v === null ? null : !v;
          },
        };
      }
      if (u.operator === '-' || u.operator === '+') {
        if (arg.type !== 'number') throw new ExpressionError(`"${u.operator}" needs a number`);
        const sign = u.operator === '-' ? -1 : 1;
        return {
          type: 'number',
          run: (env) => {
            const v = inner(env);
            return v === null ? null : sign * (v as number);
          },
        };
      }
      throw new ExpressionError(`the operator "${u.operator}" is not part of filter expressions`);
    }
    case 'BinaryExpression': {
      const b = n as jsep.BinaryExpression;
      const l = compileNode(b.left, names);
      const r = compileNode(b.right, names);
      const op = b.operator;
      const both =
        (f: (x: never, y: never) => number | boolean): Eval =>
        (env) => {
          const x = l.run(env);
          const y = r.run(env);
          return x === null || y === null ? null : f(x as never, y as never);
        };
      if (op === 'and' || op === 'or') {
        if (l.type !== 'boolean' || r.type !== 'boolean') throw new ExpressionError(`"${op}" joins true/false values (comparisons or flags such as pains)`);
        return { type: 'boolean', run: both((x: boolean, y: boolean) => (op === 'and' ? x && y : x || y)) };
      }
      if (COMPARE.has(op)) {
        if (l.type !== r.type) throw new ExpressionError(`"${op}" compares values of one kind (a number with a number)`);
        if (l.type === 'boolean' && op !== '==' && op !== '!=') throw new ExpressionError(`"${op}" compares numbers`);
        return { type: 'boolean', run: both(COMPARE_FNS[op]!) };
      }
      if (ARITH.has(op)) {
        if (l.type !== 'number' || r.type !== 'number') throw new ExpressionError(`"${op}" works on numbers`);
        return { type: 'number', run: both(ARITH_FNS[op]!) };
      }
      throw new ExpressionError(`the operator "${op}" is not part of filter expressions`);
    }
    default:
      throw new ExpressionError(
        `${n.type === 'CallExpression' ? 'function calls' : n.type === 'MemberExpression' ? 'member access' : `"${n.type}"`} are not part of filter expressions`,
      );
  }
}

/**
 * Parses and checks an expression over `names` (their value types); the result tells whether a
 * molecule's values satisfy it (a missing value, null, never does). Throws ExpressionError.
 */
export function compileExpression(text: string, names: Readonly<Record<string, ValueType>>): Compiled {
  let tree: Node;
  try {
    tree = jsep(text);
  } catch (err) {
    const e = err as Error & { index?: number; description?: string };
    throw new ExpressionError(`${e.description ?? e.message}`, typeof e.index === 'number' ? e.index : null);
  }
  if (tree.type === 'Compound') throw new ExpressionError('one expression, please (no commas or semicolons)');
  checkShape(tree);
  const unknown = unknownNames(tree, names);
  if (unknown.length)
    throw new ExpressionError(
      `unknown name${unknown.length > 1 ? 's' : ''} ${listFew(unknown.map((x) => `"${x.slice(0, 100)}"`))}; the names are ${Object.keys(names).join(', ')}`,
    );
  const c = compileNode(tree, names);
  if (c.type !== 'boolean') throw new ExpressionError('the expression must be true or false for each molecule (a comparison, e.g. mw <= 500)');
  return (env) => c.run(env) === true;
}
