/**
 * api-extractor (7.60) leaves `declare global { … }` blocks out of its rollup, yet the widget's
 * typing of `document.addEventListener('Service.…')` and `window.Service` lives in one
 * (src/widget/public-types.ts). This copies such blocks from the declarations tsc emitted into
 * the rolled-up file, after checking that every name a block uses is declared there under the
 * same name (api-extractor renames on collisions, e.g. `Foo_2`): a block that would point at a
 * missing or renamed type fails the build instead of shipping a broken d.ts.
 */
import ts from 'typescript';
import { BuildError } from './build-error';

export interface DeclarationSource {
  file: string;
  text: string;
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function isGlobalAugmentation(statement: ts.Statement): statement is ts.ModuleDeclaration {
  return ts.isModuleDeclaration(statement) && (statement.flags & ts.NodeFlags.GlobalAugmentation) !== 0;
}

/** Names a file declares or imports at its top level. */
function topLevelNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (
      (ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isFunctionDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
      }
    } else if (ts.isImportDeclaration(statement) && statement.importClause) {
      const { name, namedBindings } = statement.importClause;
      if (name) names.add(name.text);
      if (namedBindings && ts.isNamedImports(namedBindings)) namedBindings.elements.forEach((e) => { names.add(e.name.text); });
      if (namedBindings && ts.isNamespaceImport(namedBindings)) names.add(namedBindings.name.text);
    }
  }
  return names;
}

/** Identifiers a block uses as types (`Foo`, `Foo<…>`, `extends Foo`, `Foo.Bar` → `Foo`). */
function referencedNames(block: ts.Node): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    const reference = ts.isTypeReferenceNode(node) ? node.typeName : ts.isExpressionWithTypeArguments(node) ? node.expression : undefined;
    if (reference) {
      let leftmost: ts.Node = reference;
      while (ts.isQualifiedName(leftmost) || ts.isPropertyAccessExpression(leftmost)) {
        leftmost = ts.isQualifiedName(leftmost) ? leftmost.left : leftmost.expression;
      }
      if (ts.isIdentifier(leftmost)) names.add(leftmost.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(block);
  return names;
}

/** The rolled-up text with every `declare global` block of `sources` added before its last line. */
export function restoreGlobalAugmentations(rolledUp: string, sources: DeclarationSource[]): string {
  const rollup = parse('widgets.d.ts', rolledUp);
  if (rollup.statements.some(isGlobalAugmentation)) return rolledUp; // a future api-extractor kept them
  const available = topLevelNames(rollup);
  const blocks: string[] = [];
  for (const { file, text } of sources) {
    const source = parse(file, text);
    const local = topLevelNames(source);
    for (const block of source.statements.filter(isGlobalAugmentation)) {
      const missing = [...referencedNames(block)].filter((name) => local.has(name) && !available.has(name));
      if (missing.length > 0) {
        throw new BuildError(
          `the declare global block of ${file} uses ${missing.join(', ')}, which dist/widgets.d.ts does not declare ` +
            'under that name: export it from src/widget/index.ts (or rename what collides with it)',
        );
      }
      blocks.push(block.getText(source));
    }
  }
  if (blocks.length === 0) return rolledUp;
  // api-extractor ends the file with `export { }`, which keeps it a module: augmentations stay in front of it.
  const end = rolledUp.lastIndexOf('export { }');
  const at = end === -1 ? rolledUp.length : end;
  return `${rolledUp.slice(0, at)}${blocks.join('\n\n')}\n\n${rolledUp.slice(at)}`;
}
