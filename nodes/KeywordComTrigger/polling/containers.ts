/**
 * The projects and groups of a `groups/active` answer (#1), as Keyword Updated reads them. Pure.
 *
 * - **Identity.** A project or group is known by its `project_id` ("unique id of the project or group"), which a
 *   rename keeps: a renamed project goes on where it stood, under its new name. Without an id (or with one that two
 *   records share) it is known by its name.
 * - **When its ranks last moved** (`updatedAt`): `keywords_last_updated_at`; where that is null, the record's own
 *   `crawled_at` (groups carry one); for a group with neither, its project's (a crawl of a group moves its project's
 *   time too). Times without an offset are UTC (shared/time.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { isGroupName, splitName } from '../../shared/groupName';
import { apiTimeSeconds } from '../../shared/time';

export interface Container {
	/** Identity kept in the state: `id:<project_id>`, or `name:<name>` when there is no usable id (nameKey). */
	key: string;
	/** Its name as the API gives it now (a group's is `<project>[sub]<group>`). */
	name: string;
	/** Unix seconds its keywords' ranks last moved; undefined when never (or unknown). */
	updatedAt?: number;
	/** Its keywords, all statuses (`keywords_count`), when given: how long its list is believed to be. */
	count?: number;
}

/** The key of a project or group known by its name only. */
export function nameKey(name: string): string {
	return `name:${name}`;
}

/** Unix seconds of a `crawled_at` (a number, or digits), or undefined. */
export function unixSeconds(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return Math.floor(value);
	if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
	return undefined;
}

function idOf(attributes: IDataObject): string | undefined {
	const id = attributes.project_id;
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	if (typeof id === 'string' && /^\d+$/.test(id)) return id;
	return undefined;
}

function keywordCount(counts: unknown): number | undefined {
	if (!counts || typeof counts !== 'object' || Array.isArray(counts)) return undefined;
	return Object.values(counts as IDataObject).reduce<number>(
		(sum, value) => sum + (typeof value === 'number' && Number.isFinite(value) ? value : 0),
		0,
	);
}

/** The projects and groups of a `groups/active` answer. */
export function toContainers(body: unknown): Container[] {
	const data = (body as IDataObject | undefined)?.data;
	if (!Array.isArray(data)) return [];
	const found: Array<Container & { id?: string }> = [];
	for (const raw of data) {
		if (!raw || typeof raw !== 'object') continue;
		const record = raw as IDataObject;
		const attributes = (record.attributes ?? {}) as IDataObject;
		const name = String(record.id ?? attributes.name ?? '');
		if (!name) continue;
		const container: Container & { id?: string } = {
			key: nameKey(name),
			name,
			updatedAt:
				apiTimeSeconds(attributes.keywords_last_updated_at) ?? unixSeconds(attributes.crawled_at),
			id: idOf(attributes),
		};
		const count = keywordCount(attributes.keywords_count);
		if (count !== undefined) container.count = count;
		found.push(container);
	}
	// An id two records share tells them apart no better than their names.
	const uses = new Map<string, number>();
	for (const { id } of found) if (id !== undefined) uses.set(id, (uses.get(id) ?? 0) + 1);
	const byName = new Map(found.map((container) => [container.name, container]));
	return found.map(({ id, ...container }) => {
		if (id !== undefined && uses.get(id) === 1) container.key = `id:${id}`;
		if (container.updatedAt === undefined && isGroupName(container.name))
			container.updatedAt = byName.get(splitName(container.name).project)?.updatedAt;
		if (container.updatedAt === undefined) delete container.updatedAt;
		return container;
	});
}
