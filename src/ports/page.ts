/** One page of a list, in the list's order: `hasMore` says whether another page follows it. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/** A seller's newest-first list (orders, subscriptions): the page window and the filters they share. */
export interface NewestFirstQuery<Status extends string> {
  limit: number;
  /** Where the previous page ended (its last entry): this page starts right after it. */
  after?: { createdAt: number; id: string };
  productId?: string;
  status?: Status;
}
