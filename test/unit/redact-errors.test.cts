import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { describeFailure, extractApiMessage } from '../../nodes/shared/errors';
import { REDACTED, redactDeep, stripTokenParameter } from '../../nodes/shared/redact';

const TOKEN = 'sekret+token/42';

describe('redaction', () => {
	it('strips api_token from links wherever it sits in the query', () => {
		assert.equal(stripTokenParameter('https://x/a?api_token=abc&page=2'), 'https://x/a?page=2');
		assert.equal(stripTokenParameter('https://x/a?page=2&api_token=abc'), 'https://x/a?page=2');
		assert.equal(stripTokenParameter('https://x/a?api_token=abc'), 'https://x/a');
		assert.equal(
			stripTokenParameter('https://x/a?page=1&api_token=abc&per_page=5'),
			'https://x/a?page=1&per_page=5',
		);
	});

	it('removes the token (plain and URL-encoded) from any string and masks api_token fields', () => {
		const input = {
			links: { self: `https://x/?api_token=${encodeURIComponent(TOKEN)}&page=1` },
			note: `token is ${TOKEN} or ${encodeURIComponent(TOKEN)}`,
			attributes: { api_token: TOKEN },
		};
		const output = JSON.stringify(redactDeep(input, TOKEN));
		assert.ok(!output.includes(TOKEN));
		assert.ok(!output.includes(encodeURIComponent(TOKEN)));
		assert.ok(output.includes(REDACTED));
		assert.equal(redactDeep(input, TOKEN, true).attributes.api_token, TOKEN);
	});
});

describe('error messages', () => {
	it('reads the API message from every body shape', () => {
		assert.equal(
			extractApiMessage({
				errors: [
					{
						status: '422',
						title: 'Unprocessable',
						detail: 'kw too long',
						source: { pointer: '/data/0/attributes/kw' },
					},
				],
			}),
			'kw too long (/data/0/attributes/kw)',
		);
		assert.equal(extractApiMessage({ message: 'Project not found' }), 'Project not found');
		assert.equal(extractApiMessage({ errors: { kw: ['too long'] } }), 'kw: too long');
		assert.equal(
			extractApiMessage('<html><head><title>502 Bad Gateway</title></head></html>'),
			'502 Bad Gateway',
		);
		assert.equal(extractApiMessage('plain words'), 'plain words');
		assert.equal(extractApiMessage(''), undefined);
		assert.equal(extractApiMessage('{"error":"nope"}'), 'nope');
	});

	it('says what went wrong, what to check, and never the token', () => {
		const failure = describeFailure(
			{ status: 401, body: { message: `bad token ${TOKEN}` } },
			TOKEN,
		);
		assert.match(failure.message, /Authentication failed \(HTTP 401\)/);
		assert.match(failure.description, /Settings → Account/);
		assert.ok(!JSON.stringify(failure).includes(TOKEN));
		assert.match(describeFailure({ status: 404 }).description, /project or group name/);
		assert.match(describeFailure({ status: 429 }).message, /Rate limit/);
		assert.match(describeFailure({ status: 503, body: '' }).message, /unavailable \(HTTP 503\)$/);
		assert.match(describeFailure({ code: 'ECONNRESET' }).message, /closed before an answer/);
		assert.match(describeFailure({ status: 200, body: '{"data":[' }).message, /could not be read/);
	});
});

describe('redaction is copy-on-write', () => {
	it('never modifies its input, shares what has nothing to redact, copies only along the way to a change', () => {
		const clean = { kw: 'running shoes?', tags: [{ name: 'Brand' }], trends: { day: 1 } };
		const dirty = { links: { self: `https://x/?page=1&api_token=${TOKEN}` }, data: clean };
		const snapshot = JSON.stringify(dirty);
		const output = redactDeep(dirty, TOKEN);
		assert.equal(JSON.stringify(dirty), snapshot, 'input unchanged');
		assert.equal(output.data, clean, 'a clean subtree is shared, not copied');
		assert.notEqual(output.links, dirty.links);
		assert.equal(output.links.self, 'https://x/?page=1');
		assert.equal(redactDeep(clean, TOKEN), clean);
	});
});
