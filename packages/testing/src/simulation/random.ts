/**
 * The simulation's only source of chance: a seeded PRNG (mulberry32) and a string hash, so a seed
 * replays the same sequence exactly.
 */

/** A seeded stream of numbers. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/**
 * A seeded PRNG (mulberry32): the same seed gives the same numbers on every machine.
 *
 * @example
 * ```ts
 * const random = seededRandom(42);
 * random.int(6); // always the same
 * ```
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

/**
 * A 32-bit FNV-1a hash of the parts: faults are decided by hashing where they would strike, so
 * the order in which concurrent calls reach a point does not change which ones fail.
 */
export function hashOf(...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u0000')) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A float in [0, 1) from the hash of the parts. */
export function chanceOf(...parts: readonly (string | number)[]): number {
  return seededRandom(hashOf(...parts)).next();
}
