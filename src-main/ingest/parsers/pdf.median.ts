/** A running median for the reading order's column tests (`pdf.order.ts`). Pure. */

/** The median of numbers added one by one (two heaps), equal to `median` of all of them. */
export class RunningMedian {
  private low: number[] = []; // max-heap: the smaller half (and the middle one when odd)
  private high: number[] = []; // min-heap: the larger half

  add(v: number): void {
    if (this.low.length === 0 || v <= this.low[0]!) heapPush(this.low, v, (x, y) => x > y);
    else heapPush(this.high, v, (x, y) => x < y);
    if (this.low.length > this.high.length + 1) heapPush(this.high, heapPop(this.low, (x, y) => x > y), (x, y) => x < y);
    else if (this.high.length > this.low.length) heapPush(this.low, heapPop(this.high, (x, y) => x < y), (x, y) => x > y);
  }

  get size(): number {
    return this.low.length + this.high.length;
  }

  value(): number {
    if (this.size === 0) return 0;
    return this.low.length > this.high.length ? this.low[0]! : (this.low[0]! + this.high[0]!) / 2;
  }
}

function heapPush(h: number[], v: number, before: (x: number, y: number) => boolean): void {
  let i = h.length;
  h.push(v);
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!before(h[i]!, h[p]!)) break;
    [h[i], h[p]] = [h[p]!, h[i]!];
    i = p;
  }
}

function heapPop(h: number[], before: (x: number, y: number) => boolean): number {
  const top = h[0]!;
  const last = h.pop()!;
  if (h.length === 0) return top;
  h[0] = last;
  for (let i = 0; ; ) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < h.length && before(h[l]!, h[m]!)) m = l;
    if (r < h.length && before(h[r]!, h[m]!)) m = r;
    if (m === i) break;
    [h[i], h[m]] = [h[m]!, h[i]!];
    i = m;
  }
  return top;
}
