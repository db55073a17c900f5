// Where the built dashboard is, for the service that serves it (`latchkey dev`, `latchkey start`).
import { fileURLToPath } from 'node:url';

/** The directory of the dashboard's build: `index.html` and `assets/`. */
export const dashboardDir = fileURLToPath(new URL('./dist/', import.meta.url));
