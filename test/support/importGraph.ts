/**
 * The import graph of a source tree as TypeScript reads it — value, type-only, re-export and
 * dynamic imports alike — and its cycles, for the test that keeps the tree free of them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** File (relative to the root, with `/`) → the files it imports, within the tree. */
export type ImportGraph = Map<string, Set<string>>;

export function importGraph(root: string): ImportGraph {
  const files = tsFiles(root);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const to = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveModule(resolve(dirname(file), fileName));
      if (target) to.add(name(root, target));
    }
    graph.set(name(root, file), to);
  }
  return graph;
}

/** The graph of the folders directly under `prefix` (e.g. `src/core/`): an edge where a file of one imports a file of another. */
export function folderGraph(graph: ImportGraph, prefix: string): ImportGraph {
  const folder = (f: string) => (f.startsWith(prefix) && f.slice(prefix.length).includes('/') ? prefix + f.slice(prefix.length).split('/')[0] : undefined);
  const out: ImportGraph = new Map();
  for (const [from, tos] of graph) {
    const a = folder(from);
    if (!a) continue;
    if (!out.has(a)) out.set(a, new Set());
    for (const to of tos) {
      const b = folder(to);
      if (b && b !== a) out.get(a)!.add(b);
    }
  }
  return out;
}

/** Each cycle of `graph` (its strongly connected components of more than one node, or a node importing itself), nodes sorted. */
export function cycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a deep tree cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edges: string[]; i: number }[] = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: [...(graph.get(node) ?? [])], i: 0 });
    };
    enter(start);
    while (work.length) {
      const top = work[work.length - 1];
      if (top.i < top.edges.length) {
        const to = top.edges[top.i++];
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let n: string;
      do {
        n = stack.pop()!;
        onStack.delete(n);
        component.push(n);
      } while (n !== top.node);
      if (component.length > 1 || graph.get(top.node)?.has(top.node)) found.push(component.sort());
    }
  }
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/**
 * The Node built-ins reached from `starts` through the tree's imports (type-only too), each with
 * the chain of files that reaches it: `'node:fs  timeline/a.ts > core/b.ts'`.
 */
export function builtinsReached(root: string, graph: ImportGraph, starts: readonly string[]): string[] {
  const via = new Map<string, string | undefined>(starts.map((s) => [s, undefined]));
  const todo = [...starts];
  while (todo.length) {
    const from = todo.pop()!;
    for (const to of graph.get(from) ?? []) {
      if (via.has(to)) continue;
      via.set(to, from);
      todo.push(to);
    }
  }
  const found: string[] = [];
  for (const file of via.keys()) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const builtins = importedFiles.map((i) => i.fileName).filter((n) => isBuiltin(n));
    if (!builtins.length) continue;
    const chain: string[] = [];
    for (let f: string | undefined = file; f; f = via.get(f)) chain.unshift(f);
    found.push(`${builtins.join(', ')}  ${chain.join(' > ')}`);
  }
  return found.sort();
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveModule(base: string): string | undefined {
  return [`${base}.ts`, join(base, 'index.ts'), base].find((p) => p.endsWith('.ts') && existsSync(p));
}

function name(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}
