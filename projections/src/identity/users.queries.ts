import type { Pool } from 'pg';
import type { Role } from '../../../domain/src/identity/roles';

export type UserRecord = {
  id: string;
  username: string;
  name: string;
  /** Only for the sign-in check; never serialise it. */
  passwordHash: string;
  roles: Role[];
  companyCodes: string[];
  baId: string | null;
  createdAt: string;
};

type Row = {
  id: string;
  username: string;
  name: string;
  password_hash: string;
  roles: string[];
  company_codes: string[];
  ba_id: string | null;
  created_at: Date;
};

const toUser = (r: Row): UserRecord => ({
  id: r.id,
  username: r.username,
  name: r.name,
  passwordHash: r.password_hash,
  roles: r.roles as Role[],
  companyCodes: r.company_codes,
  baId: r.ba_id,
  createdAt: r.created_at.toISOString(),
});

const columns = 'id, username, name, password_hash, roles, company_codes, ba_id, created_at';

/** Usernames are lower-cased e-mail addresses; the lookup is case-insensitive for the caller's sake. */
export async function findUserByUsername(db: Pool, username: string): Promise<UserRecord | null> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM users WHERE username = $1`, [
    username.trim().toLowerCase(),
  ]);
  return rows[0] ? toUser(rows[0]) : null;
}

export async function findUserById(db: Pool, id: string): Promise<UserRecord | null> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM users WHERE id = $1`, [id]);
  return rows[0] ? toUser(rows[0]) : null;
}
