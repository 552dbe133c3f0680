/**
 * A living account: persistent faults on one project's paths, projects and groups renamed, archived, restored and
 * deleted (in-process, over the control routes, and between two requests of a client), and keywords deleted by id.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { enc, errorOf, startFake, type Fake } from './helpers.cjs';

const GLOBEX = 'Globex';
/** An assert.throws check: an Error (an ApiError) with that HTTP status. */
const status =
	(code: number) =>
	(err: unknown): boolean =>
		err instanceof Error && (err as { status?: number }).status === code;
const GLOBEX_PATHS = /^\/api\/v2\/groups\/Globex/;

/** A control route call; the answer's status and parsed JSON. */
async function control(
	f: Fake,
	method: string,
	route: string,
	body?: unknown,
): Promise<{ status: number; json: any }> {
	const res = await fetch(`${f.base}/__control/${route}`, {
		method,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const names = async (f: Fake): Promise<string[]> =>
	(await f.get('/api/v2/groups/active')).json.data.map((g: any) => g.id);
const group = (f: Fake, name: string): Promise<{ status: number; json: any }> =>
	f.get(`/api/v2/groups/${enc(name)}`);
const keywordList = (f: Fake, name: string): Promise<{ status: number; json: any }> =>
	f.get(`/api/v2/groups/${enc(name)}/keywords?per_page=250`);

/** A fake with the demo data plus Globex (3 keywords) and its group Globex[sub]Labs (2 keywords). */
async function livingFake(): Promise<Fake> {
	const f = await startFake();
	f.api.addProject(GLOBEX);
	f.api.addGroup(GLOBEX, 'Labs');
	f.api.addKeywords(GLOBEX, 3);
	f.api.addKeywords(`${GLOBEX}[sub]Labs`, 2);
	return f;
}

describe('fake API: a living account', () => {
	describe('persistent faults', () => {
		let f: Fake;
		before(async () => (f = await livingFake()));
		after(() => f.stop());
		beforeEach(() => f.api.clearFaults());

		it('times: Infinity faults every matching request until removed by id; other paths are served', async () => {
			const id = f.api.injectFault({ path: GLOBEX_PATHS, times: Infinity, status: 500 });
			assert.ok(typeof id === 'number' || typeof id === 'string');
			for (let i = 0; i < 5; i++) {
				for (const path of [`/api/v2/groups/${GLOBEX}`, `/api/v2/groups/${GLOBEX}/keywords`]) {
					const r = await f.get(path);
					assert.equal(r.status, 500, path);
					assert.equal(errorOf(r.json).status, '500');
				}
				assert.equal((await group(f, `${GLOBEX}[sub]Labs`)).status, 500);
			}
			assert.equal((await keywordList(f, 'Acme Shoes')).status, 200);
			assert.equal((await f.get('/api/v2/groups/active')).status, 200);
			assert.equal(f.api.pendingFaults(), Infinity);
			assert.equal(f.api.removeFault(id), true);
			assert.equal(f.api.pendingFaults(), 0);
			assert.equal((await keywordList(f, GLOBEX)).status, 200);
			assert.equal(f.api.removeFault(id), false, 'gone');
		});

		it('ids tell faults apart: removing one leaves the others armed; a used-up fault is gone', async () => {
			const a = f.api.injectFault({ path: GLOBEX_PATHS, times: Infinity, status: 403 });
			const b = f.api.injectFault({ path: '/api/v2/alerts', times: 2, status: 503 });
			assert.notEqual(a, b);
			assert.equal(f.api.pendingFaults(), Infinity);
			assert.equal(f.api.removeFault(a), true);
			assert.equal(f.api.pendingFaults(), 2);
			assert.equal((await group(f, GLOBEX)).status, 200);
			assert.equal((await f.get('/api/v2/alerts')).status, 503);
			assert.equal((await f.get('/api/v2/alerts')).status, 503);
			assert.equal((await f.get('/api/v2/alerts')).status, 200);
			assert.equal(f.api.removeFault(b), false, 'used up');
			const c = f.api.injectFault({ path: GLOBEX_PATHS, times: Infinity });
			assert.ok(c !== a && c !== b, 'ids are not reused');
		});

		it('survives reset() (as every fault does) and ends with clearFaults()', async () => {
			f.api.injectFault({
				method: 'GET',
				path: /^\/api\/v2\/alerts/,
				times: Infinity,
				status: 500,
			});
			f.api.reset();
			assert.equal((await f.get('/api/v2/alerts')).status, 500);
			assert.equal((await f.get('/api/v2/alerts')).status, 500);
			f.api.clearFaults();
			assert.equal((await f.get('/api/v2/alerts')).status, 200);
			// reset() brought the demo data back; Globex is gone until added again.
			f.api.addProject(GLOBEX);
			f.api.addGroup(GLOBEX, 'Labs');
			f.api.addKeywords(GLOBEX, 3);
			f.api.addKeywords(`${GLOBEX}[sub]Labs`, 2);
		});

		it('refuses times that are not a positive integer or Infinity', () => {
			for (const times of [0, -1, 1.5, NaN, -Infinity])
				assert.throws(() => f.api.injectFault({ times }), Error, String(times));
			assert.equal(f.api.pendingFaults(), 0);
		});

		it('over HTTP: "times": "forever", DELETE /__control/faults/<id>, GET /__control/faults, state stays valid JSON', async () => {
			const armed = await control(f, 'POST', 'faults', {
				pathRegex: '^/api/v2/groups/Globex',
				times: 'forever',
				status: 403,
			});
			assert.equal(armed.status, 201);
			assert.equal(armed.json.pending, 'forever');
			const id = armed.json.id;
			const counted = await control(f, 'POST', 'faults', { path: '/api/v2/alerts', times: 2 });
			assert.equal(counted.json.pending, 'forever');
			for (let i = 0; i < 4; i++) assert.equal((await keywordList(f, GLOBEX)).status, 403);
			const listed = await control(f, 'GET', 'faults');
			assert.deepEqual(listed.json.data, [
				{
					id,
					kind: 'status',
					status: 403,
					pathRegex: '^\\/api\\/v2\\/groups\\/Globex',
					pathRegexFlags: '',
					times: 'forever',
					remaining: 'forever',
				},
				{ id: counted.json.id, kind: 'status', path: '/api/v2/alerts', times: 2, remaining: 2 },
			]);
			assert.equal(listed.json.pending, 'forever');
			const res = await fetch(`${f.base}/__control/state`);
			const state = JSON.parse(await res.text());
			assert.equal(state.pendingFaults, 'forever');
			const removed = await control(f, 'DELETE', `faults/${id}`);
			assert.equal(removed.status, 200);
			assert.deepEqual(removed.json, { removed: true, pending: 2 });
			assert.equal((await keywordList(f, GLOBEX)).status, 200);
			const again = await control(f, 'DELETE', `faults/${id}`);
			assert.equal(again.status, 404);
			errorOf(again.json);
			assert.equal((await control(f, 'DELETE', 'faults/nonsense')).status, 404);
			assert.equal((await control(f, 'GET', 'state')).json.pendingFaults, 2);
			for (const times of [0, 'sometimes', 2.5, -3]) {
				const bad = await control(f, 'POST', 'faults', { times });
				assert.equal(bad.status, 422, String(times));
			}
			assert.equal((await control(f, 'POST', 'faults', { pathRegex: '(', times: 1 })).status, 422);
			assert.equal((await control(f, 'DELETE', 'faults')).json.pending, 0);
		});
	});

	describe('renaming projects and groups', () => {
		let f: Fake;
		before(async () => (f = await livingFake()));
		after(() => f.stop());

		it('a project: its groups move with it; ids, keywords, tags and timestamps are kept; the old names answer 404', async () => {
			const old = {
				project: (await group(f, 'Acme Shoes')).json.data.attributes,
				blog: (await group(f, 'Acme Shoes[sub]Blog')).json.data.attributes,
				keywords: (await keywordList(f, 'Acme Shoes')).json.data,
				blogKeywords: (await keywordList(f, 'Acme Shoes[sub]Blog')).json.data,
			};
			const record = f.api.renameContainer('Acme Shoes', 'Acme Footwear');
			assert.equal(record.id, 'Acme Footwear');
			assert.equal(record.attributes.name, 'Acme Footwear');
			const active = await names(f);
			assert.ok(active.includes('Acme Footwear'));
			assert.ok(active.includes('Acme Footwear[sub]Blog'));
			assert.ok(active.includes('Acme Footwear[sub]Shop & Deals'));
			assert.ok(!active.some((n) => n.startsWith('Acme Shoes')));
			const project = (await group(f, 'Acme Footwear')).json.data.attributes;
			const blog = (await group(f, 'Acme Footwear[sub]Blog')).json.data.attributes;
			for (const [now, before] of [
				[project, old.project],
				[blog, old.blog],
			]) {
				for (const key of [
					'project_id',
					'auth',
					'tags',
					'keywords_count',
					'keywords_last_updated_at',
					'crawled_at',
					'updated_at',
				])
					assert.deepEqual(now[key], before[key], key);
			}
			assert.equal(blog.name, 'Acme Footwear[sub]Blog');
			const keywords = (await keywordList(f, 'Acme Footwear')).json.data;
			assert.deepEqual(
				keywords.map((k: any) => k.id),
				old.keywords.map((k: any) => k.id),
			);
			keywords.forEach((k: any, i: number) => {
				assert.equal(k.attributes.category, 'Acme Footwear');
				assert.deepEqual(
					{ ...k.attributes, category: null },
					{ ...old.keywords[i].attributes, category: null },
				);
			});
			for (const k of (await keywordList(f, 'Acme Footwear[sub]Blog')).json.data)
				assert.equal(k.attributes.category, 'Acme Footwear[sub]Blog');
			assert.equal(
				(await keywordList(f, 'Acme Footwear[sub]Blog')).json.data.length,
				old.blogKeywords.length,
			);
			for (const name of ['Acme Shoes', 'Acme Shoes[sub]Blog']) {
				assert.equal((await group(f, name)).status, 404, name);
				assert.equal((await keywordList(f, name)).status, 404, name);
			}
			// The project id still reaches the keywords (#17 with the kept id).
			const id = keywords[0].id;
			const del = await f.call('DELETE', `/api/v2/projects/${project.project_id}/keywords`, {
				data: { type: 'keyword', ids: [id] },
			});
			assert.equal(del.status, 200, del.text);
			// A new project may take the old name.
			f.api.addProject('Acme Shoes');
			assert.equal((await keywordList(f, 'Acme Shoes')).json.data.length, 0);
		});

		it('a group, within its project', async () => {
			const before = (await keywordList(f, `${GLOBEX}[sub]Labs`)).json.data.map((k: any) => k.id);
			f.api.renameContainer(`${GLOBEX}[sub]Labs`, `${GLOBEX}[sub]Research`);
			const after = (await keywordList(f, `${GLOBEX}[sub]Research`)).json.data;
			assert.deepEqual(
				after.map((k: any) => k.id),
				before,
			);
			for (const k of after) assert.equal(k.attributes.category, `${GLOBEX}[sub]Research`);
			assert.equal((await group(f, `${GLOBEX}[sub]Labs`)).status, 404);
			const active = await names(f);
			assert.ok(active.indexOf(`${GLOBEX}[sub]Research`) === active.indexOf(GLOBEX) + 1);
		});

		it('refuses an existing name or an invalid one, and changes nothing', () => {
			const before =
				JSON.stringify(f.api.state.summary()) + JSON.stringify([...f.api.state.containers.keys()]);
			for (const [name, to] of [
				[GLOBEX, 'Café Zürich'],
				[GLOBEX, GLOBEX],
				[GLOBEX, ''],
				[GLOBEX, '  '],
				[GLOBEX, ' Globex 2'],
				[GLOBEX, 'Globex[sub]X'],
				[GLOBEX, 'x'.repeat(256)],
				[`${GLOBEX}[sub]Research`, 'Café Zürich[sub]Research'],
				[`${GLOBEX}[sub]Research`, 'Research'],
				[`${GLOBEX}[sub]Research`, `${GLOBEX}[sub]`],
				[`${GLOBEX}[sub]Research`, `${GLOBEX}[sub]A[sub]B`],
				['Acme Footwear[sub]Blog', 'Acme Footwear[sub]Shop & Deals'],
			]) {
				assert.throws(() => f.api.renameContainer(name, to), status(422), `${name} -> ${to}`);
			}
			assert.throws(() => f.api.renameContainer('No Such Project', 'Whatever'), status(404));
			const after =
				JSON.stringify(f.api.state.summary()) + JSON.stringify([...f.api.state.containers.keys()]);
			assert.equal(after, before);
		});

		it('over HTTP: POST /__control/containers/rename {name, to}', async () => {
			const ok = await control(f, 'POST', 'containers/rename', { name: GLOBEX, to: 'Globex Corp' });
			assert.equal(ok.status, 200);
			assert.equal(ok.json.data.id, 'Globex Corp');
			assert.ok((await names(f)).includes('Globex Corp[sub]Research'));
			const taken = await control(f, 'POST', 'containers/rename', {
				name: 'Globex Corp',
				to: 'Café Zürich',
			});
			assert.equal(taken.status, 422);
			errorOf(taken.json);
			assert.equal(
				(await control(f, 'POST', 'containers/rename', { name: 'Nope', to: 'Other' })).status,
				404,
			);
			assert.equal(
				(await control(f, 'POST', 'containers/rename', { name: 'Globex Corp' })).status,
				422,
			);
			assert.equal((await group(f, 'Globex Corp')).status, 200);
		});
	});

	describe('archiving, restoring and deleting', () => {
		let f: Fake;
		before(async () => (f = await livingFake()));
		after(() => f.stop());

		it('archive: the project and its groups leave groups/active; #2 and #13 still answer, as after #3', async () => {
			const listBefore = (await keywordList(f, GLOBEX)).json;
			const record = f.api.archiveContainer(GLOBEX);
			assert.equal(record.id, GLOBEX);
			const active = await names(f);
			assert.ok(!active.includes(GLOBEX) && !active.includes(`${GLOBEX}[sub]Labs`));
			assert.equal((await group(f, GLOBEX)).status, 200);
			assert.equal((await group(f, `${GLOBEX}[sub]Labs`)).status, 200);
			const list = await keywordList(f, GLOBEX);
			assert.equal(list.status, 200, 'an archived project still lists its keywords');
			assert.deepEqual(list.json.data, listBefore.data);
			// The same as archiving with #3.
			const viaApi = await f.call('PUT', `/api/v2/groups/${enc('Café Zürich')}`, {
				data: { type: 'group', attributes: { status: 2 } },
			});
			assert.equal(viaApi.status, 200);
			assert.ok(!(await names(f)).includes('Café Zürich'));
			assert.deepEqual(
				f.api.archiveContainer('Café Zürich').attributes,
				viaApi.json.data.attributes,
				'archiving again is allowed, as with #3',
			);
		});

		it('restore: back in groups/active; restoring one that is not archived is refused, as #8 does', async () => {
			f.api.restoreContainer(GLOBEX);
			assert.ok((await names(f)).includes(`${GLOBEX}[sub]Labs`));
			assert.throws(() => f.api.restoreContainer(GLOBEX), status(422));
			const undo = await f.get(`/api/v2/groups/${enc(GLOBEX)}/undo/archive`);
			assert.equal(undo.status, 422);
			f.api.restoreContainer('Café Zürich');
			// Archiving a group hides that group only.
			f.api.archiveContainer(`${GLOBEX}[sub]Labs`);
			const active = await names(f);
			assert.ok(active.includes(GLOBEX) && !active.includes(`${GLOBEX}[sub]Labs`));
			f.api.restoreContainer(`${GLOBEX}[sub]Labs`);
		});

		it('delete: the project, its groups and their keywords go; the count is returned', async () => {
			const before = f.api.state.keywords.size;
			assert.equal(f.api.deleteContainerByName(GLOBEX), 5);
			assert.equal(f.api.state.keywords.size, before - 5);
			for (const name of [GLOBEX, `${GLOBEX}[sub]Labs`]) {
				assert.equal((await group(f, name)).status, 404);
				assert.equal((await keywordList(f, name)).status, 404);
			}
			assert.throws(() => f.api.deleteContainerByName(GLOBEX), status(404));
			assert.equal(f.api.deleteContainerByName('Acme Shoes[sub]Blog'), 5);
			assert.ok((await names(f)).includes('Acme Shoes'));
		});

		it('over HTTP: POST /__control/containers/archive, restore and delete', async () => {
			f.api.addProject('Initech');
			f.api.addKeywords('Initech', 4);
			const archived = await control(f, 'POST', 'containers/archive', { name: 'Initech' });
			assert.equal(archived.status, 200);
			assert.equal(archived.json.data.id, 'Initech');
			assert.ok(!(await names(f)).includes('Initech'));
			assert.equal(
				(await control(f, 'POST', 'containers/restore', { name: 'Initech' })).status,
				200,
			);
			assert.ok((await names(f)).includes('Initech'));
			assert.equal(
				(await control(f, 'POST', 'containers/restore', { name: 'Initech' })).status,
				422,
			);
			const deleted = await control(f, 'POST', 'containers/delete', { name: 'Initech' });
			assert.deepEqual([deleted.status, deleted.json], [200, { deleted_keywords: 4 }]);
			assert.equal(
				(await control(f, 'POST', 'containers/delete', { name: 'Initech' })).status,
				404,
			);
			assert.equal((await control(f, 'POST', 'containers/archive', {})).status, 422);
		});
	});

	describe('changes between two requests (afterNextAnswer)', () => {
		let f: Fake;
		beforeEach(async () => {
			await f?.stop();
			f = await livingFake();
		});
		after(() => f.stop());

		it('deletes Globex right after the next groups/active answer: the client that listed it gets 404 next', async () => {
			const id = f.api.afterNextAnswer(
				{ path: '/api/v2/groups/active', method: 'GET' },
				{ op: 'delete', name: GLOBEX },
			);
			assert.equal(f.api.pendingChanges(), 1);
			assert.equal((await keywordList(f, GLOBEX)).status, 200, 'nothing happens before');
			assert.ok((await names(f)).includes(GLOBEX), 'the answer is given before the change');
			const listed = f.api.requests.length - 1;
			const r = await keywordList(f, GLOBEX);
			assert.equal(r.status, 404);
			assert.match(errorOf(r.json).detail, /Globex/);
			assert.equal(f.api.pendingChanges(), 0);
			assert.deepEqual(f.api.changesLog, [
				{ id, afterRequest: listed, op: 'delete', name: GLOBEX, applied: true },
			]);
			assert.ok(!(await names(f)).includes(GLOBEX), 'once only: nothing else changes');
			assert.equal(f.api.changesLog.length, 1);
		});

		it('waits for a 2xx answer of the handler: faulted, refused and unauthorised requests do not count', async () => {
			f.api.afterNextAnswer({ path: '/api/v2/groups/active' }, { op: 'archive', name: GLOBEX });
			f.api.injectFault({ path: '/api/v2/groups/active', times: 1, status: 500 });
			f.api.injectFault({ path: '/api/v2/groups/active', times: 1, kind: 'non-json' });
			assert.equal((await f.get('/api/v2/groups/active')).status, 500);
			assert.equal((await f.get('/api/v2/groups/active')).status, 200, 'a faulted 200');
			const res = await fetch(`${f.base}/api/v2/groups/active`, {
				headers: { authorization: 'Bearer wrong' },
			});
			assert.equal(res.status, 401);
			assert.equal((await f.call('POST', '/api/v2/groups/active')).status, 405);
			assert.equal(f.api.pendingChanges(), 1);
			assert.ok((await names(f)).includes(GLOBEX));
			assert.equal(f.api.pendingChanges(), 0);
			assert.ok(!(await names(f)).includes(GLOBEX), 'archived after the first real answer');
			assert.equal(f.api.changesLog[0].afterRequest, f.api.requests.length - 2);
		});

		it('matches like a fault: method, string path (decoded or raw), RegExp', async () => {
			f.api.afterNextAnswer(
				{ path: '/api/v2/alerts', method: 'POST' },
				{ op: 'archive', name: GLOBEX },
			);
			f.api.afterNextAnswer(
				{ path: /^\/api\/v2\/groups\/Café Zürich\/keywords$/ },
				{ op: 'rename', name: GLOBEX, to: 'Globex Corp' },
			);
			f.api.afterNextAnswer(
				{ path: '/api/v2/groups/Acme%20Shoes' },
				{ op: 'rename', name: `${GLOBEX} Corp[sub]Labs`, to: `${GLOBEX} Corp[sub]Lab` },
			);
			await f.get('/api/v2/alerts');
			await keywordList(f, 'Acme Shoes');
			assert.equal(f.api.pendingChanges(), 3);
			await keywordList(f, 'Café Zürich');
			assert.equal(f.api.pendingChanges(), 2);
			assert.equal((await group(f, 'Globex Corp')).status, 200);
			await f.get('/api/v2/groups/Acme%20Shoes');
			assert.equal(f.api.pendingChanges(), 1, 'the raw path matched');
			assert.equal((await group(f, 'Globex Corp[sub]Lab')).status, 200);
			f.api.clearPendingChanges();
			assert.equal(f.api.pendingChanges(), 0);
		});

		it('several pending: each acts once, in order, after its own next match; a change that cannot be made is logged', async () => {
			const a = f.api.afterNextAnswer(
				{ path: '/api/v2/groups/active' },
				{ op: 'rename', name: GLOBEX, to: 'Globex Corp' },
			);
			const b = f.api.afterNextAnswer(
				{ path: '/api/v2/groups/active' },
				{ op: 'archive', name: 'Globex Corp' },
			);
			const c = f.api.afterNextAnswer({ path: '/api/v2/alerts' }, { op: 'delete', name: GLOBEX });
			const d = f.api.afterNextAnswer(
				{ path: '/api/v2/alerts' },
				{ op: 'restore', name: 'Globex Corp' },
			);
			await f.get('/api/v2/groups/active');
			const afterActive = f.api.requests.length - 1;
			assert.equal(f.api.pendingChanges(), 2);
			const active = await names(f);
			assert.ok(!active.includes(GLOBEX) && !active.includes('Globex Corp'));
			assert.equal((await group(f, 'Globex Corp')).status, 200, 'renamed, then archived');
			await f.get('/api/v2/alerts');
			const afterAlerts = f.api.requests.length - 1;
			assert.deepEqual(f.api.changesLog, [
				{
					id: a,
					afterRequest: afterActive,
					op: 'rename',
					name: GLOBEX,
					to: 'Globex Corp',
					applied: true,
				},
				{ id: b, afterRequest: afterActive, op: 'archive', name: 'Globex Corp', applied: true },
				{
					id: c,
					afterRequest: afterAlerts,
					op: 'delete',
					name: GLOBEX,
					applied: false,
					error: 'Project "Globex" was not found.',
				},
				{ id: d, afterRequest: afterAlerts, op: 'restore', name: 'Globex Corp', applied: true },
			]);
			assert.ok((await names(f)).includes('Globex Corp[sub]Labs'));
		});

		it('refuses a bad match or change, and arms nothing', () => {
			for (const [match, change] of [
				[{}, { op: 'delete', name: GLOBEX }],
				[{ path: 3 }, { op: 'delete', name: GLOBEX }],
				[
					{ path: '/x', method: 5 },
					{ op: 'delete', name: GLOBEX },
				],
				[{ path: '/x' }, { op: 'explode', name: GLOBEX }],
				[{ path: '/x' }, { op: 'delete' }],
				[{ path: '/x' }, { op: 'rename', name: GLOBEX }],
				[{ path: '/x' }, null],
			] as const) {
				assert.throws(
					() => f.api.afterNextAnswer(match as any, change as any),
					Error,
					JSON.stringify([match, change]),
				);
			}
			assert.equal(f.api.pendingChanges(), 0);
		});

		it('pending changes and the log survive reset(); clearChangesLog() empties the log', async () => {
			f.api.afterNextAnswer(
				{ path: '/api/v2/groups/active' },
				{ op: 'archive', name: 'Acme Shoes' },
			);
			f.api.afterNextAnswer({ path: '/api/v2/alerts' }, { op: 'archive', name: 'Café Zürich' });
			await f.get('/api/v2/alerts');
			assert.equal(f.api.changesLog.length, 1);
			f.api.reset();
			assert.equal(f.api.pendingChanges(), 1);
			assert.equal(f.api.changesLog.length, 1);
			assert.ok((await names(f)).includes('Acme Shoes'), 'the answer came before the change');
			assert.ok(!(await names(f)).includes('Acme Shoes'), 'the new data was changed');
			f.api.clearChangesLog();
			assert.deepEqual(f.api.changesLog, []);
		});

		it('over HTTP: POST/DELETE /__control/after-answer, GET/DELETE /__control/changes-log, state', async () => {
			const armed = await control(f, 'POST', 'after-answer', {
				pathRegex: '^/api/v2/groups/active$',
				method: 'get',
				change: { op: 'delete', name: GLOBEX },
			});
			assert.equal(armed.status, 201);
			assert.equal(armed.json.pending, 1);
			const state = (await control(f, 'GET', 'state')).json;
			assert.equal(state.pendingChanges, 1);
			assert.deepEqual(state.changesLog, []);
			assert.ok((await names(f)).includes(GLOBEX));
			assert.equal((await keywordList(f, GLOBEX)).status, 404);
			const log = (await control(f, 'GET', 'changes-log')).json.data;
			assert.deepEqual(log, [
				{
					id: armed.json.id,
					afterRequest: f.api.requests.length - 2,
					op: 'delete',
					name: GLOBEX,
					applied: true,
				},
			]);
			assert.deepEqual((await control(f, 'GET', 'state')).json.changesLog, log);
			assert.equal((await control(f, 'DELETE', 'changes-log')).status, 200);
			assert.deepEqual(f.api.changesLog, []);
			// A string path and a rename; DELETE disarms.
			const rename = await control(f, 'POST', 'after-answer', {
				path: '/api/v2/alerts',
				change: { op: 'rename', name: 'Café Zürich', to: 'Café Bern' },
			});
			assert.equal(rename.status, 201);
			assert.equal((await control(f, 'DELETE', 'after-answer')).json.pending, 0);
			await f.get('/api/v2/alerts');
			assert.equal((await group(f, 'Café Zürich')).status, 200);
			for (const bad of [
				{ change: { op: 'delete', name: GLOBEX } },
				{ path: '/x', change: { op: 'rename', name: GLOBEX } },
				{ path: '/x', change: { op: 'vanish', name: GLOBEX } },
				{ path: '/x' },
				{ pathRegex: '[', change: { op: 'delete', name: GLOBEX } },
			]) {
				const r = await control(f, 'POST', 'after-answer', bad);
				assert.equal(r.status, 422, JSON.stringify(bad));
				errorOf(r.json);
			}
			assert.equal(f.api.pendingChanges(), 0);
		});
	});

	describe('deleting keywords by id (deleteKeywords)', () => {
		let f: Fake;
		before(async () => (f = await livingFake()));
		after(() => f.stop());
		const idsIn = (name: string): string[] =>
			f.api.state.findContainer(name)!.keywordIds.map(String);

		it('deletes keywords of any projects and groups; an unknown id deletes nothing', async () => {
			const [a] = idsIn(GLOBEX);
			const [b] = idsIn(`${GLOBEX}[sub]Labs`);
			const [c] = idsIn('Acme Shoes');
			const before = f.api.state.keywords.size;
			assert.throws(() => f.api.deleteKeywords([a, 99999999]), status(404));
			assert.throws(() => f.api.deleteKeywords([a, 'x1']), Error);
			assert.equal(f.api.state.keywords.size, before, 'nothing deleted');
			assert.equal(f.api.deleteKeywords([a, Number(b), c, a]), 3, 'a repeated id counts once');
			assert.equal(f.api.state.keywords.size, before - 3);
			for (const [name, id] of [
				[GLOBEX, a],
				[`${GLOBEX}[sub]Labs`, b],
				['Acme Shoes', c],
			]) {
				const list = (await keywordList(f, name)).json;
				assert.ok(!list.data.some((k: any) => k.id === id), `${id} gone from ${name}`);
			}
			assert.equal(f.api.deleteKeywords([]), 0);
		});

		it('over HTTP: POST /__control/keywords/delete {ids}', async () => {
			const ids = idsIn(GLOBEX);
			assert.equal(ids.length, 2);
			const r = await control(f, 'POST', 'keywords/delete', { ids });
			assert.deepEqual([r.status, r.json], [200, { deleted: 2 }]);
			assert.equal((await keywordList(f, GLOBEX)).json.meta.pagination.total, 0);
			assert.equal((await control(f, 'POST', 'keywords/delete', { ids: ['424242'] })).status, 404);
			assert.equal((await control(f, 'POST', 'keywords/delete', { ids: [] })).status, 422);
			assert.equal((await control(f, 'POST', 'keywords/delete', {})).status, 422);
		});
	});
});
