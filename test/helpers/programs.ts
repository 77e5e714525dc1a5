import { execFileSync } from 'node:child_process';

/** Whether `program` is on the PATH (a test that needs it is skipped otherwise, with the reason). */
export function installed(program: string): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v "$1"', 'sh', program], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
