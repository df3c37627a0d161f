/** CLI-style output sinks that collect what a command writes, for assertions. */
export function capture() {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (s: string) => void (out += s) }, stderr: { write: (s: string) => void (err += s) } },
    out: () => out,
    err: () => err,
  };
}
