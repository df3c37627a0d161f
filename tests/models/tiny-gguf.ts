/**
 * A tiny llama-architecture GGUF model, generated deterministically so tests can run the real
 * node-llama-cpp runtime offline (no model weights can be downloaded here, ENVIRONMENT.md).
 * Hand-written because no npm package writes GGUF files; the format is small and stable
 * (GGUF v3: header, key/value metadata, tensor infos, aligned tensor data, little-endian).
 * Its outputs are meaningless: it tests loading, streaming, grammar and embeddings, never quality.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../helpers/prng';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where `ensureTinyGguf` keeps the model, relative to the repo root. */
export const TINY_GGUF_RELATIVE_PATH = 'tests/.models/tiny-llama.gguf';

/** Model shape; `n_embd / n_head` is the head size and the rotary dimension count. */
export const TINY_GGUF_SHAPE = {
  nEmbd: 64,
  nLayer: 2,
  nHead: 4,
  nFf: 128,
  contextLength: 4096,
} as const;

const SEED = 0x5eed_1a3a;
const ALIGNMENT = 32;

// GGUF metadata value types.
const T_UINT32 = 4;
const T_INT32 = 5;
const T_FLOAT32 = 6;
const T_BOOL = 7;
const T_STRING = 8;
const T_ARRAY = 9;
const GGML_TYPE_F32 = 0;

// llama.cpp token types.
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** SentencePiece marks a word-initial space with U+2581. */
const SPACE = '\u2581';

const WORDS = [
  'the', 'and', 'to', 'of', 'a', 'in', 'is', 'for', 'on', 'with', 'this', 'that', 'it', 'you', 'be',
  'power', 'model', 'fuse', 'board', 'manual', 'voltage', 'current', 'port', 'USB', 'press', 'button',
  'set', 'setting', 'mode', 'display', 'screen', 'reset', 'device', 'connect', 'cable', 'supply',
  'check', 'page', 'step', 'install', 'error', 'warning', 'temperature', 'battery', 'charge',
  'true', 'false', 'null', 'continuous', 'category',
];
const SUFFIXES = ['ing', 'ed', 'er', 'tion', 'ly', 'es', 'ment', '":', '{"', '"}', '",', '":"', '0', '00'];

interface Vocab {
  tokens: string[];
  scores: number[];
  types: number[];
  bos: number;
  eos: number;
  unk: number;
  imStart: number;
  imEnd: number;
}

function buildVocab(): Vocab {
  const tokens: string[] = ['<unk>', '<s>', '</s>'];
  const types: number[] = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_BYTE);
  }
  const seen = new Set(tokens);
  const add = (piece: string): void => {
    if (seen.has(piece)) return;
    seen.add(piece);
    tokens.push(piece);
    types.push(TOKEN_NORMAL);
  };
  add(SPACE);
  for (let c = 0x21; c <= 0x7e; c++) add(String.fromCharCode(c));
  // SentencePiece merges two adjacent pieces only when their concatenation is in the vocab, so
  // every prefix of a multi-character piece is added to keep the whole piece reachable.
  const addWithPrefixes = (piece: string): void => {
    const chars = Array.from(piece);
    for (let n = 2; n <= chars.length; n++) add(chars.slice(0, n).join(''));
  };
  for (const word of WORDS) addWithPrefixes(SPACE + word);
  for (const suffix of SUFFIXES) addWithPrefixes(suffix);
  const imStart = tokens.length;
  tokens.push('<|im_start|>', '<|im_end|>');
  types.push(TOKEN_CONTROL, TOKEN_CONTROL);
  // Longer pieces score higher so merges prefer whole words, as in a trained SentencePiece model.
  const scores = tokens.map((t, i) => (types[i] === TOKEN_NORMAL ? Array.from(t).length - i / 1e4 : 0));
  return { tokens, scores, types, bos: 1, eos: 2, unk: 0, imStart, imEnd: imStart + 1 };
}

/**
 * Logit offset per token, applied through the constant bias channel: tokens whose text is not
 * printable ASCII (non-ASCII bytes would make the random model emit invalid UTF-8) and control
 * tokens the model should never start are pushed far down; end tokens slightly, so replies run
 * for a while before the model ends them.
 */
function tokenLogitBias(vocab: Vocab): number[] {
  return vocab.tokens.map((token, id) => {
    if (id === vocab.unk || id === vocab.bos || id === vocab.imStart) return -60;
    if (id === vocab.eos || id === vocab.imEnd) return -6;
    if (vocab.types[id] === TOKEN_BYTE) {
      const byte = Number.parseInt(token.slice(3, 5), 16);
      const printable = (byte >= 0x20 && byte < 0x7f) || byte === 0x0a;
      return printable ? 0 : -60;
    }
    return 0;
  });
}

