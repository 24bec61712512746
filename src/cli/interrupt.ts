/**
 * Interrupts (Ctrl-C, SIGINT) and a reader that goes away (`| head`): both
 * end the command cleanly. A SIGINT clears whatever a command drew on the
 * terminal (a progress line, a prompt) and exits with status 130, the
 * shell's convention for "ended by SIGINT"; a closed stdout ends it quietly
 * with status 0. Only the CLI installs these.
 */

const cleanups = new Set<() => void>();
let children = 0;

export const INTERRUPTED = 130;

export function installInterruptHandlers(): void {
  process.on("SIGINT", () => {
    // A launched harness owns the terminal (and its own Ctrl-C); its exit ends us.
    if (children > 0) return;
    for (const cleanup of cleanups) cleanup();
    process.exit(INTERRUPTED);
  });
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(0);
      // Anything else on our own output cannot be reported there either.
      process.exit(1);
    });
  }
}

/** Run `cleanup` if an interrupt ends the command; the returned function unregisters it. */
export function onInterrupt(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** While a launched child runs, Ctrl-C is the child's: call the result when it has exited. */
export function childStarted(): () => void {
  children++;
  let ended = false;
  return () => {
    if (!ended) children--;
    ended = true;
  };
}

/**
 * Synchronous work (a store scan) holds back a Ctrl-C until it returns:
 * awaiting this lets one that arrived meanwhile end the command before it
 * prints anything.
 */
export function takeInterrupts(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
