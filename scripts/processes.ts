// Stopping the child processes of local mode (the server, the Auth Emulator).
import type { ChildProcess } from "node:child_process";

/**
 * Whether a child process has ended. One killed by a signal (SIGKILL, a crash) keeps a null
 * exitCode and reports its signalCode instead: checking exitCode alone waits forever for it.
 */
export function hasEnded(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends `signal` and resolves once the child has ended; past `graceMs`, SIGKILL. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (hasEnded(child)) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}
