import { legacyCredentialId } from '../../../../projections/src/identity/legacy-credentials';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/postgres';
import { eraseCredentials, pruneCredentials, saveCredential, UNNAMED_CREDENTIAL_GRACE_SECONDS } from './credentials';
import { ensureIdentityStoreSchema } from './schema';

/**
 * The credentials table on a real database: what is kept and erased, and the one-off move of the hashes a
 * users read model made before issue 6 still holds.
 */
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

const HASH = (n: number) => `scrypt$16384$8$1$c2FsdA==$${Buffer.from(`hash-${n}`).toString('base64')}`;

async function addUserRow(id: string, history: string[]): Promise<void> {
  await db.pool.query(
    `INSERT INTO users (id, username, name, roles, company_codes, created_at, stream_version, global_position, credential_id, credential_history)
     VALUES ($1, $1 || '@example.test', 'Someone', '{}', '{}', now(), 1, 1, $2, $3)`,
    [id, history[0] ?? null, history],
  );
}

const idsOf = async (userId: string) =>
  (await db.pool.query<{ credential_id: string }>('SELECT credential_id FROM credentials WHERE user_id = $1 ORDER BY credential_id', [userId])).rows.map(
    (r) => r.credential_id,
  );

describe('credentials', () => {
  it('saving is idempotent on the credential id (a retried write changes nothing)', async () => {
    await saveCredential(db.pool, { credentialId: 'c-idem', userId: 'u-idem', hash: HASH(1) });
    await saveCredential(db.pool, { credentialId: 'c-idem', userId: 'u-idem', hash: HASH(2) });
    const { rows } = await db.pool.query<{ hash: string }>('SELECT hash FROM credentials WHERE credential_id = $1', ['c-idem']);
    expect(rows).toEqual([{ hash: HASH(1) }]);
  });

  it('pruning erases rows the last five do not name once they are past the grace, and nothing else', async () => {
    const user = 'u-prune';
    await addUserRow(user, ['c5', 'c4', 'c3', 'c2', 'c1']);
    for (const id of ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'orphan-old', 'in-flight'])
      await saveCredential(db.pool, { credentialId: id, userId: user, hash: HASH(id.length) });
    await db.pool.query(
      `UPDATE credentials SET created_at = now() - make_interval(secs => $2::int + 60) WHERE user_id = $1 AND credential_id <> 'in-flight'`,
      [user, UNNAMED_CREDENTIAL_GRACE_SECONDS],
    );
    expect(await pruneCredentials(db.pool, user)).toBe(2);
    // c0 is six passwords back and orphan-old never became a password; in-flight may still be named.
    expect(await idsOf(user)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'in-flight']);
  });

  it('erasing removes every hash of the user and only theirs', async () => {
    await saveCredential(db.pool, { credentialId: 'e-1', userId: 'u-erase', hash: HASH(1) });
    await saveCredential(db.pool, { credentialId: 'e-2', userId: 'u-keep', hash: HASH(2) });
    expect(await eraseCredentials(db.pool, 'u-erase')).toBe(1);
    expect(await idsOf('u-erase')).toEqual([]);
    expect(await idsOf('u-keep')).toEqual(['e-2']);
  });
});

describe('the move of the hashes out of a users read model made before issue 6', () => {
  it('puts each hash into credentials under its legacy id, names them in the read model, and drops the hash columns', async () => {
    // The read model as the old projection left it: the hashes in password_hash and password_history.
    await db.pool.query(`ALTER TABLE users ADD COLUMN password_hash text, ADD COLUMN password_history text[] NOT NULL DEFAULT '{}'`);
    await db.pool.query(
      `INSERT INTO users (id, username, name, roles, company_codes, created_at, stream_version, global_position, password_hash, password_history)
       VALUES ('u-old', 'old@example.test', 'Old', '{}', '{}', now(), 3, 3, $1, $2)`,
      [HASH(3), [HASH(3), HASH(2), HASH(1)]],
    );

    await ensureIdentityStoreSchema(db.pool);

    const ids = [HASH(3), HASH(2), HASH(1)].map(legacyCredentialId);
    const { rows } = await db.pool.query<{ credential_id: string; credential_history: string[] }>(
      `SELECT credential_id, credential_history FROM users WHERE id = 'u-old'`,
    );
    expect(rows[0]).toEqual({ credential_id: ids[0], credential_history: ids });
    const { rows: moved } = await db.pool.query<{ credential_id: string; hash: string }>(
      `SELECT credential_id, hash FROM credentials WHERE user_id = 'u-old' ORDER BY created_at DESC`,
    );
    expect(moved).toEqual([HASH(3), HASH(2), HASH(1)].map((hash) => ({ credential_id: legacyCredentialId(hash), hash })));
    const { rows: columns } = await db.pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'users' AND column_name LIKE 'password%' ORDER BY column_name`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(['password_changed_at']);

    // Run again (every start): nothing left to move, nothing changes.
    await ensureIdentityStoreSchema(db.pool);
    expect(await idsOf('u-old')).toHaveLength(3);
  });
});
