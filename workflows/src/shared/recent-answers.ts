/**
 * The answers of a lifecycle's latest commands, by request id (oldest first, at most `limit`): a client that
 * retries an update after a lost answer, or after continue-as-new, gets the original answer instead of the
 * command running twice. Carried across continue-as-new as `entries()`. Plain data: safe in workflow code.
 */
export function recentAnswers<Result>(carried: readonly (readonly [string, Result])[] | undefined, limit: number) {
  const recent = new Map<string, Result>(carried ?? []);
  return {
    /** The earlier answer to these update arguments' request id, if any. */
    answered(args: unknown): Result | undefined {
      const requestId = typeof args === 'object' && args ? (args as { requestId?: unknown }).requestId : undefined;
      return typeof requestId === 'string' ? recent.get(requestId) : undefined;
    },
    remember(requestId: string, result: Result): void {
      recent.set(requestId, result);
      if (recent.size > limit) recent.delete(recent.keys().next().value as string);
    },
    entries(): [string, Result][] {
      return [...recent];
    },
  };
}
