#!/usr/bin/env node
// Draws the ManualMate icon (a manual page under a magnifier) and writes every size the
// installers need into build/: icons/NxN.png (Linux), icon.png, icon.ico (Windows), icon.icns
// (macOS). Hand-written because no icon tool can be installed offline and the formats are small:
// PNG is zlib + CRC32, ICO and ICNS are directories of images. Output is deterministic.
//
//   node scripts/make-icons.mjs [outDir]      (default: build/)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'build'));

// ---------- drawing: signed distance fields in unit coordinates (0..1, y down) ----------

const hex = (h) => [parseInt(h.slice(1, 3), 16) / 255, parseInt(h.slice(3, 5), 16) / 255, parseInt(h.slice(5, 7), 16) / 255];
const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);

function roundedBox(px, py, cx, cy, hx, hy, r) {
  const qx = Math.abs(px - cx) - hx + r;
  const qy = Math.abs(py - cy) - hy + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

function capsule(px, py, ax, ay, bx, by, r) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - dx * t, py - ay - dy * t) - r;
}

const circle = (px, py, cx, cy, r) => Math.hypot(px - cx, py - cy) - r;

const TOP = hex('#167187');
const BOTTOM = hex('#0b3f4d');
const PAGE = hex('#f8f6ef');
const TEXT = hex('#9fb0ba');
const HEADING = hex('#167187');
const BRASS = hex('#f2a93b');
const BRASS_DARK = hex('#c97f12');
const LENS = hex('#ffffff');

const LINES = [
  { y: 0.29, x1: 0.29, x2: 0.5, color: HEADING, r: 0.016 },
  { y: 0.36, x1: 0.29, x2: 0.57, color: TEXT, r: 0.011 },
  { y: 0.415, x1: 0.29, x2: 0.55, color: TEXT, r: 0.011 },
  { y: 0.47, x1: 0.29, x2: 0.57, color: TEXT, r: 0.011 },
  { y: 0.525, x1: 0.29, x2: 0.52, color: TEXT, r: 0.011 },
  { y: 0.58, x1: 0.29, x2: 0.56, color: TEXT, r: 0.011 },
  { y: 0.635, x1: 0.29, x2: 0.47, color: TEXT, r: 0.011 },
];

/** Layers bottom to top: [signed distance at (x, y), colour, opacity]. */
function layers(x, y) {
  return [
    [roundedBox(x, y, 0.5, 0.5, 0.44, 0.44, 0.1), mix(TOP, BOTTOM, Math.min(1, Math.max(0, (y - 0.06) / 0.88))), 1],
    [roundedBox(x, y, 0.44, 0.485, 0.2, 0.27, 0.03) - 0.006, [0, 0, 0], 0.18],
    [roundedBox(x, y, 0.43, 0.47, 0.2, 0.27, 0.03), PAGE, 1],
    ...LINES.map((l) => [capsule(x, y, l.x1, l.y, l.x2, l.y, l.r), l.color, 1]),
    [circle(x, y, 0.6, 0.6, 0.135), LENS, 0.28],
    [capsule(x, y, 0.7, 0.7, 0.82, 0.82, 0.045), BRASS_DARK, 1],
    [Math.abs(circle(x, y, 0.6, 0.6, 0.135)) - 0.022, BRASS, 1],
  ];
}

/** RGBA pixels (straight alpha, 8 bits) of the icon at `size` x `size`. */
function render(size) {
  const px = new Uint8Array(size * size * 4);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const x = (i + 0.5) / size;
      const y = (j + 0.5) / size;
      // Premultiplied "over" compositing; coverage from the distance in pixels (1-pixel ramp).
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (const [d, color, opacity] of layers(x, y)) {
        const cover = Math.max(0, Math.min(1, 0.5 - d * size)) * opacity;
        if (cover === 0) continue;
        r = color[0] * cover + r * (1 - cover);
        g = color[1] * cover + g * (1 - cover);
        b = color[2] * cover + b * (1 - cover);
        a = cover + a * (1 - cover);
      }
      const o = (j * size + i) * 4;
      px[o] = a > 0 ? Math.round((r / a) * 255) : 0;
      px[o + 1] = a > 0 ? Math.round((g / a) * 255) : 0;
      px[o + 2] = a > 0 ? Math.round((b / a) * 255) : 0;
      px[o + 3] = Math.round(a * 255);
    }
  }
  return px;
}

// ---------- encoders ----------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG file: 8-bit RGBA, no interlace, filter 0 on every row. */
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 32-bit BMP (DIB) icon image: bottom-up BGRA plus an all-zero AND mask (alpha decides). */
function encodeIcoBitmap(size, rgba) {
  const header = Buffer.alloc(40);
  const maskRow = Math.ceil(size / 32) * 4;
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // colour + mask
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(size * size * 4 + maskRow * size, 20);
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const s = ((size - 1 - y) * size + x) * 4;
      const d = (y * size + x) * 4;
      pixels[d] = rgba[s + 2];
      pixels[d + 1] = rgba[s + 1];
      pixels[d + 2] = rgba[s];
      pixels[d + 3] = rgba[s + 3];
    }
  }
  return Buffer.concat([header, pixels, Buffer.alloc(maskRow * size)]);
}

/** A Windows .ico: bitmaps up to 128 px (every Windows version reads them), PNG at 256 px. */
function encodeIco(images) {
  const dir = Buffer.alloc(6 + images.length * 16);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(images.length, 4);
  let offset = dir.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + i * 16;
    dir[e] = size >= 256 ? 0 : size;
    dir[e + 1] = size >= 256 ? 0 : size;
    dir.writeUInt16LE(1, e + 4); // planes
    dir.writeUInt16LE(32, e + 6); // bits per pixel
    dir.writeUInt32LE(data.length, e + 8);
    dir.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([dir, ...images.map((im) => im.data)]);
}

/** A macOS .icns: PNG-compressed entries, each tagged with its OSType. */
function encodeIcns(entries) {
  const parts = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

// ---------- output ----------

const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const pixels = new Map(SIZES.map((s) => [s, render(s)]));
const png = new Map(SIZES.map((s) => [s, encodePng(s, pixels.get(s))]));

mkdirSync(path.join(outDir, 'icons'), { recursive: true });
for (const s of SIZES) writeFileSync(path.join(outDir, 'icons', `${s}x${s}.png`), png.get(s));
writeFileSync(path.join(outDir, 'icon.png'), png.get(1024));
writeFileSync(
  path.join(outDir, 'icon.ico'),
  encodeIco([16, 24, 32, 48, 64, 128].map((s) => ({ size: s, data: encodeIcoBitmap(s, pixels.get(s)) })).concat([{ size: 256, data: png.get(256) }])),
);
writeFileSync(
  path.join(outDir, 'icon.icns'),
  encodeIcns([
    { type: 'icp4', png: png.get(16) },
    { type: 'icp5', png: png.get(32) },
    { type: 'ic11', png: png.get(32) },
    { type: 'icp6', png: png.get(64) },
    { type: 'ic12', png: png.get(64) },
    { type: 'ic07', png: png.get(128) },
    { type: 'ic08', png: png.get(256) },
    { type: 'ic13', png: png.get(256) },
    { type: 'ic09', png: png.get(512) },
    { type: 'ic14', png: png.get(512) },
    { type: 'ic10', png: png.get(1024) },
  ]),
);
console.log(`Icons written to ${path.relative(process.cwd(), outDir) || '.'}: icon.png, icon.ico, icon.icns, icons/{${SIZES.join(',')}}px`);
