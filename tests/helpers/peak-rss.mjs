// Preloaded (`node --import`) into a child process whose peak memory a test checks: prints the
// process's peak resident set size on stderr as it exits, as `peak-rss-kb: N`.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\npeak-rss-kb: ${process.resourceUsage().maxRSS}\n`);
});
