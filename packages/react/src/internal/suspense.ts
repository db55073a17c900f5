/**
 * Suspense without `use()` (React 18 has none): a render that has to wait
 * throws the promise of the work it waits for, and the render after that
 * promise settles reads how the work ended. The SDK de-duplicates the work
 * itself (one user load, one navigation); a tracker only keeps one promise
 * per owner, so every waiting component throws the same one (StrictMode's
 * double renders included) and a failure reaches the error boundary.
 */

export interface Work {
  /** Settles (never rejects) once `status` is final. */
  promise: Promise<void>;
  status: 'pending' | 'done' | 'failed';
  error?: unknown;
}

export class WorkTracker<Owner extends object> {
  readonly #works = new WeakMap<Owner, Work>();
  readonly #start: (owner: Owner) => Promise<unknown>;

  constructor(start: (owner: Owner) => Promise<unknown>) {
    this.#start = start;
  }

  /**
   * Returns once the work of `owner` is done; otherwise throws what a render
   * must: the promise while it runs (starting it if needed), the failure if
   * it failed. A failure is forgotten after this render pass (React retries a
   * failed render once, synchronously), so an error-boundary reset starts anew.
   */
  suspend(owner: Owner): void {
    const work = this.#works.get(owner) ?? this.#begin(owner);
    if (work.status === 'pending') throw work.promise;
    if (work.status === 'failed') {
      queueMicrotask(() => this.forget(owner, work));
      throw work.error;
    }
  }

  /** The work of `owner` as it stands, if any. */
  peek(owner: Owner): Work | undefined {
    return this.#works.get(owner);
  }

  /** The running or finished work of `owner`; starts it anew when there is none or it failed. */
  run(owner: Owner): Work {
    const work = this.#works.get(owner);
    return work && work.status !== 'failed' ? work : this.#begin(owner);
  }

  /** Forgets finished work of `owner` (all of it, or only `work`), so the next `suspend` starts anew. */
  forget(owner: Owner, work = this.#works.get(owner)): void {
    if (work && work.status !== 'pending' && this.#works.get(owner) === work) this.#works.delete(owner);
  }

  #begin(owner: Owner): Work {
    const work: Work = { status: 'pending', promise: Promise.resolve() };
    work.promise = this.#start(owner).then(
      () => {
        work.status = 'done';
      },
      (error: unknown) => {
        work.status = 'failed';
        work.error = error;
      },
    );
    this.#works.set(owner, work);
    return work;
  }
}
