import v8 from 'node:v8';

/**
 * When V8 optimizes a function with TurboFan: after the function has run through this much
 * "interrupt budget" (bytecode executed, roughly) a few times. V8's default (66 KB in Node 20's
 * V8 11.3, 132 KB in later versions with Maglev) compiles every function that runs a few hundred
 * times. A first import runs hundreds of such lukewarm functions (parsers, enrichment, the Arrow
 * batch), so on a 2-core machine V8's compiler threads spent as much CPU as the import's own
 * thread, over a third of it recompiling after deoptimizations (tests/bench/RESULTS.md, Sessions
 * 9 and 10). With 16x Node 20's default only the really hot code is compiled: measured on radxa
 * + esp, the compiler threads' CPU fell from ~1.7 s to ~0.5 s (8x: ~0.75 s; 32x saved no more
 * and the import's thread began to slow), for ~0.1 s more on the import's thread and the parse
 * worker, which run more code unoptimized (0.4 s more in pdf.js on pdf-dev's 15 PDFs, whose
 * compiling saved 1.2 s); a second import in the same process, with its hot code compiled by
 * then, was no slower. Every shared set imported faster in CPU and wall clock. Measured on 2
 * cores only; with more, the parse pool fills them with workers, each an isolate that compiles the
 * same parsers again, so compiling still competes with the import.
 */
export const INTERRUPT_BUDGET = 16 * 66 * 1024;

/** The V8 flags the engine sets for itself, unless the process was started with them. */
export const V8_TIERING_FLAGS: readonly string[] = [`--interrupt-budget=${INTERRUPT_BUDGET}`];

let applied = false;

/** The flag's name as V8 spells it either way (`--interrupt-budget`, `--interrupt_budget`). */
const flagName = (flag: string) => flag.replace(/=.*$/, '').replace(/^--/, '').replaceAll('_', '-');

/**
 * Sets `V8_TIERING_FLAGS` for this process, once: they apply to every isolate (this thread and
 * the workers), from the next tiering decision on. A flag the user gave on the command line
 * (`node --interrupt-budget=…`, Electron's `--js-flags`) or in `NODE_OPTIONS` is left as given.
 * Set at run time because that is the only way into Electron's main process (its `--js-flags`
 * switch is read before the app's code runs; `app.commandLine.appendSwitch('js-flags')` reaches
 * only the renderers); Electron starts V8 with `--no-freeze-flags-after-init` so that this works.
 */
export function applyV8Tiering(argv: readonly string[] = [...process.execArgv, ...process.argv], nodeOptions = process.env.NODE_OPTIONS ?? ''): void {
  if (applied) return;
  applied = true;
  const given = [...argv, ...nodeOptions.split(/\s+/)].join(' ').replaceAll('_', '-');
  for (const flag of V8_TIERING_FLAGS) {
    if (!given.includes(`--${flagName(flag)}`)) v8.setFlagsFromString(flag);
  }
}
