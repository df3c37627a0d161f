// Loaded with `node --import` (or imported by a test): appends `host:port` of every outgoing TCP
// connection the process attempts (before any lookup, whether it then connects or not) to the
// file named by RECORD_SOCKETS_TO, or to `globalThis.__recordedSockets` when that is unset. The
// "no request leaves 127.0.0.1" assertions read it.
import net from 'node:net';
import { appendFileSync } from 'node:fs';

const out = process.env.RECORD_SOCKETS_TO;
globalThis.__recordedSockets ??= [];
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = args[0];
  // connect(options[, cb]) (what http uses), connect(port[, host][, cb]), or a pipe path.
  const normalized = Array.isArray(first) ? first[0] : first;
  let target = null;
  if (normalized && typeof normalized === 'object' && !normalized.path) target = `${normalized.host ?? 'localhost'}:${normalized.port}`;
  else if (typeof normalized === 'number' || /^\d+$/.test(String(normalized))) target = `${typeof args[1] === 'string' ? args[1] : 'localhost'}:${normalized}`;
  if (target) {
    if (out) appendFileSync(out, `${target}\n`);
    else globalThis.__recordedSockets.push(target);
  }
  return connect.apply(this, args);
};
