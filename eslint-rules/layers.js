// @ts-check
import path from 'node:path';

/**
 * The engine's layers, lowest first (STYLE.md "Layers you can lint", VS Code's
 * code-import-patterns): a folder of src-main may import its own layer and the layers below it,
 * never one above. Checked for static imports, re-exports and dynamic `import(...)` alike.
 *   0 core, contract        shared types and vocabularies (the contract is also the renderer's)
 *   1 storage, models       LanceDB and library files; llama.cpp and transformers.js
 *   2 ingest, chunking, enrich   parse, chunk, enrich (CNM, keys, model vocabulary)
 *   3 index, search         write side (indexer, journal, rebuild, embed/LLM jobs); read side (stages)
 *   4 chat
 *   5 engine                service, jobs and writer lock, presenters, dispatch
 *   6 cli, bridge, electron, eval   the doors, each entering through `dispatch`
 */
export const LAYERS = [['core', 'contract'], ['storage', 'models'], ['ingest', 'chunking', 'enrich'], ['index', 'search'], ['chat'], ['engine'], ['cli', 'bridge', 'electron', 'eval']];

/** Folder -> layer number. */
const LAYER_OF = new Map(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i])));

/**
 * Packages only one folder may load (static imports are also checked by no-restricted-imports;
 * this rule adds the dynamic `await import(...)` that rule cannot see).
 */
export const OWNED_PACKAGES = {
  '@lancedb/lancedb': ['storage'],
  'node-llama-cpp': ['models'],
  '@huggingface/transformers': ['models'],
  electron: ['electron'],
};

/** The src-main folder a path lies in, or null. */
function folderOf(file) {
  const parts = path.normalize(file).split(path.sep);
  const at = parts.lastIndexOf('src-main');
  return at === -1 || parts.length - at < 3 ? null : (parts[at + 1] ?? null);
}

/** @type {import('eslint').Rule.RuleModule} */
const layerOrder = {
  meta: {
    type: 'problem',
    docs: { description: 'src-main folders import only their own layer and the layers below it' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const own = folderOf(file);
    const ownLayer = own === null ? undefined : LAYER_OF.get(own);
    if (own === null || ownLayer === undefined) return {};
    /** @param {import('estree').Node} node @param {unknown} source @param {boolean} dynamic */
    function check(node, source, dynamic) {
      if (typeof source !== 'string') return;
      if (source.startsWith('.')) {
        const target = folderOf(path.resolve(path.dirname(file), source));
        const layer = target === null ? undefined : LAYER_OF.get(target);
        if (target === null || layer === undefined || layer <= ownLayer) return;
        context.report({
          node,
          message: `src-main/${own}/ (layer ${ownLayer}) may not import src-main/${target}/ (layer ${layer}); layers: ${LAYERS.map((l) => l.join(', ')).join(' < ')}.`,
        });
        return;
      }
      if (!dynamic) return;
      const pkg = Object.keys(OWNED_PACKAGES).find((p) => source === p || source.startsWith(`${p}/`));
      if (pkg && !OWNED_PACKAGES[pkg].includes(own)) {
        context.report({ node, message: `Only src-main/${OWNED_PACKAGES[pkg].join(', ')}/ may load ${pkg}, statically or with import().` });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value, false),
      ExportAllDeclaration: (node) => check(node, node.source.value, false),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, false),
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value, true);
        else if (node.source.type === 'TemplateLiteral' && node.source.expressions.length === 0) check(node, node.source.quasis[0]?.value.cooked, true);
        else context.report({ node, message: 'import() takes a string literal here, so the layer rules can check it.' });
      },
    };
  },
};

/** The local plugin: `manualmate/layer-order`. */
export default { rules: { 'layer-order': layerOrder } };
