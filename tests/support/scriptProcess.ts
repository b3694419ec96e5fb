import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';

/**
 * An operator's command run for real, through tsx, as npm runs it: from the project's folder, with only
 * PATH and the variables given, so nothing of the test's own environment leaks in.
 */
export async function runScript(script: string, argv: readonly string[] = [], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const tsx = path.join(projectRoot, 'node_modules/.bin/tsx');
  const child = spawn(tsx, [script, ...argv], { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * The same, on a pseudo-terminal, as when an operator types it: util-linux's script(1) runs it with its
 * standard output and error on one terminal, and gives back what the terminal received (control
 * characters included, lines ending in \r\n) and the command's exit code.
 */
export async function runScriptOnTerminal(script: string, argv: readonly string[] = [], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const quoted = ['node_modules/.bin/tsx', script, ...argv].map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  // Debian's bsdutils (essential: on every Debian system) installs it.
  if (!existsSync('/usr/bin/script')) throw new Error('runScriptOnTerminal needs script(1) from util-linux at /usr/bin/script (Debian: bsdutils)');
  const child = spawn('/usr/bin/script', ['--quiet', '--return', '--flush', '--command', quoted, '/dev/null'], {
    cwd: projectRoot,
    env: { PATH: `${path.join(projectRoot, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, output };
}
