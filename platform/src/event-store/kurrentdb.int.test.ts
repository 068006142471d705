import { eventStoreContract } from './contract';
import { createKurrentDbEventStore } from './kurrentdb';

/**
 * The shared contract against a real KurrentDB server. jest.config.js leaves this file out unless
 * KURRENTDB_URL is set (e.g. kurrentdb://127.0.0.1:2113?tls=false with the docker-compose service), so it is
 * never reported as skipped; run without the variable it fails, saying what is missing.
 */
eventStoreContract(
  'KurrentDB',
  async () => {
    const url = process.env.KURRENTDB_URL;
    if (!url) throw new Error('KURRENTDB_URL is not set: this suite needs a running KurrentDB server');
    const store = createKurrentDbEventStore(url);
    return { store, cleanup: () => store.close() };
  },
  // Commit positions are monotonic but not consecutive; ids are deduplicated per stream; no hash chain.
  { hashChain: false, gaplessPositions: false, uniqueEventIdsAcrossStreams: false },
);
