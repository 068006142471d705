/**
 * One command at a time in a workflow: each decides on the state every earlier command left behind, so two
 * concurrent approvals cannot both pass on a stale state. A promise chain is a FIFO lock that stays
 * deterministic under replay.
 *
 * `idle()` tells an update validator whether it may trust the in-memory state. While a command holds the lock
 * its events may already be in the stream (the activity appended them) but not yet in the state, so a
 * person who saw them in a list and acted at once would be refused on a stale state (the demo seed met this:
 * the ERP's parent code recorded, the vendor category refused with "not assigned yet"). A validator that finds
 * the lock busy checks only the command's shape and leaves the decision to the handler, whose activity decides
 * against the stream in its turn. The counting hangs off a side branch of the chain, so when a command starts
 * and when its caller hears back are exactly as before (replay sees the same order of commands).
 */
export type CommandLock = {
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  idle: () => boolean;
};

export function createCommandLock(): CommandLock {
  let tail: Promise<unknown> = Promise.resolve();
  let held = 0;
  return {
    exclusive<T>(fn: () => Promise<T>): Promise<T> {
      const run = tail.then(fn);
      tail = run.catch(() => undefined);
      held += 1;
      const release = () => {
        held -= 1;
      };
      run.then(release, release);
      return run;
    },
    idle: () => held === 0,
  };
}
