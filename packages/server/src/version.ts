/** The service's version (kept equal to package.json's by `version.test.ts`). */
export const serviceVersion = '0.1.0';
