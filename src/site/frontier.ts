/**
 * A crawl's frontier: the URLs found and not yet fetched, taken breadth-first (the shallowest
 * first, in the order they were found), or best-first when the crawl has a query (the highest
 * score first, then the shallowest). A binary heap, so a frontier of 100,000 URLs costs a few
 * comparisons a step.
 */

/** A URL waiting to be fetched. */
export interface CrawlTask {
  /** Normalized URL. */
  url: string;
  /** Links followed from the start URL (0 for the start URL). */
  depth: number;
  /** The page it was found on (absent for the start URL). */
  parent?: string;
  /** Relevance to the crawl's query (0 without one). */
  score: number;
  /** The URL's shape and the length of the same-shape chain that led to it (traps.ts). */
  shape: string;
  chain: number;
}

interface Entry {
  task: CrawlTask;
  seq: number;
}

export class Frontier {
  readonly #heap: Entry[] = [];
  readonly #byScore: boolean;
  #seq = 0;

  /** `byScore`: best-first by score; otherwise breadth-first. */
  constructor(byScore: boolean) {
    this.#byScore = byScore;
  }

  get size(): number {
    return this.#heap.length;
  }

  push(task: CrawlTask): void {
    const heap = this.#heap;
    heap.push({ task, seq: this.#seq++ });
    let i = heap.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.#before(heap[i]!, heap[up]!)) break;
      [heap[i], heap[up]] = [heap[up]!, heap[i]!];
      i = up;
    }
  }

  /** The next task, or undefined when the frontier is empty. */
  pop(): CrawlTask | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined) return undefined;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let best = i;
        if (left < heap.length && this.#before(heap[left]!, heap[best]!)) best = left;
        if (right < heap.length && this.#before(heap[right]!, heap[best]!)) best = right;
        if (best === i) break;
        [heap[i], heap[best]] = [heap[best]!, heap[i]!];
        i = best;
      }
    }
    return top.task;
  }

  /** Takes every task out, in no particular order. */
  drain(): CrawlTask[] {
    return this.#heap.splice(0).map((entry) => entry.task);
  }

  #before(a: Entry, b: Entry): boolean {
    if (this.#byScore && a.task.score !== b.task.score) return a.task.score > b.task.score;
    if (a.task.depth !== b.task.depth) return a.task.depth < b.task.depth;
    return a.seq < b.seq;
  }
}