class ByteWriter {
  private buf = Buffer.alloc(1 << 20);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  u32(v: number): void {
    this.reserve(4);
    this.length = this.buf.writeUInt32LE(v, this.length);
  }
  i32(v: number): void {
    this.reserve(4);
    this.length = this.buf.writeInt32LE(v, this.length);
  }
  u64(v: number): void {
    this.reserve(8);
    this.length = this.buf.writeBigUInt64LE(BigInt(v), this.length);
  }
  f32(v: number): void {
    this.reserve(4);
    this.length = this.buf.writeFloatLE(v, this.length);
  }
  u8(v: number): void {
    this.reserve(1);
    this.length = this.buf.writeUInt8(v, this.length);
  }
  str(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.reserve(bytes.length);
    bytes.copy(this.buf, this.length);
    this.length += bytes.length;
  }
  bytes(src: Uint8Array): void {
    this.reserve(src.length);
    this.buf.set(src, this.length);
    this.length += src.length;
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    this.reserve(pad);
    this.buf.fill(0, this.length, this.length + pad);
    this.length += pad;
  }
  result(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.length));
  }
}

type MetaValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'str'; value: string }
  | { type: 'str[]'; value: string[] }
  | { type: 'f32[]'; value: number[] }
  | { type: 'i32[]'; value: number[] };

function writeMeta(w: ByteWriter, key: string, v: MetaValue): void {
  w.str(key);
  switch (v.type) {
    case 'u32':
      w.u32(T_UINT32);
      w.u32(v.value);
      break;
    case 'f32':
      w.u32(T_FLOAT32);
      w.f32(v.value);
      break;
    case 'bool':
      w.u32(T_BOOL);
      w.u8(v.value ? 1 : 0);
      break;
    case 'str':
      w.u32(T_STRING);
      w.str(v.value);
      break;
    case 'str[]':
      w.u32(T_ARRAY);
      w.u32(T_STRING);
      w.u64(v.value.length);
      for (const s of v.value) w.str(s);
      break;
    case 'f32[]':
      w.u32(T_ARRAY);
      w.u32(T_FLOAT32);
      w.u64(v.value.length);
      for (const x of v.value) w.f32(x);
      break;
    case 'i32[]':
      w.u32(T_ARRAY);
      w.u32(T_INT32);
      w.u64(v.value.length);
      for (const x of v.value) w.i32(x);
      break;
  }
}

interface Tensor {
  name: string;
  /** ggml order: dims[0] is the fastest-varying (input) dimension. */
  dims: number[];
  data: Float32Array;
}

function buildTensors(vocab: Vocab): Tensor[] {
  const { nEmbd, nLayer, nFf } = TINY_GGUF_SHAPE;
  const nVocab = vocab.tokens.length;
  const rand = mulberry32(SEED);
  const uniform = (scale: number): number => (rand() * 2 - 1) * scale;
  // The last hidden channel is the bias channel: every token embeds it as the same constant and no
  // layer reads or writes it, so after the final RMSNorm it is a near-constant positive value and
  // the output weights on it act as a per-token logit bias.
  const bias = nEmbd - 1;
  const biasEmbed = 0.5;
  const embedScale = 0.17; // uniform(±0.17) has std ~0.1

  const matrix = (nIn: number, nOut: number, scale: number, zeroIn?: number, zeroOut?: number): Float32Array => {
    const m = new Float32Array(nIn * nOut);
    for (let o = 0; o < nOut; o++) {
      for (let i = 0; i < nIn; i++) {
        const v = uniform(scale);
        m[o * nIn + i] = i === zeroIn || o === zeroOut ? 0 : v;
      }
    }
    return m;
  };
  const ones = (): Float32Array => new Float32Array(nEmbd).fill(1);

  const tokenEmbd = matrix(nEmbd, nVocab, embedScale);
  for (let v = 0; v < nVocab; v++) tokenEmbd[v * nEmbd + bias] = biasEmbed;

  const tensors: Tensor[] = [{ name: 'token_embd.weight', dims: [nEmbd, nVocab], data: tokenEmbd }];
  const attnScale = 1 / Math.sqrt(nEmbd);
  const ffnScale = 1 / Math.sqrt(nFf);
  for (let l = 0; l < nLayer; l++) {
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [nEmbd], data: ones() },
      { name: `blk.${l}.attn_q.weight`, dims: [nEmbd, nEmbd], data: matrix(nEmbd, nEmbd, attnScale, bias) },
      { name: `blk.${l}.attn_k.weight`, dims: [nEmbd, nEmbd], data: matrix(nEmbd, nEmbd, attnScale, bias) },
      { name: `blk.${l}.attn_v.weight`, dims: [nEmbd, nEmbd], data: matrix(nEmbd, nEmbd, attnScale, bias) },
      { name: `blk.${l}.attn_output.weight`, dims: [nEmbd, nEmbd], data: matrix(nEmbd, nEmbd, attnScale, undefined, bias) },
      { name: `blk.${l}.ffn_norm.weight`, dims: [nEmbd], data: ones() },
      { name: `blk.${l}.ffn_gate.weight`, dims: [nEmbd, nFf], data: matrix(nEmbd, nFf, attnScale, bias) },
      { name: `blk.${l}.ffn_up.weight`, dims: [nEmbd, nFf], data: matrix(nEmbd, nFf, attnScale, bias) },
      { name: `blk.${l}.ffn_down.weight`, dims: [nFf, nEmbd], data: matrix(nFf, nEmbd, ffnScale, undefined, bias) },
    );
  }
  tensors.push({ name: 'output_norm.weight', dims: [nEmbd], data: ones() });

  // After RMSNorm the bias channel is biasEmbed / rms(x), with rms(x) ~ sqrt((biasEmbed² + 63·0.1²)/64).
  const expectedBiasActivation = biasEmbed / Math.sqrt((biasEmbed ** 2 + (nEmbd - 1) * (embedScale ** 2 / 3)) / nEmbd);
  const logitBias = tokenLogitBias(vocab);
  const output = matrix(nEmbd, nVocab, 0.8);
  for (let v = 0; v < nVocab; v++) output[v * nEmbd + bias] = (logitBias[v] ?? 0) / expectedBiasActivation;
  tensors.push({ name: 'output.weight', dims: [nEmbd, nVocab], data: output });
  return tensors;
}

