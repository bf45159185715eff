/** Poll `probe` every 50 ms until it gives a value (the test's own timeout bounds the wait). */
export async function until<T>(probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
