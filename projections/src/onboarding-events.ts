import { ONBOARDING_EVENT_TYPES, type OnboardingEvent } from '../../domain/src/onboarding/events';
import type { StoredEvent } from '../../domain/src/shared/events';

export type OnboardingItem = { stored: StoredEvent; event: OnboardingEvent };

const KNOWN: ReadonlySet<string> = new Set(ONBOARDING_EVENT_TYPES);

/**
 * The onboarding events of a page, grouped per BA in global order. Everything else (other capabilities'
 * events, types added later, malformed data) is skipped here, which is how projections ignore what they do
 * not know instead of failing on it.
 */
export function onboardingEventsByBa(events: readonly StoredEvent[]): ReadonlyMap<string, readonly OnboardingItem[]> {
  // Every projection of a page asks for the same grouping: compute it once per page.
  const cached = grouped.get(events);
  if (cached) return cached;
  const byBa = new Map<string, OnboardingItem[]>();
  for (const stored of events) {
    if (!KNOWN.has(stored.type) || !stored.streamId.startsWith('ba-')) continue;
    const data = stored.data as { baId?: unknown } | null;
    if (!data || typeof data.baId !== 'string') continue;
    const event = { type: stored.type, data: stored.data } as OnboardingEvent;
    const list = byBa.get(data.baId);
    if (list) list.push({ stored, event });
    else byBa.set(data.baId, [{ stored, event }]);
  }
  grouped.set(events, byBa);
  return byBa;
}

const grouped = new WeakMap<readonly StoredEvent[], Map<string, OnboardingItem[]>>();