/** The whole GGUF file as bytes; identical on every call. */
export function buildTinyGguf(): Buffer {
  const vocab = buildVocab();
  const tensors = buildTensors(vocab);
  const { nEmbd, nLayer, nHead, nFf, contextLength } = TINY_GGUF_SHAPE;
  const meta: [string, MetaValue][] = [
    ['general.architecture', { type: 'str', value: 'llama' }],
    ['general.name', { type: 'str', value: 'manualmate-tiny-llama' }],
    ['general.file_type', { type: 'u32', value: 0 }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['llama.context_length', { type: 'u32', value: contextLength }],
    ['llama.embedding_length', { type: 'u32', value: nEmbd }],
    ['llama.block_count', { type: 'u32', value: nLayer }],
    ['llama.feed_forward_length', { type: 'u32', value: nFf }],
    ['llama.attention.head_count', { type: 'u32', value: nHead }],
    ['llama.attention.head_count_kv', { type: 'u32', value: nHead }],
    ['llama.rope.dimension_count', { type: 'u32', value: nEmbd / nHead }],
    ['llama.rope.freq_base', { type: 'f32', value: 10000 }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { type: 'u32', value: vocab.tokens.length }],
    ['tokenizer.ggml.model', { type: 'str', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'str[]', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'f32[]', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'i32[]', value: vocab.types }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: vocab.bos }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: vocab.eos }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: vocab.unk }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'str', value: CHATML_TEMPLATE }],
  ];

  const w = new ByteWriter();
  w.bytes(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, value] of meta) writeMeta(w, key, value);

  let offset = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(GGML_TYPE_F32);
    w.u64(offset);
    offset += Math.ceil(t.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  w.padTo(ALIGNMENT);
  for (const t of tensors) {
    w.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    w.padTo(ALIGNMENT);
  }
  return w.result();
}

/** Writes the tiny GGUF to `filePath` (atomically: temp file, then rename). */
export async function writeTinyGguf(filePath: string): Promise<void> {
  await writeAtomically(filePath, buildTinyGguf());
}

async function writeAtomically(filePath: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(filePath), { recursive: true });
  const tmp = `${filePath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, filePath);
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * Returns the absolute path of the tiny GGUF (default `tests/.models/tiny-llama.gguf`), (re)writing
 * it only when missing or different from what this generator produces; safe to call from several
 * workers at once.
 */
export async function ensureTinyGguf(filePath: string = path.join(repoRoot, TINY_GGUF_RELATIVE_PATH)): Promise<string> {
  const expected = buildTinyGguf();
  // Comparing the bytes instead of a version stamp means a changed generator can never leave a
  // stale model behind; generating and reading ~650 KB costs a few milliseconds.
  const existing = await readFile(filePath).catch(() => undefined);
  if (existing?.equals(expected)) return filePath;
  await writeAtomically(filePath, expected);
  return filePath;
}
