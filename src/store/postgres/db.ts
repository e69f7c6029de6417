// Bun's built-in PostgreSQL client, the way postern uses it: one pool per schema (its search_path
// set at connect, so statements name tables unqualified), rows normalized to the numbers the
// mappers expect (BIGINT columns arrive as strings), and migrations applied under an advisory lock.
import { SQL } from "bun";

export type Sql = InstanceType<typeof SQL>;
export type Row = Record<string, unknown>;
type Param = string | number | boolean | null | Uint8Array | unknown[];

/** Opens a pool on `url` whose connections use `schema` (created by migrate), with `settings` (more session settings) at connect. */
export function openPool(url: string, schema: string, max = 10, settings: Record<string, string> = {}): Sql {
  return new SQL({ url, max, connection: { ...settings, search_path: quoteIdent(schema) } } as ConstructorParameters<typeof SQL>[0]);
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

// BIGINT (timestamps, positions, counts) comes back as a string: these columns are numbers.
const NUMERIC = /_at$|^(ts|seq|value|count|n|bucket|first_seen|last_seen|t|position)$/;

export function norm(r: Row): Row {
  for (const k in r) if (typeof r[k] === "string" && NUMERIC.test(k)) r[k] = Number(r[k]);
  return r;
}

export async function rows(sql: Sql, text: string, params: Param[] = []): Promise<Row[]> {
  const result = (await sql.unsafe(text, params)) as Row[];
  return [...result].map(norm);
}

export async function one(sql: Sql, text: string, params: Param[] = []): Promise<Row | null> {
  return (await rows(sql, text, params))[0] ?? null;
}

/** Runs a write and returns how many rows it touched. */
export async function exec(sql: Sql, text: string, params: Param[] = []): Promise<number> {
  const result = (await sql.unsafe(text, params)) as unknown as { count: number };
  return result.count ?? 0;
}

/** True when `e` is PostgreSQL's unique_violation. */
export const isUniqueViolation = (e: unknown) => (e as { errno?: string; code?: string })?.errno === "23505"
  || /duplicate key value/.test(String((e as Error)?.message));

/**
 * Applies `migrations` beyond the schema's recorded version, each in the one transaction that
 * records it. A transaction-scoped advisory lock per schema makes nodes starting at once take
 * turns: the second finds the work done.
 */
export async function migrate(sql: Sql, schema: string, migrations: string[]): Promise<void> {
  await sql.begin(async (tx) => {
    await tx.unsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`postern-migrate:${schema}`]);
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await tx.unsafe(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
    await tx.unsafe("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)");
    const [row] = (await tx.unsafe("SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations")) as { v: number }[];
    const applied = row!.v;
    if (applied > migrations.length) throw new Error(`schema ${schema} is at version ${applied}, newer than this postern (${migrations.length})`);
    for (let i = applied; i < migrations.length; i++) {
      await tx.unsafe(migrations[i]!);
      await tx.unsafe("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)", [i + 1]);
    }
  });
}
