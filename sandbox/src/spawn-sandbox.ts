import { spawn, type ChildProcess } from 'node:child_process';
import { sandboxProcessEnv } from '../../node-shared/process-env';

// `npm run sandbox` as a child process of its own (the benchmark measures its memory; a test checks its
// flags): started with this Node and tsx, resolved with its origin once it listens.

export interface SandboxProcess {
  child: ChildProcess;
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
}

export function spawnSandbox(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SandboxProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/src/cli.ts', ...args], {
    // With the sandbox's environment, so the CLI need not start itself again (node-shared/process-env.ts):
    // the child is the process that runs the sandbox, whose memory the benchmark reads.
    env: { ...process.env, ...sandboxProcessEnv(), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Sandbox API at (http:\/\/[^/\s]+)\/v1/.exec(out);
      if (m) resolve({ child, origin: m[1]! });
    });
    child.once('exit', (code) =>
      reject(new Error(`the sandbox exited (${code}) before it listened: ${out}`)),
    );
  });
}
