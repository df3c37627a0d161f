/**
 * Reads in flight (searches, chunk lists) and a store swap waiting to happen: a rebuild's swap
 * closes the store, so it waits for running reads, and reads that arrive meanwhile wait for it.
 */
export class ReadGate {
  private reads = 0;
  private readsDone: (() => void) | null = null;
  private swapping: Promise<void> | null = null;

  /** Runs a read of the store, after any swap in progress and never during one. */
  async reading<T>(read: () => Promise<T>): Promise<T> {
    while (this.swapping) await this.swapping;
    this.reads++;
    try {
      return await read();
    } finally {
      if (--this.reads === 0) this.readsDone?.();
    }
  }

  /** Runs `swap` once no read is in flight, holding new reads until it is done. */
  async exclusive(swap: () => Promise<void>): Promise<void> {
    while (this.swapping) await this.swapping;
    let release!: () => void;
    this.swapping = new Promise((resolve) => (release = resolve));
    try {
      if (this.reads > 0) await new Promise<void>((resolve) => (this.readsDone = resolve));
      this.readsDone = null;
      await swap();
    } finally {
      this.swapping = null;
      release();
    }
  }
}
