/**
 * The Arrow schema of the `chunks` table and the conversion between `ChunkRecord` and table rows.
 * Columns are snake_case so filters never need quoted identifiers; list fields are list<utf8>,
 * members are a JSON string (read whole, never filtered).
 */

import { createRequire } from 'node:module';
import type * as ArrowModule from 'apache-arrow';
import { CHUNK_STRATEGIES, type ChunkStrategy, type SignatureSource } from '../core/chunk';
import { CodedError } from '../core/result';
import { normalizeModelKey, type ChunkInput, type ChunkRecord, type MemberRef, type VectorLike } from './chunk-store';

// LanceDB is CommonJS and checks `instanceof` against the CommonJS build of apache-arrow; an ESM
// import would load the second (ESM) copy and `addColumns(field)` would reject our fields.
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof ArrowModule;

export const TABLE_NAME = 'chunks';
export const VECTOR_COLUMN = 'vector';
/** Bumped when columns change incompatibly; a table with another version is 'unsupported'. */
export const SCHEMA_VERSION = '2';
export const SCHEMA_VERSION_KEY = 'manualmate.schema';
/** Field metadata on the vector column naming the embedder that produced the vectors. */
export const EMBEDDER_KEY = 'manualmate.embedder';
/** Upper bound on a vector dimension; real embedders use 256..4096. */
export const MAX_VECTOR_DIMENSION = 16_384;

const INT32_MAX = 2 ** 31 - 1;

const utf8List = () => new arrow.List(new arrow.Field('item', new arrow.Utf8(), true));

/** The packed result column (see `PACKED_RESULT_COLUMNS`); tables written before it lack it. */
export const RESULT_JSON_COLUMN = 'result_json';

/** Every column but the vector, in table order; also the projection of every read. */
const BASE_FIELDS: [name: string, type: () => ArrowModule.DataType, nullable: boolean][] = [
  ['id', () => new arrow.Utf8(), false],
  ['doc_id', () => new arrow.Utf8(), false],
  ['ordinal', () => new arrow.Int32(), false],
  ['text', () => new arrow.Utf8(), false],
  // Empty when it equals `text` (most chunks of a library without prefixes): see `toRow`.
  ['indexed_text', () => new arrow.Utf8(), false],
  ['heading_path', utf8List, false],
  ['page_start', () => new arrow.Int32(), true],
  ['page_end', () => new arrow.Int32(), true],
  ['char_start', () => new arrow.Int32(), false],
  ['char_end', () => new arrow.Int32(), false],
  ['strategy', () => new arrow.Utf8(), false],
  ['section_type', () => new arrow.Utf8(), true],
  ['category', () => new arrow.Utf8(), true],
  ['nouns', utf8List, false],
  ['model', () => new arrow.Utf8(), true],
  ['model_key', () => new arrow.Utf8(), true],
  ['signature_source', () => new arrow.Utf8(), true],
  // int8 1/0/null rather than bool: apache-arrow 18 writes an all-null bool batch without a value
  // buffer and LanceDB rejects it ("Need at least 1 bytes for bitmap"), seen with 0.31.
  ['continuous', () => new arrow.Int8(), true],
  ['semantic_key', () => new arrow.Utf8(), true],
  ['keywords', utf8List, false],
  ['entities', utf8List, false],
  ['questions', utf8List, false],
  ['related_keys', utf8List, false],
  ['title', () => new arrow.Utf8(), true],
  ['summary', () => new arrow.Utf8(), true],
  ['members_json', () => new arrow.Utf8(), false],
  ['parent_id', () => new arrow.Utf8(), true],
  // What the full-text index sees (derived on write, never read back): see `searchAnalyzed`.
  ['search_text', () => new arrow.Utf8(), false],
  // The fields a search result shows, packed (derived on write): see `PACKED_RESULT_COLUMNS`.
  [RESULT_JSON_COLUMN, () => new arrow.Utf8(), true],
];

/** Derived columns: written for the indexes and for fast reads, not part of a record. */
const DERIVED_COLUMNS = new Set(['search_text', RESULT_JSON_COLUMN]);
/** Columns added after schema 2 shipped: a table without them still opens (and is read without them). */
const OPTIONAL_COLUMNS = new Set([RESULT_JSON_COLUMN]);

