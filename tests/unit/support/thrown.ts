/** The error of `type` that `run` throws, to check its fields; anything else thrown, or nothing, fails the test. */
export function thrownBy<E extends Error>(type: abstract new (...args: never[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}`);
}
