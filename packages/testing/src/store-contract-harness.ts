/**
 * What a store hands the store contract suite: a factory of fresh, empty stores, and optionally a
 * way to open more instances over the same data (for concurrent claims and key rotation) and to
 * read the raw stored record (to check that encryption hides the conversation).
 */
import type { ContinuationStore, Encryption } from '@agent-continuations/core';

/** What the suite asks of a store it opens. */
export interface StoreContractContext {
  /** Encrypt bodies at rest with this; undefined means no encryption. */
  encryption?: Encryption;
}

/** A store under test, with the means the suite needs to probe it. */
export interface StoreUnderTest {
  store: ContinuationStore;
  /**
   * Open another instance (a new connection or client) over the same data as `store`, with its own
   * `encryption`. Required when the store declares `capabilities.multiProcess`, and for the
   * encryption tests. The suite closes what it opens.
   */
  connect?: (context: StoreContractContext) => ContinuationStore | Promise<ContinuationStore>;
  /** Everything stored for the record `id` (row, hash, ...) as text, or undefined when there is none. */
  raw?: (id: string) => Promise<string | undefined>;
  /** Drop the data (table, keys, file) and close `store`; without it the suite calls `store.close()`. */
  cleanup?: () => void | Promise<void>;
}

/** Return a fresh, empty store (or a {@link StoreUnderTest}) honouring `context`. Called once per test. */
export type StoreContractFactory = (
  context: StoreContractContext,
) => ContinuationStore | StoreUnderTest | Promise<ContinuationStore | StoreUnderTest>;

/** Options of `runStoreContract`. */
export interface StoreContractOptions {
  /** Claimers racing for one continuation; 50 by default. */
  claimers?: number;
  /** Store instances the claimers are spread over, when the store can `connect`; 5 by default. */
  connections?: number;
  /**
   * Run the encryption-at-rest tests: the factory must honour `context.encryption` and return
   * `raw` and `connect`.
   */
  encryption?: boolean;
}

/** The opened store and everything to close after a test. */
export interface OpenedStore {
  store: ContinuationStore;
  harness: StoreUnderTest;
  /** Another instance over the same data; fails the test when the store cannot open one. */
  connect(context?: StoreContractContext): Promise<ContinuationStore>;
  close(): Promise<void>;
}

/** Open a store through the factory and keep track of every instance to close. */
export async function openStore(
  factory: StoreContractFactory,
  context: StoreContractContext = {},
): Promise<OpenedStore> {
  const made = await factory(context);
  const harness: StoreUnderTest = 'store' in made ? made : { store: made };
  const extra: ContinuationStore[] = [];
  return {
    store: harness.store,
    harness,
    async connect(next = context) {
      if (!harness.connect) {
        throw new Error(
          'This test needs a second instance over the same data: return `connect` from the factory.',
        );
      }
      const store = await harness.connect(next);
      extra.push(store);
      return store;
    },
    async close() {
      await Promise.all(extra.map((store) => store.close?.()));
      if (harness.cleanup) await harness.cleanup();
      else await harness.store.close?.();
    },
  };
}