/**
 * Text as the full-text index sees it. ICU keeps `UART1_TX_M0` as one token, so a question
 * about "UART1 TX" would never match it; identifiers are split at underscores (queries too).
 */
export function searchAnalyzed(text: string): string {
  return text.replace(/_/g, ' ');
}

/** Columns a light search returns: what model-aware ranking needs before text is read. */
export const STUB_COLUMNS: readonly string[] = ['id', 'model', 'parent_id'];

/** Columns a light read adds to a stub: what reranking and a search result need. */
export const RESULT_COLUMNS: readonly string[] = [
  'doc_id',
  'text',
  'indexed_text',
  'heading_path',
  'page_start',
  'page_end',
  'char_start',
  'char_end',
  'title',
  'category',
  'nouns',
];

/** Columns a light read returns (stub + result columns); other record fields come back empty. */
export const LIGHT_COLUMNS: readonly string[] = [...STUB_COLUMNS, ...RESULT_COLUMNS];

/**
 * `RESULT_COLUMNS` as a table with the packed column stores them: reading a row costs per column
 * (at 100k rows on 2 cores, 20 rows x 11 columns took 3.4 ms, x 4 columns 1.9 ms), so the small
 * result fields are also written as one JSON column, and light reads take the texts and that.
 */
export const PACKED_RESULT_COLUMNS: readonly string[] = ['doc_id', 'text', 'indexed_text', RESULT_JSON_COLUMN];

/** True when a table stores the packed result column (tables written before it keep working without). */
export function hasPackedResults(schema: ArrowModule.Schema): boolean {
  return schema.fields.some((f) => f.name === RESULT_JSON_COLUMN);
}

/** The result fields as packed into `result_json`. */
interface PackedResult {
  headingPath: string[];
  pageStart: number | null;
  pageEnd: number | null;
  start: number;
  end: number;
  title: string | null;
  category: string | null;
  nouns: string[];
}

/** Columns returned by reads: everything except the vector and the derived search columns. */
export const RECORD_COLUMNS: readonly string[] = BASE_FIELDS.map(([name]) => name).filter((n) => !DERIVED_COLUMNS.has(n));

/** The vector column: fixed-size list of float32, null until the record is embedded. */
export function vectorField(dimension: number, embedderId: string | null): ArrowModule.Field {
  const metadata = new Map<string, string>(embedderId ? [[EMBEDDER_KEY, embedderId]] : []);
  return new arrow.Field(
    VECTOR_COLUMN,
    new arrow.FixedSizeList(dimension, new arrow.Field('item', new arrow.Float32(), true)),
    true,
    metadata,
  );
}

/** The table schema; without a dimension the table has no vector column at all. */
export function chunkSchema(dimension: number | null, embedderId: string | null): ArrowModule.Schema {
  const fields = BASE_FIELDS.map(([name, type, nullable]) => new arrow.Field(name, type(), nullable));
  if (dimension !== null) fields.push(vectorField(dimension, embedderId));
  return new arrow.Schema(fields, new Map([[SCHEMA_VERSION_KEY, SCHEMA_VERSION]]));
}

/** Schema for partial writes that touch only id and vector (in-place embedding). */
export function vectorUpdateSchema(dimension: number): ArrowModule.Schema {
  return new arrow.Schema([new arrow.Field('id', new arrow.Utf8(), false), vectorField(dimension, null)]);
}

/** What an opened table says about itself. */
export interface TableShape {
  vectorDimension: number | null;
  embedderId: string | null;
}

/** Reads the vector shape of an existing table; throws 'unsupported' for a foreign schema. */
export function readTableShape(schema: ArrowModule.Schema): TableShape {
  const version = schema.metadata.get(SCHEMA_VERSION_KEY);
  const names = new Set(schema.fields.map((f) => f.name));
  const missing = BASE_FIELDS.map(([n]) => n).filter((c) => !names.has(c) && !OPTIONAL_COLUMNS.has(c));
  if (version !== SCHEMA_VERSION || missing.length > 0) {
    throw new CodedError(
      'unsupported',
      `This library's chunk table was written by a different version of ManualMate (schema ${version ?? 'unknown'}); re-import the library to rebuild it.`,
    );
  }
  const field = schema.fields.find((f) => f.name === VECTOR_COLUMN);
  if (!field) return { vectorDimension: null, embedderId: null };
  if (!arrow.DataType.isFixedSizeList(field.type)) {
    throw new CodedError('unsupported', 'The vector column of this library has an unexpected type; re-import the library.');
  }
  return { vectorDimension: field.type.listSize, embedderId: field.metadata.get(EMBEDDER_KEY) ?? null };
}

