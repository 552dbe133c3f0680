/**
 * Fault injection: the faults armed on the fake, how a request is matched against a fault (or an after-answer
 * change, see containers.cts), and the ids that remove one fault. The answers a fault gives are sent by server.cts.
 */

export type FaultKind = 'status' | 'non-json' | 'empty' | 'truncated' | 'stall' | 'drop';
export const FAULT_KINDS: readonly FaultKind[] = [
	'status',
	'non-json',
	'empty',
	'truncated',
	'stall',
	'drop',
];

/** Which API requests a fault or an after-answer change applies to. */
export interface RequestMatch {
	/** Any method when left out; compared case-insensitively. */
	method?: string;
	/** A string matches the decoded path exactly (or the raw path); a RegExp is tested against the decoded path. */
	path?: string | RegExp;
}

export interface FaultSpec extends RequestMatch {
	/** How many of the next matching requests to fault; `Infinity` keeps it armed until removed or cleared. */
	times: number;
	/** For 'status': the status to answer (default 500). */
	status?: number;
	/** `Retry-After` header value, for 'status'. */
	retryAfter?: string;
	/** Body to send instead of the default of the kind. */
	body?: string;
	/** Default 'status'. */
	kind?: FaultKind;
	/** For 'stall': wait this long, then answer normally; omitted = never answer. */
	stallMs?: number;
	/**
	 * Fault only every `every`-th matching request (a flaky API: with 2, every other request fails, so most pages
	 * need a retry); `times` counts the faulted ones. Default 1: every matching request.
	 */
	every?: number;
}

/** An armed fault. */
export interface ActiveFault extends FaultSpec {
	id: number;
	/** Requests still to fault; Infinity for a persistent fault. */
	remaining: number;
	/** Matching requests seen (for `every`). */
	seen: number;
}

/** An armed fault as the control route `GET /__control/faults` lists it (JSON has no Infinity: "forever"). */
export interface FaultInfo {
	id: number;
	method?: string;
	path?: string;
	pathRegex?: string;
	pathRegexFlags?: string;
	kind: FaultKind;
	status?: number;
	times: number | 'forever';
	remaining: number | 'forever';
}

/** True when the request is one `m` names. */
export function matchesRequest(
	m: RequestMatch,
	method: string,
	rawPath: string,
	path: string,
): boolean {
	if (m.method && m.method.toUpperCase() !== method) return false;
	if (m.path === undefined) return true;
	return typeof m.path === 'string' ? m.path === path || m.path === rawPath : m.path.test(path);
}

/** A count for JSON: Infinity (a persistent fault) is written "forever". */
export const countForJson = (n: number): number | 'forever' => (n === Infinity ? 'forever' : n);

/** The faults armed, in the order they were injected; the first that matches a request faults it. */
export class FaultTable {
	private faults: ActiveFault[] = [];
	/** Ids are never reused, not even after clear(). */
	private nextId = 1;

	/** Arms a fault; returns its id. `times` must be a positive integer or Infinity. */
	inject(spec: FaultSpec): number {
		if (spec.times !== Infinity && (!Number.isInteger(spec.times) || spec.times < 1))
			throw new Error('injectFault: times must be a positive integer or Infinity');
		if (spec.kind !== undefined && !FAULT_KINDS.includes(spec.kind))
			throw new Error(`injectFault: kind must be one of ${FAULT_KINDS.join(', ')}`);
		if (spec.every !== undefined && (!Number.isInteger(spec.every) || spec.every < 1))
			throw new Error('injectFault: every must be a positive integer');
		const id = this.nextId++;
		this.faults.push({ ...spec, id, remaining: spec.times, seen: 0 });
		return id;
	}

	/** Disarms one fault; false when no fault with that id is armed (never was, used up, or cleared). */
	remove(id: number): boolean {
		const before = this.faults.length;
		this.faults = this.faults.filter((f) => f.id !== id);
		return this.faults.length < before;
	}

	clear(): void {
		this.faults = [];
	}

	/** Requests still to fault: the sum over the faults armed, Infinity while a persistent fault is armed. */
	pending(): number {
		return this.faults.reduce((n, f) => n + f.remaining, 0);
	}

	list(): FaultInfo[] {
		return this.faults.map((f) => {
			const info: FaultInfo = {
				id: f.id,
				kind: f.kind ?? 'status',
				times: countForJson(f.times),
				remaining: countForJson(f.remaining),
			};
			if (f.method !== undefined) info.method = f.method;
			if (typeof f.path === 'string') info.path = f.path;
			else if (f.path) {
				info.pathRegex = f.path.source;
				info.pathRegexFlags = f.path.flags;
			}
			if (f.status !== undefined) info.status = f.status;
			return info;
		});
	}

	/** The first armed fault that matches the request, counted down (and dropped when used up). */
	take(method: string, rawPath: string, path: string): ActiveFault | undefined {
		const f = this.faults.find(
			(x) =>
				x.remaining > 0 &&
				matchesRequest(x, method, rawPath, path) &&
				++x.seen % (x.every ?? 1) === 0,
		);
		if (!f) return undefined;
		f.remaining--;
		if (f.remaining <= 0) this.faults = this.faults.filter((x) => x !== f);
		return f;
	}
}
