/**
 * A Kysely dialect for PGlite. PGlite is one connection, so the driver hands it
 * to one holder at a time: a query waits for the holder before it, and a
 * transaction keeps the connection from `begin` to `commit` or `rollback`.
 */
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';

/** A FIFO lock: `acquire()` resolves with the function that releases it. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => released);
    return acquired;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly db: PGlite,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.db.query<R>(query.sql, [...query.parameters]);
    const command = result.command?.toUpperCase();
    const writes = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return {
      rows: result.rows,
      ...(writes ? { numAffectedRows: BigInt(result.affectedRows ?? 0) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not supported; the method must exist.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite driver: streaming queries are not supported');
  }
}

class PGliteDriver implements Driver {
  readonly #lock = new Mutex();

  constructor(private readonly db: PGlite) {}

  async init(): Promise<void> {
    await this.db.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#lock.acquire();
    return new PGliteConnection(this.db, release);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).release();
  }

  async destroy(): Promise<void> {
    const release = await this.#lock.acquire();
    try {
      if (!this.db.closed) await this.db.close();
    } finally {
      release();
    }
  }
}

/** Kysely dialect over an open PGlite instance; destroying the Kysely instance closes PGlite. */
export function pgliteDialect(db: PGlite): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(db),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
