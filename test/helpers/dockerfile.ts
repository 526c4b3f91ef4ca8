/**
 * Reads a Dockerfile into its stages and steps, so a test can run the image's
 * install and start steps as written where no container engine runs.
 * Covers the instructions this project's Dockerfile uses.
 */
export interface Step {
  readonly op: string;
  readonly args: string;
}

export interface Stage {
  readonly name: string | undefined;
  readonly steps: Step[];
  /** ENV as it stands at the end of the stage. */
  readonly env: Record<string, string>;
  user: string | undefined;
  readonly volumes: string[];
  cmd: string[] | undefined;
  healthcheck: string[] | undefined;
  stopSignal: NodeJS.Signals | undefined;
}

/** `K=V K2="V 2"` pairs of an ENV line. */
function envPairs(args: string): [string, string][] {
  return [...args.matchAll(/(\w+)=("([^"]*)"|\S+)/g)].map((m) => [m[1]!, m[3] ?? m[2]!]);
}

export function parseDockerfile(text: string): { stages: Stage[] } {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op = '', args = ''] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    const OP = op.toUpperCase();
    if (OP === 'ARG' && !stages.length) continue;
    if (OP === 'FROM') {
      stages.push({
        name: /\bAS\s+(\S+)/i.exec(args)?.[1],
        steps: [],
        env: {},
        user: undefined,
        volumes: [],
        cmd: undefined,
        healthcheck: undefined,
        stopSignal: undefined,
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`${OP} before FROM`);
    if (OP === 'ENV') Object.assign(stage.env, Object.fromEntries(envPairs(args)));
    else if (OP === 'USER') stage.user = args;
    else if (OP === 'VOLUME') stage.volumes.push(...(JSON.parse(args) as string[]));
    else if (OP === 'CMD') stage.cmd = JSON.parse(args) as string[];
    else if (OP === 'HEALTHCHECK') stage.healthcheck = JSON.parse(args.slice(args.indexOf('CMD') + 3)) as string[];
    else if (OP === 'STOPSIGNAL') stage.stopSignal = args as NodeJS.Signals;
    else if (['WORKDIR', 'COPY', 'RUN'].includes(OP)) stage.steps.push({ op: OP, args });
    else if (!['EXPOSE', 'ARG', 'LABEL'].includes(OP)) throw new Error(`unhandled instruction ${OP}`);
  }
  return { stages };
}
