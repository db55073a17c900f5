/** The PostgreSQL extensions the migrations use, loaded into every PGlite instance (PostgreSQL has them built in). */
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const pgliteExtensions = { pg_trgm };
