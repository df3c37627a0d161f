/** A header-only GGUF v3 (no tensors) declaring `architecture`: enough for discovery to classify. */
export function headerOnlyGguf(architecture: string): Buffer {
  const str = (s: string): Buffer => {
    const bytes = Buffer.from(s, 'utf8');
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(bytes.length));
    return Buffer.concat([len, bytes]);
  };
  const u32 = (v: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    return b;
  };
  const u64 = (v: number): Buffer => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    return b;
  };
  const STRING = 8;
  return Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(1), str('general.architecture'), u32(STRING), str(architecture)]);
}