/** A row as written to LanceDB (column name -> value). */
export type ChunkRow = Record<string, unknown>;

function invalid(message: string): never {
  throw new CodedError('invalid-input', message);
}

function checkInt(value: unknown, what: string, id: string, nullable: boolean): number | null {
  if (value === null && nullable) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > INT32_MAX) {
    invalid(`Chunk ${id}: ${what} must be a non-negative 32-bit integer${nullable ? ' or null' : ''}.`);
  }
  return value;
}

function checkStrings(value: unknown, what: string, id: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) invalid(`Chunk ${id}: ${what} must be a list of strings.`);
  return [...(value as string[])];
}

function optString(value: unknown, what: string, id: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') invalid(`Chunk ${id}: ${what} must be a string or null.`);
  return value;
}

/**
 * Checks a vector against the table's dimension and converts it to float32. A wrong length is
 * 'model-mismatch': LanceDB itself accepts it silently and stores garbage (seen in 0.31).
 */
export function toFloat32(vector: VectorLike, dimension: number | null, what: string): Float32Array {
  if (dimension === null) {
    throw new CodedError('model-mismatch', `${what}: this library stores no vectors (no embedder was configured when it was opened).`);
  }
  if (vector.length !== dimension) {
    throw new CodedError('model-mismatch', `${what}: vector has ${vector.length} dimensions, the library stores ${dimension}.`);
  }
  const out = Float32Array.from(vector);
  if (!out.every(Number.isFinite)) invalid(`${what}: vector contains a non-finite number.`);
  return out;
}

/** Validates a record and converts it to a row; throws 'invalid-input' / 'model-mismatch'. */
export function toRow(input: ChunkInput, dimension: number | null): ChunkRow {
  const id = input.id;
  if (typeof id !== 'string' || id === '') invalid('Every chunk needs a non-empty string id.');
  if (typeof input.docId !== 'string' || input.docId === '') invalid(`Chunk ${id}: docId must be a non-empty string.`);
  if (typeof input.text !== 'string' || typeof input.indexedText !== 'string') invalid(`Chunk ${id}: text and indexedText must be strings.`);
  if (!(CHUNK_STRATEGIES as readonly string[]).includes(input.strategy)) invalid(`Chunk ${id}: unknown strategy ${String(input.strategy)}.`);
  const start = checkInt(input.start, 'start', id, false)!;
  const end = checkInt(input.end, 'end', id, false)!;
  if (end < start) invalid(`Chunk ${id}: end (${end}) is before start (${start}).`);
  const row: ChunkRow = {
    id,
    doc_id: input.docId,
    ordinal: checkInt(input.ordinal, 'ordinal', id, false),
    text: input.text,
    // Not stored twice: an empty value reads back as `text` (`fromRow`). Rows written before keep
    // their full copy, which reads back the same. The column stays non-nullable so that new rows
    // still fit the tables older versions created.
    indexed_text: input.indexedText === input.text ? '' : input.indexedText,
    heading_path: checkStrings(input.headingPath, 'headingPath', id),
    page_start: checkInt(input.pageStart ?? null, 'pageStart', id, true),
    page_end: checkInt(input.pageEnd ?? null, 'pageEnd', id, true),
    char_start: start,
    char_end: end,
    strategy: input.strategy,
    section_type: optString(input.sectionType, 'sectionType', id),
    category: optString(input.category, 'category', id),
    nouns: checkStrings(input.nouns, 'nouns', id),
    model: optString(input.model, 'model', id),
    model_key: normalizeModelKey(input.model),
    signature_source: optString(input.signatureSource, 'signatureSource', id),
    continuous: typeof input.continuous === 'boolean' ? Number(input.continuous) : null,
    semantic_key: optString(input.key, 'key', id),
    keywords: checkStrings(input.keywords, 'keywords', id),
    entities: checkStrings(input.entities, 'entities', id),
    questions: checkStrings(input.questions, 'questions', id),
    related_keys: checkStrings(input.relatedKeys, 'relatedKeys', id),
    title: optString(input.title, 'title', id),
    summary: optString(input.summary, 'summary', id),
    members_json: JSON.stringify(
      (input.members ?? []).map((m) => ({
        ordinal: checkInt(m.ordinal, 'members.ordinal', id, false),
        start: checkInt(m.start, 'members.start', id, false),
        end: checkInt(m.end, 'members.end', id, false),
        pageStart: checkInt(m.pageStart ?? null, 'members.pageStart', id, true),
        pageEnd: checkInt(m.pageEnd ?? null, 'members.pageEnd', id, true),
      })),
    ),
    parent_id: optString(input.parentId, 'parentId', id),
    search_text: searchAnalyzed(input.indexedText),
  };
  const packed: PackedResult = {
    headingPath: row.heading_path as string[],
    pageStart: row.page_start as number | null,
    pageEnd: row.page_end as number | null,
    start,
    end,
    title: row.title as string | null,
    category: row.category as string | null,
    nouns: row.nouns as string[],
  };
  row[RESULT_JSON_COLUMN] = JSON.stringify(packed);
  if (dimension !== null) row[VECTOR_COLUMN] = input.vector == null ? null : toFloat32(input.vector, dimension, `Chunk ${id}`);
  else if (input.vector != null) toFloat32(input.vector, dimension, `Chunk ${id}`);
  return row;
}

