import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One exported name of one file, and the files that use it (through any chain of re-exports). */
interface ExportUse {
  /** The declaring file, relative to the repository root. */
  readonly file: string;
  readonly name: string;
  /** Files other than `file` that import the name, re-exporting files (index.ts) not counted. */
  readonly users: readonly string[];
  /** Files that re-export it (`export … from`), a folder's index.ts most often. */
  readonly reexportedBy: readonly string[];
  /** Whether the declaring file itself names it besides its declaration. */
  readonly usedInOwnFile: boolean;
}

interface ModuleFacts {
  /** Names declared here with `export`. */
  readonly declared: Set<string>;
  /** `export { local as name } from './x'`: name → [target file, its name]. */
  readonly reexports: Map<string, readonly [string, string]>;
  /** `export * from './x'`. */
  readonly reexportAll: string[];
  /** [target file, name] pairs this file imports and uses ('*' for every name). */
  readonly imports: (readonly [string, string])[];
  readonly text: string;
}

/** Every `.ts` file under `folder`, relative to `root`, recursively. */
function sourcesUnder(root: string, folder: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    if (!existsSync(path)) return;
    for (const entry of readdirSync(path)) {
      if (entry === 'node_modules') continue;
      const full = join(path, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith('.ts') && !full.endsWith('.d.ts')) found.push(relative(root, full));
    }
  };
  walk(join(root, folder));
  return found;
}

/** The repository file a relative specifier names, or undefined for a package. */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(root, dirname(from), specifier);
  for (const candidate of [
    base.replace(/\.js$/, '.ts'),
    `${base}.ts`,
    join(base, 'index.ts'),
    base,
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate);
  }
  return undefined;
}

const hasExport = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/** What one file declares, re-exports and imports, read from its syntax alone. */
function factsOf(root: string, file: string): ModuleFacts {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const facts: ModuleFacts = {
    declared: new Set(),
    reexports: new Map(),
    reexportAll: [],
    imports: [],
    text,
  };
  const target = (specifier: ts.Expression | undefined) =>
    specifier && ts.isStringLiteral(specifier)
      ? resolveSpecifier(root, file, specifier.text)
      : undefined;
  const namespaceUses = (local: string, to: string) => {
    const members = [...text.matchAll(new RegExp(`\\b${local}\\.(\\w+)`, 'g'))].map(
      (match) => match[1] ?? '',
    );
    const bare = [...text.matchAll(new RegExp(`\\b${local}\\b(?!\\.)`, 'g'))].length;
    // Declared once in the import; any other bare use (spread, Object.values) takes them all.
    if (bare > 1) facts.imports.push([to, '*']);
    for (const member of members) facts.imports.push([to, member]);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const to = target(statement.moduleSpecifier);
      const clause = statement.importClause;
      if (!to || !clause) continue;
      if (clause.name) facts.imports.push([to, 'default']);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) namespaceUses(bindings.name.text, to);
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          facts.imports.push([to, (element.propertyName ?? element.name).text]);
        }
      }
    } else if (ts.isExportDeclaration(statement)) {
      const to = target(statement.moduleSpecifier);
      const clause = statement.exportClause;
      if (!clause) {
        if (to) facts.reexportAll.push(to);
      } else if (ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          const local = (element.propertyName ?? element.name).text;
          if (to) facts.reexports.set(element.name.text, [to, local]);
          else facts.declared.add(element.name.text);
        }
      } else if (to) {
        facts.imports.push([to, '*']);
      }
    } else if (hasExport(statement)) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) facts.declared.add(declaration.name.text);
        }
      } else if (
        (ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isEnumDeclaration(statement)) &&
        statement.name
      ) {
        facts.declared.add(statement.name.text);
      }
    }
  }
  // `import('./x.js')` in code or types: the member named after it, or every name.
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0]
    ) {
      const to = target(node.arguments[0]);
      if (to) facts.imports.push([to, '*']);
    } else if (ts.isImportTypeNode(node)) {
      const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      const to = literal && ts.isStringLiteral(literal) ? target(literal) : undefined;
      if (to) {
        const qualifier = node.qualifier;
        const first = qualifier
          ? ts.isIdentifier(qualifier)
            ? qualifier.text
            : ts.isIdentifier(qualifier.left)
              ? qualifier.left.text
              : '*'
          : '*';
        facts.imports.push([to, first]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return facts;
}

/**
 * Every name exported by a file under `roots` (relative to `root`), with the files that use it:
 * an import through any chain of `export … from` counts for the declaring file, the re-exporting
 * index does not. Read from syntax alone, so it is fast and sees no types.
 */
export function exportUses(root: string, roots: readonly string[]): ExportUse[] {
  const files = roots.flatMap((folder) =>
    folder.endsWith('.ts') ? [folder] : sourcesUnder(root, folder),
  );
  const facts = new Map(files.map((file) => [file, factsOf(root, file)]));
  const users = new Map<string, Set<string>>();
  const key = (file: string, name: string) => `${file}\0${name}`;
  const use = (file: string, name: string, user: string, seen = new Set<string>()): void => {
    const module = facts.get(file);
    if (!module || seen.has(key(file, name))) return;
    seen.add(key(file, name));
    if (name === '*') {
      for (const declared of module.declared) use(file, declared, user, seen);
      for (const reexported of module.reexports.keys()) use(file, reexported, user, seen);
      for (const all of module.reexportAll) use(all, '*', user, seen);
      return;
    }
    if (module.declared.has(name)) {
      const set = users.get(key(file, name)) ?? new Set();
      set.add(user);
      users.set(key(file, name), set);
      return;
    }
    const reexport = module.reexports.get(name);
    if (reexport) {
      use(reexport[0], reexport[1], user, seen);
      return;
    }
    for (const all of module.reexportAll) use(all, name, user, seen);
  };
  /** The file that declares `name` as `file` exports it, following re-exports. */
  const originOf = (file: string, name: string, depth = 0): [string, string] | undefined => {
    const module = facts.get(file);
    if (!module || depth > 20) return undefined;
    if (module.declared.has(name)) return [file, name];
    const reexport = module.reexports.get(name);
    if (reexport) return originOf(reexport[0], reexport[1], depth + 1);
    for (const all of module.reexportAll) {
      const found = originOf(all, name, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  for (const [file, module] of facts) {
    for (const [to, name] of module.imports) use(to, name, file);
  }
  const reexporters = new Map<string, Set<string>>();
  for (const [file, module] of facts) {
    const names = [...module.reexports.keys()];
    for (const all of module.reexportAll) names.push(...(facts.get(all)?.declared ?? []));
    for (const name of names) {
      const origin = originOf(file, name);
      if (!origin) continue;
      const set = reexporters.get(key(...origin)) ?? new Set();
      set.add(file);
      reexporters.set(key(...origin), set);
    }
  }
  return [...facts].flatMap(([file, module]) =>
    [...module.declared].map((name) => ({
      file,
      name,
      users: [...(users.get(key(file, name)) ?? [])].filter((user) => user !== file).sort(),
      reexportedBy: [...(reexporters.get(key(file, name)) ?? [])].sort(),
      usedInOwnFile:
        [...module.text.matchAll(new RegExp(`(?<![\\w$.])${name}(?![\\w$])`, 'g'))].length > 1,
    })),
  );
}
