/**
 * A bounded window over a sequence that grows for the life of a service (the journal's entries, the recorder's
 * steps): the newest items, at most `limit` of them and at most `budgetBytes` of what they count for. The
 * oldest go first and the newest always stays, so a server running for weeks never grows past the bound. An
 * item keeps its index in the whole sequence (0 first), whatever went before it.
 */

/** The bounds of a window, and what the caller keeps beside it that goes with its oldest items. */
interface WindowOptions {
  limit: number;
  budgetBytes: number;
  /** Told the index of the oldest item kept after some went; answers the bytes the caller let go with them. */
  letGo?: (start: number) => number;
}

/**
 * An array with a start index: items go from the front and the array is cut once half of it went, so keeping an
 * item costs the same at any size.
 */
export function createWindow<T>(options: WindowOptions) {
  const { limit, budgetBytes, letGo } = options;
  let kept: (T | undefined)[] = [];
  let sizes: number[] = [];
  let head = 0;
  let first = 0;
  let bytes = 0;
  let overrun: 'limit' | 'budget' | undefined;
  const size = () => kept.length - head;
  const over = () => size() > 1 && (size() > limit || bytes > budgetBytes);
  const trim = () => {
    if (!over()) return;
    overrun ??= size() > limit ? 'limit' : 'budget';
    while (over()) {
      bytes -= sizes[head] ?? 0;
      // Let go at once, so a large item is freed before the array is cut.
      kept[head] = undefined;
      head += 1;
    }
    if (letGo) bytes -= letGo(first + head);
    if (head * 2 < kept.length) return;
    kept = kept.slice(head);
    sizes = sizes.slice(head);
    first += head;
    head = 0;
  };
  return {
    limit,
    budgetBytes,
    /** How many items went: the index of the oldest kept. */
    get dropped() {
      return first + head;
    },
    /** How many items came: the index the next one gets. */
    get total() {
      return first + kept.length;
    },
    /** How many items are kept. */
    get size() {
      return size();
    },
    /** The bytes the kept items (and what the caller counted with `count`) count for. */
    get bytes() {
      return bytes;
    },
    /** The bound that first let an item go, once one did. */
    get overrun() {
      return overrun;
    },
    /** Keeps `item`, counted as `itemBytes`, letting the oldest go past the bounds; answers its index. */
    push(item: T, itemBytes: number): number {
      kept.push(item);
      sizes.push(itemBytes);
      bytes += itemBytes;
      const index = first + kept.length - 1;
      trim();
      return index;
    },
    /** Counts `more` bytes for the kept item at `index` (a body read later), or for the caller's own when undefined. */
    count(index: number | undefined, more: number): void {
      if (index !== undefined) {
        const at = index - first;
        if (at < head || at >= sizes.length) return;
        sizes[at] = (sizes[at] ?? 0) + more;
      }
      bytes += more;
      trim();
    },
    /** The kept item at `index`, if it is kept. */
    at(index: number): T | undefined {
      const at = index - first;
      return at < head ? undefined : kept[at];
    },
    /** The kept items, oldest first. */
    *items(): IterableIterator<T> {
      for (let i = head; i < kept.length; i++) {
        const item = kept[i];
        if (item !== undefined) yield item;
      }
    },
  };
}
