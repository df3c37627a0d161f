/**
 * The renderer's Content-Security-Policy, shared by the Electron shell (response header) and the
 * web bridge: only the app's own origin, no eval, no inline scripts, no remote anything.
 * `blob:` for workers and images lets pdf.js render pages without a network.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
