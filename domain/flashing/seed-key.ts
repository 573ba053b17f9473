/**
 * UDS security access (service 0x27): the ECU sends a seed, the tester answers
 * the key the firmware's seed/key algorithm computes from it and a secret.
 *
 * The flashing profile names the algorithm (`seedKeyAlgorithm`); its secret is
 * the firmware's stored password for the security level (admin "password
 * storage"). Keys are computed on the server and answered with the flash grant,
 * so neither the algorithm's secret nor the key ever reaches the browser; the
 * virtual vehicle's ECU uses the same functions to check the key it receives.
 * The import rules keep this module out of the app (`.dependency-cruiser.cjs`).
 *
 * Real algorithms are vendor secrets; these are documented, deterministic ones
 * of the same shape (fixed-length seed, key of the same length, a secret
 * parameter), so everything around them — levels, lockout, grants — is real.
 */

export class SeedKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeedKeyError";
  }
}

export interface SeedKeyAlgorithm {
  /** Seed length in bytes the ECU sends (the key has the same length). */
  seedBytes: number;
  describe: string;
  key(seed: Uint8Array, secret: string): Uint8Array;
}

/** The secret as a 32-bit number: hexadecimal ("0x1A2B3C4D" or "1A2B3C4D") or, otherwise, a text hashed with FNV-1a. */
export function secretWord(secret: string): number {
  const hex = secret.trim().replace(/^0x/i, "");
  if (/^[0-9a-f]{1,8}$/i.test(hex)) return Number.parseInt(hex, 16) >>> 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < secret.length; i++) {
    hash ^= secret.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

const rotl32 = (value: number, bits: number) => ((value << bits) | (value >>> (32 - bits))) >>> 0;
const word = (bytes: Uint8Array) => ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
const bytesOf = (value: number) =>
  new Uint8Array([(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);

export const SEED_KEY_ALGORITHMS: Readonly<Record<string, SeedKeyAlgorithm>> = {
  /** 4-byte seed; 8 rounds of rotate-left-3 and XOR with the secret, then add the secret rotated by 16. */
  "xor-rotate-32": {
    seedBytes: 4,
    describe: "32-bit seed, 8 rounds of rotate-left 3 and XOR with the secret, plus the secret rotated 16",
    key(seed, secret) {
      const s = secretWord(secret);
      let value = word(seed);
      for (let round = 0; round < 8; round++) value = (rotl32(value, 3) ^ s) >>> 0;
      return bytesOf((value + rotl32(s, 16)) >>> 0);
    },
  },
  /** 2-byte seed (older ECUs): a 16-bit multiply-XOR with the secret's low half. */
  "mul-xor-16": {
    seedBytes: 2,
    describe: "16-bit seed multiplied by 0x9E37 plus the secret's low half, XOR the high half",
    key(seed, secret) {
      const s = secretWord(secret);
      const value = ((seed[0] << 8) | seed[1]) & 0xffff;
      const key = ((Math.imul(value, 0x9e37) + (s & 0xffff)) ^ (s >>> 16)) & 0xffff;
      return new Uint8Array([key >>> 8, key & 0xff]);
    },
  },
};

export const seedKeyAlgorithmIds = Object.keys(SEED_KEY_ALGORITHMS);

/** An all-zero seed means the ECU is already unlocked: no key is sent. */
export const isUnlockedSeed = (seed: Uint8Array): boolean => seed.every((b) => b === 0);

/** The key for `seed` by the named algorithm; refuses an unknown algorithm or a seed of the wrong length. */
export function computeKey(algorithmId: string, seed: Uint8Array, secret: string): Uint8Array {
  const algorithm = SEED_KEY_ALGORITHMS[algorithmId];
  if (!algorithm) throw new SeedKeyError(`unknown seed/key algorithm "${algorithmId}"`);
  if (seed.length !== algorithm.seedBytes)
    throw new SeedKeyError(`the ${algorithmId} seed is ${algorithm.seedBytes} bytes, got ${seed.length}`);
  return algorithm.key(seed, secret);
}
