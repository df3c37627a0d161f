#!/usr/bin/env node
// The CLI runs the engine's TypeScript sources directly through tsx, so `npx manualmate` works
// right after `npm ci`, without a build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src-main/cli/main.ts');
try {
  const code = await runCli(process.argv.slice(2));
  // `serve` keeps running until a signal; every other command ends here.
  process.exitCode = code;
} catch (err) {
  process.stderr.write(`manualmate: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
}
