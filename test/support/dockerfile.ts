/**
 * A Dockerfile read as Docker reads it, for tests on a machine without a Docker engine: line
 * continuations joined, comments dropped, global ARG defaults substituted into FROM, stages
 * named, and the JSON (exec) form of CMD / HEALTHCHECK CMD decoded. Plus .dockerignore matching.
 */

export interface Instruction {
  /** Upper case: FROM, RUN, COPY, ... */
  readonly keyword: string;
  /** The rest of the line, flags included. */
  readonly args: string;
  /** `--from=deps` -> { from: 'deps' }. */
  readonly flags: Readonly<Record<string, string>>;
  /** The arguments after the flags. */
  readonly operands: string;
}

export interface Stage {
  readonly name: string;
  /** The image, ARG defaults substituted. */
  readonly image: string;
  readonly instructions: readonly Instruction[];
}

export interface Dockerfile {
  readonly args: Readonly<Record<string, string>>;
  readonly stages: readonly Stage[];
}

export function parseDockerfile(text: string): Dockerfile {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Array<{ name: string; image: string; instructions: Instruction[] }> = [];
  for (const line of lines) {
    const match = /^(\S+)\s*(.*)$/.exec(line);
    const keyword = (match?.[1] ?? '').toUpperCase();
    const rest = match?.[2] ?? '';
    const instruction = withFlags(keyword, rest);
    if (keyword === 'FROM') {
      const [image = '', as, name] = rest.split(/\s+/);
      const resolved = image.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string | undefined, b: string | undefined) => args[a ?? b ?? ''] ?? '');
      stages.push({ name: as?.toUpperCase() === 'AS' && name !== undefined ? name : String(stages.length), image: resolved, instructions: [] });
    } else if (stages.length === 0) {
      if (keyword !== 'ARG') throw new Error(`only ARG may come before the first FROM (got ${keyword})`);
      const [name = '', value = ''] = rest.split('=');
      args[name] = value;
    } else {
      stages[stages.length - 1]?.instructions.push(instruction);
    }
  }
  return { args, stages };
}

function withFlags(keyword: string, rest: string): Instruction {
  const flags: Record<string, string> = {};
  let operands = rest;
  for (let match = /^--([\w-]+)(?:=(\S*))?\s+/.exec(operands); match !== null; match = /^--([\w-]+)(?:=(\S*))?\s+/.exec(operands)) {
    flags[match[1] ?? ''] = match[2] ?? 'true';
    operands = operands.slice(match[0].length);
  }
  return { keyword, args: rest, flags, operands };
}

/** `CMD ["node", "x"]` or a HEALTHCHECK's `CMD [...]`: the argument vector; throws for the shell form. */
export function execForm(operands: string): string[] {
  const json = operands.replace(/^CMD\s+/i, '');
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) throw new Error(`not an exec form: ${operands}`);
  return parsed;
}

/** `ENV A=1 B=2` -> { A: '1', B: '2' } (unquoted values, as capi's Dockerfile writes them). */
export function envPairs(operands: string): Record<string, string> {
  return Object.fromEntries(operands.split(/\s+/).map((pair) => pair.split('=') as [string, string]));
}

/** Whether .dockerignore's patterns leave `path` (relative, `/`-separated) out of the build context. */
export function isIgnored(patterns: readonly string[], path: string): boolean {
  let ignored = false;
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const pattern = (negated ? raw.slice(1) : raw).replace(/\/+$/, '');
    const regex = new RegExp(`^${pattern.split('*').map(escapeRegex).join('[^/]*')}(/.*)?$`);
    if (regex.test(path)) ignored = !negated;
  }
  return ignored;
}

export function dockerignorePatterns(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
