/**
 * The import graph of the production tree, read with the TypeScript compiler's parser, so
 * `import type`, `export … from`, `import()` and `import('…').Type` count as imports the
 * same as value imports do: a boundary a type crosses is crossed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The folders production code lives in; test/ and tooling are not held to the boundaries. */
export const PRODUCTION_FOLDERS = ['actors', 'deploy', 'enclave', 'gateway', 'indexer', 'machines', 'proto'];

export interface Import {
  /** The importing file, relative to the root, with forward slashes. */
  from: string;
  /** As written. */
  specifier: string;
  /** The file it names, relative to the root, when it is one of ours; null for a package. */
  to: string | null;
  line: number;
  /** `import type`, `export type`, or every name imported is a type: no value crosses. */
  typeOnly: boolean;
}

function tsFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = posix.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') files.push(...tsFiles(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      files.push(path);
    }
  }
  return files;
}

export function productionFiles(): string[] {
  return PRODUCTION_FOLDERS.flatMap(tsFiles).sort();
}

/** `./x.js` names `./x.ts` in the source tree (NodeNext specifiers name the emitted file). */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = relative(ROOT, join(ROOT, dirname(from), specifier))
    .split(sep)
    .join('/');
  return target.endsWith('.js') ? `${target.slice(0, -'.js'.length)}.ts` : target;
}

export function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (literal: ts.Node, typeOnly: boolean) => {
    if (!ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    found.push({ from: file, specifier: literal.text, to: resolve(file, literal.text), line, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier, node.isTypeOnly || (!!named && named.length > 0 && named.every((element) => element.isTypeOnly)));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every import cycle among `files`, each as the files around it (the first repeated last), found by Tarjan's algorithm. */
export function importCycles(imports: Map<string, Import[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const next = (file: string) => [...new Set((imports.get(file) ?? []).flatMap((edge) => (edge.to && imports.has(edge.to) ? [edge.to] : [])))];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of next(file)) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || next(file).includes(file)) components.push(component);
    }
  };
  for (const file of imports.keys()) if (!index.has(file)) visit(file);
  // One cycle through each strongly connected set: the shortest way back to its first file.
  return components.map((component) => shortestCycle(component.sort()[0]!, new Set(component), next));
}

function shortestCycle(start: string, within: Set<string>, next: (file: string) => string[]): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    for (const to of next(file)) {
      if (!within.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = file; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** The lines of `file` that call a function named `name`. */
export function callsOf(file: string, name: string): number[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name) {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

/** The lines of `file` that re-export a whole module (`export * from`), which hide what an entry file offers. */
export function starExportsOf(file: string): number[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  return source.statements
    .filter((statement) => ts.isExportDeclaration(statement) && !statement.exportClause && statement.moduleSpecifier !== undefined)
    .map((statement) => source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1);
}
