// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import layers from './eslint-rules/layers.js';

/**
 * Import boundaries, enforced rather than documented (STYLE.md, VS Code's layering):
 * - only the Electron shell (src-main/electron) imports `electron`;
 * - the renderer imports nothing from src-main but the API contract and core's pure vocabularies;
 * - only the storage module imports LanceDB, only the model runtime imports node-llama-cpp or
 *   transformers.js; everything else depends on small interfaces;
 * - the engine's folders form layers (core, contract < storage, models < ingest, chunking, enrich
 *   < index, search < chat < engine < cli, bridge, electron, eval): each imports only its own
 *   layer and those below, statically or with import() (eslint-rules/layers.js).
 */
const NATIVE_RUNTIMES = [
  { name: '@lancedb/lancedb', message: 'Only src-main/storage/ may import LanceDB; depend on the ChunkStore interface.' },
  { name: 'node-llama-cpp', message: 'Only src-main/models/ may import node-llama-cpp; depend on the Llm interface.' },
  { name: '@huggingface/transformers', message: 'Only src-main/models/ may import transformers.js; depend on the Embedder interface.' },
];
const ELECTRON = { name: 'electron', message: 'The engine is plain Node: only src-main/electron/ may import electron.' };

/** @param {{name:string,message:string}[]} paths */
const restrict = (paths, patterns = []) => ['error', { paths, patterns }];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'tests/.output/**', 'tests/.models/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src-main/**/*.ts'],
    plugins: { manualmate: layers },
    rules: { 'manualmate/layer-order': 'error' },
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**', 'src-main/storage/**', 'src-main/models/**'],
    rules: { 'no-restricted-imports': restrict([ELECTRON, ...NATIVE_RUNTIMES]) },
  },
  {
    files: ['src-main/storage/**/*.ts'],
    rules: { 'no-restricted-imports': restrict([ELECTRON, ...NATIVE_RUNTIMES.filter((p) => p.name !== '@lancedb/lancedb')]) },
  },
  {
    files: ['src-main/models/**/*.ts'],
    rules: { 'no-restricted-imports': restrict([ELECTRON, NATIVE_RUNTIMES[0]]) },
  },
  {
    files: ['src-main/electron/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(NATIVE_RUNTIMES) },
  },
  {
    files: ['src-main/contract/**/*.ts'],
    rules: {
      // The contract is shared with the renderer: types and zod only, no Node, no engine.
      'no-restricted-imports': restrict(
        [ELECTRON, ...NATIVE_RUNTIMES],
        [
          { group: ['node:*'], message: 'The contract is shared with the renderer: no Node modules.' },
          { regex: '^\\.\\./(?!core/)', message: 'The contract imports only zod, its own files and src-main/core.' },
        ],
      ),
    },
  },
  {
    files: ['src-main/core/**/*.ts'],
    rules: {
      // core/ is like VS Code's common/: pure types and logic, importable from anywhere.
      'no-restricted-imports': restrict(
        [ELECTRON, ...NATIVE_RUNTIMES],
        [
          { group: ['node:*'], message: 'src-main/core is pure: no Node modules.' },
          { regex: '^\\.\\./', message: 'src-main/core imports nothing outside itself.' },
        ],
      ),
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': restrict(
        [ELECTRON, ...NATIVE_RUNTIMES],
        [
          {
            // core/ is pure shared vocabulary (no Node, imports nothing outside itself), like the contract.
            regex: '(^|/)src-main/(?!contract/|core/)',
            message: 'The renderer talks only to the API contract (src-main/contract) and the shared vocabularies (src-main/core).',
          },
          { group: ['node:*'], message: 'The renderer runs in a sandboxed browser page: no Node modules.' },
        ],
      ),
    },
  },
);
