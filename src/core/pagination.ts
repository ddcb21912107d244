import type { Pagination } from '../schemas/webhooks.js';
import { ApiPromise } from './api-promise.js';

/**
 * One page of a list: its items, the service's `pagination`, and the way to the next page.
 * @example
 * ```ts
 * const page = await client.webhooks.list({ limit: 50 });
 * if (page.hasNextPage()) await page.getNextPage();
 * ```
 */
export class Page<Item> {
  readonly data: Item[];
  /** When the service sent it. */
  readonly pagination?: Pagination;
  readonly #next: () => PagePromise<Item>;
  readonly #last: boolean;

  constructor(
    data: Item[],
    pagination: Pagination | undefined,
    last: boolean,
    next: () => PagePromise<Item>,
  ) {
    this.data = data;
    this.pagination = pagination;
    this.#last = last;
    this.#next = next;
  }

  /** False on the page `pagination` names last, a short page, or an empty one. */
  hasNextPage(): boolean {
    return !this.#last && this.data.length > 0;
  }

  /** With the same query and options. Check {@link Page.hasNextPage} first. */
  getNextPage(): PagePromise<Item> {
    return this.#next();
  }
}

/**
 * What a list method returns: a promise of the first {@link Page}, and an async iterable over every item of every
 * page (as in stripe-node and openai-node).
 * @example
 * ```ts
 * for await (const event of client.webhooks.list({ status: 'failed' })) console.log(event.id);
 * ```
 */
export class PagePromise<Item> extends ApiPromise<Page<Item>> implements AsyncIterable<Item> {
  /** Reads each page only when the previous one is used up. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    let page: Page<Item> = await this;
    for (;;) {
      yield* page.data;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
  }
}