// Arrow hands back list columns as Vectors; both Vectors and arrays are iterable.
function strings(value: unknown): string[] {
  if (value == null) return [];
  return Array.from(value as Iterable<unknown>, (v) => String(v));
}

function nullableString(value: unknown): string | null {
  return value == null ? null : String(value);
}

function nullableInt(value: unknown): number | null {
  return value == null ? null : Number(value);
}

/** Converts a row read back from LanceDB into a record; a packed result column fills its fields. */
export function fromRow(input: Record<string, unknown>): ChunkRecord {
  const row = input[RESULT_JSON_COLUMN] == null || input.char_start != null ? input : unpack(input);
  const text = row.text == null ? '' : String(row.text);
  return {
    id: String(row.id),
    docId: row.doc_id == null ? '' : String(row.doc_id),
    ordinal: Number(row.ordinal ?? 0),
    text,
    indexedText: row.indexed_text == null || row.indexed_text === '' ? text : String(row.indexed_text),
    headingPath: strings(row.heading_path),
    pageStart: nullableInt(row.page_start),
    pageEnd: nullableInt(row.page_end),
    start: Number(row.char_start ?? 0),
    end: Number(row.char_end ?? 0),
    strategy: String(row.strategy) as ChunkStrategy,
    sectionType: nullableString(row.section_type),
    category: nullableString(row.category),
    nouns: strings(row.nouns),
    model: nullableString(row.model),
    modelKey: nullableString(row.model_key),
    signatureSource: nullableString(row.signature_source) as SignatureSource | null,
    continuous: row.continuous == null ? null : Number(row.continuous) === 1,
    key: nullableString(row.semantic_key),
    keywords: strings(row.keywords),
    entities: strings(row.entities),
    questions: strings(row.questions),
    relatedKeys: strings(row.related_keys),
    title: nullableString(row.title),
    summary: nullableString(row.summary),
    // A stub (every full-text row of a light search) has none: no JSON to parse for it.
    members: row.members_json == null ? [] : (JSON.parse(String(row.members_json)) as MemberRef[]),
    parentId: nullableString(row.parent_id),
  };
}

function unpack(row: Record<string, unknown>): Record<string, unknown> {
  const p = JSON.parse(String(row[RESULT_JSON_COLUMN])) as PackedResult;
  return {
    ...row,
    heading_path: p.headingPath,
    page_start: p.pageStart,
    page_end: p.pageEnd,
    char_start: p.start,
    char_end: p.end,
    title: p.title,
    category: p.category,
    nouns: p.nouns,
  };
}
