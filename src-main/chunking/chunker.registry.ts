/** The chunker registry, importable on its own: `createChunker(strategy, options)` validates options once. */
export { CHUNKER_OPTION_SCHEMAS, createChunker } from './chunker';
