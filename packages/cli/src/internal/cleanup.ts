/** Things to undo on shutdown, undone last-in first-out; a step that hangs is abandoned after `timeoutMs`. */
export class Cleanup {
  #steps: Array<() => Promise<unknown> | unknown> = [];

  add(step: () => Promise<unknown> | unknown): void {
    this.#steps.push(step);
  }

  async run(onError: (error: unknown) => void = () => {}, timeoutMs = 5_000): Promise<void> {
    for (let step = this.#steps.pop(); step; step = this.#steps.pop()) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      });
      await Promise.race([Promise.resolve().then(step), timeout]).catch(onError);
      clearTimeout(timer);
    }
  }
}
