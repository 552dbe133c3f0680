/** Shared helpers of the fake API's own tests: start a fake on port 0 and call it with global fetch. */
import type { ChildProcess } from 'node:child_process';

import { FakeKeywordApi, type FakeKeywordApiOptions } from '../../dev/fake-api/index.cjs';

export const TOKEN = 'test-token-123';
/** A fixed clock: 2026-01-15T12:00:00Z, so dates in assertions are stable. */
export const FIXED_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

export interface Reply<T = unknown> {
	status: number;
	headers: Headers;
	text: string;
	json: T;
}

export interface Fake {
	api: FakeKeywordApi;
	base: string;
	/** Authenticated call; `path` is sent as given (encode names yourself). */
	call<T = any>(
		method: string,
		path: string,
		body?: unknown,
		headers?: Record<string, string>,
	): Promise<Reply<T>>;
	get<T = any>(path: string): Promise<Reply<T>>;
	stop(): Promise<void>;
}

export async function startFake(opts: FakeKeywordApiOptions = {}): Promise<Fake> {
	const api = new FakeKeywordApi({ now: () => FIXED_NOW, ...opts });
	const base = await api.start();
	const call = async <T,>(
		method: string,
		path: string,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<Reply<T>> => {
		const res = await fetch(base + path, {
			method,
			headers: {
				authorization: `Bearer ${api.token}`,
				'content-type': 'application/json',
				...headers,
			},
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		});
		const text = await res.text();
		let json: unknown;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		return { status: res.status, headers: res.headers, text, json: json as T };
	};
	return { api, base, call, get: (path) => call('GET', path), stop: () => api.stop() };
}

export const enc = encodeURIComponent;

/** Asserts an error body of the fake's documented shape and returns its first error. */
export function errorOf(json: unknown): {
	status: string;
	title: string;
	detail: string;
	source?: Record<string, string>;
} {
	const body = json as { errors?: Array<{ status: string; title: string; detail: string }> };
	if (!body || !Array.isArray(body.errors) || body.errors.length === 0)
		throw new Error(`not an error body: ${JSON.stringify(json)}`);
	for (const e of body.errors) {
		if (typeof e.status !== 'string' || typeof e.title !== 'string' || typeof e.detail !== 'string')
			throw new Error(`bad error entry ${JSON.stringify(e)}`);
	}
	return body.errors[0];
}

/** The first line a dev server's CLI prints (its JSON announcement); rejects if the process exits first. */
export function firstLine(child: ChildProcess): Promise<string> {
	return new Promise((resolve, reject) => {
		let buf = '';
		child.stdout!.on('data', (chunk: Buffer) => {
			buf += chunk.toString('utf8');
			const nl = buf.indexOf('\n');
			if (nl !== -1) resolve(buf.slice(0, nl));
		});
		child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
	});
}
