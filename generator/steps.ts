/**
 * Progress output: one line per pipeline step with what it did and how long it took, on stderr so
 * that stdout stays clean for machine-readable output.
 */
export interface StepReporter {
  step<T>(name: string, run: () => T | Promise<T>, summarize?: (result: T) => string): Promise<T>;
  info(line: string): void;
}

export function consoleReporter(stream: NodeJS.WritableStream = process.stderr, quiet = false): StepReporter {
  return {
    async step(name, run, summarize) {
      const started = performance.now();
      const result = await run();
      const ms = Math.round(performance.now() - started);
      if (!quiet) stream.write(`  ✓ ${name.padEnd(10)} ${(summarize?.(result) ?? '').padEnd(44)} ${String(ms).padStart(6)} ms\n`);
      return result;
    },
    info(line) {
      if (!quiet) stream.write(`${line}\n`);
    },
  };
}
