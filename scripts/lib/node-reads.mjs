// Every SQL statement in src/ that reads the context store (`FROM nodes`, `JOIN nodes`, the
// same for `nodes_fts`), with the function it is written in and whether that function builds
// its visibility condition through the read gate (src/adapters/d1/d1-read-gate.ts, or
// `filterSql`, which is built from it). tests/tooling/node-reads.test.mjs checks the list
// against its allow-list (docs/invariants.md#one-read-gate).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** SQL that reads the node table or its full-text index. */
const READS = /\b(FROM|JOIN)\s+nodes(_fts)?\b/i;

/** What builds a condition through the gate: the gate module's exports, and filterSql. */
export const GATE_BUILDERS = ["gateCondition", "gateArms", "gateJson", "filterSql"];

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* sourceFiles(p);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) yield p;
  }
}

const literalText = (node) => {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join("${}");
  return null;
};

/** The function a node is written in, as `Class.method`, `function` or a top-level `const`. */
function ownerOf(node) {
  for (let p = node.parent; p; p = p.parent) {
    if ((ts.isMethodDeclaration(p) || ts.isFunctionDeclaration(p)) && p.name) {
      const name = p.name.getText();
      return {
        name: ts.isClassLike(p.parent) && p.parent.name ? `${p.parent.name.text}.${name}` : name,
        body: p,
      };
    }
    if (
      ts.isVariableDeclaration(p) &&
      ts.isVariableStatement(p.parent?.parent) &&
      ts.isSourceFile(p.parent.parent.parent)
    )
      return { name: p.name.getText(), body: p };
  }
  return { name: "<top level>", body: null };
}

/** Identifiers called or referenced inside a node. */
function identifiersIn(node) {
  const out = new Set();
  const visit = (n) => {
    if (ts.isIdentifier(n)) out.add(n.text);
    ts.forEachChild(n, visit);
  };
  if (node) visit(node);
  return out;
}

/**
 * SQL that reads the message log (its rows, its FTS index, its turn windows), and what builds
 * the log's gate: `messageGateSql` (src/adapters/d1/d1-message-gate.ts), which keeps another
 * chat's marked messages from a turn.
 */
const MESSAGE_READS = /\b(FROM|JOIN)\s+(messages|messages_fts|message_windows|message_windows_fts)\b/i;
export const MESSAGE_GATE_BUILDERS = ["messageGateSql"];

/** The file's own helpers that call a gate builder count as gate builders too (`const gate = …`). */
function gateNames(sf, builders = GATE_BUILDERS) {
  const names = new Set(builders);
  const tops = [];
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st) && st.name) tops.push([st.name.text, st]);
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations)
        if (ts.isIdentifier(d.name)) tops.push([d.name.text, d]);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, decl] of tops) {
      if (names.has(name)) continue;
      if ([...identifiersIn(decl)].some((id) => id !== name && names.has(id))) {
        names.add(name);
        changed = true;
      }
    }
  }
  return names;
}

/** The node reads of one file's text: `{ file, owner, gated }` per statement. */
export function nodeReadsOf(file, text) {
  return gatedReadsOf(file, text, READS, GATE_BUILDERS);
}

/** The message-log reads of one file's text: `{ file, owner, gated }` per statement. */
export function messageReadsOf(file, text) {
  return gatedReadsOf(file, text, MESSAGE_READS, MESSAGE_GATE_BUILDERS);
}

function gatedReadsOf(file, text, reads, builders) {
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const gates = gateNames(sf, builders);
  const out = [];
  const visit = (node) => {
    const lit = literalText(node);
    if (lit !== null && reads.test(lit)) {
      const owner = ownerOf(node);
      const used = identifiersIn(owner.body);
      out.push({ file, owner: owner.name, gated: [...gates].some((g) => used.has(g) && g !== owner.name) });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every node read under `root/src`, files relative to `root`. */
export function nodeReads(root) {
  return readsUnder(root, nodeReadsOf);
}

/** Every message-log read under `root/src`, files relative to `root`. */
export function messageReads(root) {
  return readsUnder(root, messageReadsOf);
}

function readsUnder(root, readsOf) {
  const out = [];
  for (const file of sourceFiles(path.join(root, "src"))) {
    out.push(...readsOf(path.relative(root, file).split(path.sep).join("/"), readFileSync(file, "utf8")));
  }
  return out;
}
