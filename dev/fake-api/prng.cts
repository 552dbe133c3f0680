/**
 * Deterministic pseudo-random numbers for the fake API.
 *
 * The fake must produce the same data on every run (tests compare values, benchmarks compare timings), so nothing
 * here touches Math.random. Two tools:
 * - `Prng`: a sequential generator (mulberry32) for building seed data in a fixed order;
 * - `hashUnit`: a stateless keyed value in [0, 1), for data computed on demand (competitor SERPs, AI metrics),
 *   where the answer must not depend on how many other requests came before.
 */

/** 32-bit FNV-1a hash of a string. */
export function hashString(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

/** Mixes a 32-bit integer (murmur3 finaliser) so close inputs give unrelated outputs. */
function mix32(x: number): number {
	let h = x >>> 0;
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}

/** A value in [0, 1) that depends only on its key parts. */
export function hashUnit(...parts: Array<string | number>): number {
	return mix32(hashString(parts.join('\u0001'))) / 4294967296;
}

export class Prng {
	private stateValue: number;

	constructor(seed: number | string) {
		this.stateValue = (typeof seed === 'string' ? hashString(seed) : seed) >>> 0;
	}

	/** Next value in [0, 1) (mulberry32). */
	next(): number {
		this.stateValue = (this.stateValue + 0x6d2b79f5) >>> 0;
		let t = this.stateValue;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** Integer in [min, max], both inclusive. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	/** True with probability p. */
	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	/** Lower-case hex string of the given length, e.g. for auth keys and ids. */
	hex(length: number): string {
		let out = '';
		while (out.length < length) out += Math.floor(this.next() * 16).toString(16);
		return out;
	}
}
