/**
 * Writes a tiny BERT-style ONNX embedder folder (config, WordPiece tokenizer, onnx/model.onnx) that
 * transformers.js loads offline. No real weights can be fetched on these machines (ENVIRONMENT.md),
 * so tests generate one. Its vectors are meaningless: it tests loading, batching and error paths.
 *
 * The ONNX file is written with a hand-rolled protobuf encoder because the only ONNX writers are
 * Python packages or heavy JS protobuf stacks that are not dependencies here; the model needs only
 * a handful of message types (~80 lines of encoding).
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 as prng } from '../helpers/prng';

/** Bump whenever the written bytes change, so cached copies in tests/.models are rebuilt. */
export const TINY_ONNX_VERSION = 'tiny-embedder-v1';

/** Width of every vector the tiny model produces. */
export const TINY_HIDDEN_SIZE = 32;

/** Longest token sequence the model accepts (position table rows). */
export const TINY_MAX_POSITIONS = 512;

const SEED = 0x5eed_0a11;
const VERSION_FILE = 'tiny-model.version';
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// ---------------------------------------------------------------------------------------------
// Protobuf wire format (only what ONNX's ModelProto needs).
// ---------------------------------------------------------------------------------------------

type Bytes = Uint8Array;

function concat(parts: Bytes[]): Bytes {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Negative int64 values are sent as 10-byte two's-complement varints, as protobuf specifies. */
function varint(value: number | bigint): Bytes {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return Uint8Array.from(out);
}

const WIRE_VARINT = 0;
const WIRE_LEN = 2;
const WIRE_FIXED32 = 5;

const tag = (field: number, wire: number): Bytes => varint((field << 3) | wire);
const fInt = (field: number, value: number | bigint): Bytes => concat([tag(field, WIRE_VARINT), varint(value)]);
const fBytes = (field: number, bytes: Bytes): Bytes => concat([tag(field, WIRE_LEN), varint(bytes.length), bytes]);
const fStr = (field: number, s: string): Bytes => fBytes(field, new TextEncoder().encode(s));
function fFloat(field: number, value: number): Bytes {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, value, true);
  return concat([tag(field, WIRE_FIXED32), b]);
}

// ONNX enum values (onnx.proto3).
const DT_FLOAT = 1;
const DT_INT64 = 7;
const ATTR_FLOAT = 1;
const ATTR_INT = 2;

type Attr = { name: string; int: number } | { name: string; float: number };

function attribute(a: Attr): Bytes {
  // AttributeProto: name=1, f=2, i=3, type=20
  return 'int' in a
    ? concat([fStr(1, a.name), fInt(3, a.int), fInt(20, ATTR_INT)])
    : concat([fStr(1, a.name), fFloat(2, a.float), fInt(20, ATTR_FLOAT)]);
}

function node(op: string, inputs: string[], outputs: string[], name: string, attrs: Attr[] = []): Bytes {
  // NodeProto: input=1, output=2, name=3, op_type=4, attribute=5
  return concat([
    ...inputs.map((i) => fStr(1, i)),
    ...outputs.map((o) => fStr(2, o)),
    fStr(3, name),
    fStr(4, op),
    ...attrs.map((a) => fBytes(5, attribute(a))),
  ]);
}

function floatTensor(name: string, dims: number[], data: Float32Array): Bytes {
  // TensorProto: dims=1, data_type=2, name=8, raw_data=9 (little-endian, as ONNX requires)
  const raw = new Uint8Array(data.length * 4);
  const view = new DataView(raw.buffer);
  data.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return concat([...dims.map((d) => fInt(1, d)), fInt(2, DT_FLOAT), fStr(8, name), fBytes(9, raw)]);
}

function int64Tensor(name: string, dims: number[], data: number[]): Bytes {
  const raw = new Uint8Array(data.length * 8);
  const view = new DataView(raw.buffer);
  data.forEach((x, i) => view.setBigInt64(i * 8, BigInt(x), true));
  return concat([...dims.map((d) => fInt(1, d)), fInt(2, DT_INT64), fStr(8, name), fBytes(9, raw)]);
}

/** A tensor value; a string dim is symbolic (dynamic), a number is fixed. */
function valueInfo(name: string, elemType: number, dims: (string | number)[]): Bytes {
  // ValueInfoProto{name=1, type=2}; TypeProto{tensor_type=1}; Tensor{elem_type=1, shape=2};
  // TensorShapeProto{dim=1}; Dimension{dim_value=1, dim_param=2}
  const shape = concat(dims.map((d) => fBytes(1, typeof d === 'number' ? fInt(1, d) : fStr(2, d))));
  const tensorType = concat([fInt(1, elemType), fBytes(2, shape)]);
  return concat([fStr(1, name), fBytes(2, fBytes(1, tensorType))]);
}

// ---------------------------------------------------------------------------------------------
// Weights and graph.
// ---------------------------------------------------------------------------------------------

function uniform(rand: () => number, n: number, scale: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rand() * 2 - 1) * scale;
  return out;
}

