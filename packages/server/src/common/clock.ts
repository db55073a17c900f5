/** The service's notion of time, in epoch milliseconds. */
export interface Clock {
  now(): number;
}
