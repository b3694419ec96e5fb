import { execFile } from 'node:child_process';
import path from 'node:path';

/** One message of the Nu HTML Checker, as its JSON output gives it. */
interface CheckerMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  lastLine?: number;
  firstColumn?: number;
  message: string;
  extract?: string;
}

/** vnu-jar exports the path of its vnu.jar (as a String object). */
const vnuJar = String(require('vnu-jar') as string);

/**
 * Checks every .html file in `dir` with the W3C Nu HTML Checker (vnu.jar, run once: the JVM takes
 * seconds to start) and returns its errors, each as one line naming the file, line, column and message,
 * with the markup around it; [] when every document is valid. Needs `java` (Debian's default-jre-headless,
 * which scripts/ensure-test-services.sh installs).
 */
export function nuHtmlErrors(dir: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    // --errors-only: the checker's warnings are advice (e.g. a redundant role), not invalid HTML.
    execFile('java', ['-jar', vnuJar, '--errors-only', '--format', 'json', '--skip-non-html', dir], { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
        return reject(new Error("The Nu HTML Checker needs java on PATH: install Debian's default-jre-headless (bash scripts/ensure-test-services.sh does, as root)."));
      }
      let messages: CheckerMessage[];
      try {
        messages = (JSON.parse(stderr) as { messages: CheckerMessage[] }).messages;
      } catch {
        // Not the checker's report: java missing, or the checker could not start.
        return reject(new Error(`The Nu HTML Checker did not run (${error?.message ?? 'no report'}):\n${stderr}`));
      }
      resolve(
        messages.map((message) => {
          const file = message.url ? path.basename(decodeURIComponent(new URL(message.url).pathname)) : '(no file)';
          const where = message.lastLine === undefined ? file : `${file}:${message.lastLine}:${message.firstColumn ?? 0}`;
          const extract = message.extract ? `\n    ${message.extract.replace(/\s+/g, ' ').trim()}` : '';
          return `${where} ${message.type}: ${message.message}${extract}`;
        }),
      );
    });
  });
}