/**
 * Graph: word + token-type + position embeddings -> LayerNorm -> dense -> tanh -> zero padded
 * positions via attention_mask. All three inputs are used, so the session asks for all three.
 */
function buildModel(vocabSize: number): Bytes {
  const H = TINY_HIDDEN_SIZE;
  const rand = prng(SEED);
  const wordEmb = uniform(rand, vocabSize * H, 1);
  const typeEmb = uniform(rand, 2 * H, 0.1);
  const posEmb = uniform(rand, TINY_MAX_POSITIONS * H, 0.1);
  const gamma = new Float32Array(H).fill(1);
  const beta = new Float32Array(H);
  const dense = uniform(rand, H * H, 1 / Math.sqrt(H));
  const bias = uniform(rand, H, 0.05);

  const nodes = [
    node('Gather', ['word_embeddings', 'input_ids'], ['word_emb'], 'embed_words', [{ name: 'axis', int: 0 }]),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], ['type_emb'], 'embed_types', [{ name: 'axis', int: 0 }]),
    node('Shape', ['input_ids'], ['ids_shape'], 'ids_shape'),
    node('Gather', ['ids_shape', 'one_scalar'], ['seq_len'], 'seq_len', [{ name: 'axis', int: 0 }]),
    node('Range', ['zero_scalar', 'seq_len', 'one_scalar'], ['position_ids'], 'position_ids'),
    node('Gather', ['position_embeddings', 'position_ids'], ['pos_emb'], 'embed_positions', [{ name: 'axis', int: 0 }]),
    node('Add', ['word_emb', 'type_emb'], ['emb_wt'], 'add_types'),
    node('Add', ['emb_wt', 'pos_emb'], ['emb'], 'add_positions'),
    node('LayerNormalization', ['emb', 'ln_gamma', 'ln_beta'], ['normed'], 'layer_norm', [
      { name: 'axis', int: -1 },
      { name: 'epsilon', float: 1e-12 },
    ]),
    node('MatMul', ['normed', 'dense_weight'], ['projected'], 'dense_matmul'),
    node('Add', ['projected', 'dense_bias'], ['biased'], 'dense_bias_add'),
    node('Tanh', ['biased'], ['activated'], 'tanh'),
    node('Cast', ['attention_mask'], ['mask_f'], 'mask_cast', [{ name: 'to', int: DT_FLOAT }]),
    node('Unsqueeze', ['mask_f', 'last_axis'], ['mask_3d'], 'mask_unsqueeze'),
    node('Mul', ['activated', 'mask_3d'], ['last_hidden_state'], 'mask_apply'),
  ];
  const initializers = [
    floatTensor('word_embeddings', [vocabSize, H], wordEmb),
    floatTensor('token_type_embeddings', [2, H], typeEmb),
    floatTensor('position_embeddings', [TINY_MAX_POSITIONS, H], posEmb),
    floatTensor('ln_gamma', [H], gamma),
    floatTensor('ln_beta', [H], beta),
    floatTensor('dense_weight', [H, H], dense),
    floatTensor('dense_bias', [H], bias),
    int64Tensor('zero_scalar', [], [0]),
    int64Tensor('one_scalar', [], [1]),
    int64Tensor('last_axis', [1], [-1]),
  ];
  const dyn = ['batch_size', 'sequence_length'];
  // GraphProto: node=1, name=2, initializer=5, input=11, output=12
  const graph = concat([
    ...nodes.map((n) => fBytes(1, n)),
    fStr(2, 'tiny_bert_embedder'),
    ...initializers.map((t) => fBytes(5, t)),
    fBytes(11, valueInfo('input_ids', DT_INT64, dyn)),
    fBytes(11, valueInfo('attention_mask', DT_INT64, dyn)),
    fBytes(11, valueInfo('token_type_ids', DT_INT64, dyn)),
    fBytes(12, valueInfo('last_hidden_state', DT_FLOAT, [...dyn, H])),
  ]);
  // ModelProto: ir_version=1, producer_name=2, producer_version=3, graph=7, opset_import=8.
  // IR 8 / opset 17 is the oldest pair with LayerNormalization; onnxruntime-node 1.30 runs it.
  return concat([
    fInt(1, 8),
    fStr(2, 'manualmate-tests'),
    fStr(3, TINY_ONNX_VERSION),
    fBytes(7, graph),
    fBytes(8, concat([fStr(1, ''), fInt(2, 17)])),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Tokenizer.
// ---------------------------------------------------------------------------------------------

const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

const COMMON_WORDS = `
the of and to in is for on that with as by be this are it from or at an not can if you your
use used using set power supply voltage current input output pin pins board device devices port ports
usb serial uart spi i2c gpio led leds button reset boot flash memory ram rom storage card sd emmc
nvme ssd disk drive cable connector connect connected connection network ethernet wifi wireless
bluetooth antenna signal data bus clock speed rate high low level mode modes state status error
errors warning note step steps install installation configure configuration setting settings
system software firmware hardware driver drivers kernel linux windows android update upgrade
version file files image images command commands run start stop open close check test tests
value values default maximum minimum range temperature fan heat sink case screw screws mount
display screen hdmi video audio camera sensor sensors battery charge charging adapter switch
on off enable disable enabled disabled press hold release turn select menu option options
manual guide page section table figure chapter see also below above following before after
when then must should may will do does not only all any each other more most new first last
one two three four five six seven eight nine ten zero number numbers code type name model
part parts unit units size length width height weight time times second seconds minute minutes
hour hours day days year years safety caution danger replace remove check clean service
contact support user users operator install read write load save copy delete format
is was were has have had been being which what where how why who there their they them these
those than into out up down over under between through about per via without within
`;

const SUFFIXES = ['s', 'es', 'ed', 'ing', 'er', 'ers', 'ly', 'tion', 'tions', 'ment', 'ness', 'able', 'al', 'ive', 'ity', 'ize', 'ing', 'y'];

const PUNCTUATION = `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~`;

/** Token list in id order; ids are positions. Deduplicated, deterministic. */
function buildVocab(): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
  const digits = '0123456789'.split('');
  const words = COMMON_WORDS.split(/\s+/).filter((w) => w.length > 1);
  const ordered = [
    ...SPECIAL_TOKENS,
    ...PUNCTUATION.split(''),
    ...letters,
    ...digits,
    ...letters.map((c) => `##${c}`),
    ...digits.map((c) => `##${c}`),
    ...SUFFIXES.map((s) => `##${s}`),
    ...words,
  ];
  return [...new Set(ordered)];
}

function buildTokenizerJson(vocab: string[]): object {
  const idOf = (t: string): number => vocab.indexOf(t);
  const special = (t: string): { SpecialToken: { id: string; type_id: number } } => ({ SpecialToken: { id: t, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((t) => ({
      id: idOf(t),
      content: t,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [
        special('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        special('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [idOf('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [idOf('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Folder writers.
// ---------------------------------------------------------------------------------------------

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Writes the tiny embedder folder into `dir` (created if needed); same bytes on every call. */
export async function writeTinyOnnx(dir: string): Promise<void> {
  const vocab = buildVocab();
  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  const config = {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: TINY_HIDDEN_SIZE,
    num_hidden_layers: 1,
    num_attention_heads: 2,
    intermediate_size: TINY_HIDDEN_SIZE * 2,
    hidden_act: 'gelu',
    vocab_size: vocab.length,
    max_position_embeddings: TINY_MAX_POSITIONS,
    type_vocab_size: 2,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: TINY_MAX_POSITIONS,
    clean_up_tokenization_spaces: true,
    unk_token: '[UNK]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
  };
  const specialTokensMap = {
    unk_token: '[UNK]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
  };
  await Promise.all([
    writeFile(path.join(dir, 'config.json'), json(config)),
    writeFile(path.join(dir, 'tokenizer.json'), json(buildTokenizerJson(vocab))),
    writeFile(path.join(dir, 'tokenizer_config.json'), json(tokenizerConfig)),
    writeFile(path.join(dir, 'special_tokens_map.json'), json(specialTokensMap)),
    writeFile(path.join(dir, 'onnx', 'model.onnx'), buildModel(vocab.length)),
  ]);
  // Written last: its presence means the folder is complete.
  await writeFile(path.join(dir, VERSION_FILE), `${TINY_ONNX_VERSION}\n`);
}

async function isCurrent(dir: string): Promise<boolean> {
  try {
    return (await readFile(path.join(dir, VERSION_FILE), 'utf8')).trim() === TINY_ONNX_VERSION;
  } catch {
    return false;
  }
}

/** Where {@link ensureTinyOnnx} keeps the shared copy: `tests/.models/tiny-embedder/`. */
export const TINY_ONNX_DIR = path.join(REPO_ROOT, 'tests', '.models', 'tiny-embedder');

/**
 * Returns the absolute path of the tiny embedder folder (`target`, default {@link TINY_ONNX_DIR}),
 * writing it first when missing or from an older generator version. Safe when parallel test
 * workers call it at once: each builds in its own temp folder beside `target` and the finished
 * folder is moved in with one atomic rename.
 */
export async function ensureTinyOnnx(target: string = TINY_ONNX_DIR): Promise<string> {
  const modelsDir = path.dirname(target);
  const name = path.basename(target);
  if (await isCurrent(target)) return target;
  await mkdir(modelsDir, { recursive: true });

  const unique = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const staging = path.join(modelsDir, `.${name}.tmp-${unique}`);
  await writeTinyOnnx(staging);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await rename(staging, target);
        return target;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      }
      // Someone else's folder is there: keep it if current, otherwise move the stale one aside
      // (rename is atomic, so only one worker wins the swap) and try again.
      if (await isCurrent(target)) return target;
      const trash = path.join(modelsDir, `.${name}.old-${unique}-${attempt}`);
      await rename(target, trash).then(
        () => rm(trash, { recursive: true, force: true }),
        () => undefined,
      );
    }
    throw new Error(`could not install the tiny ONNX embedder into ${target}`);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
