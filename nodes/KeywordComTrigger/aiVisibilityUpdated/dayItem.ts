/**
 * AI Visibility Updated: the item emitted for one completed day of one domain, in the Output the user chose. Pure;
 * the token never appears.
 *
 * The whole day (Raw, and what Selected Fields picks from): the domain, the date, each metric with its change from
 * the day before, brandNotFound, the brand's rank among its competitors by visibility score, the competitor just
 * above it, the competitors that overtook it, and every competitor's score. Simplified keeps the ten fields a Slack
 * message or a sheet row uses most.
 */
import type { IDataObject } from 'n8n-workflow';

import { orNull, sameNames, type RecordCatalogue } from '../../shared/recordKinds/catalogue';
import type { OutputChoice } from '../../shared/output';
import { redactDeep } from '../../shared/redact';
import { AI_METRICS, pointRecord } from '../../shared/aiSeries';
import type { AiDay } from './daySeries';
import type { DayComparison } from '../filters/subjects';
import { compareDays } from './dayComparison';

/** A domain as the trigger knows it: its id and its name (the domain, e.g. `acme.com`). */
export interface AiDomainRef {
	id: string;
	name: string;
}

/** Every field of a day item, in order: Raw gives them all. */
const AI_DAY_FIELDS = [
	'domain_id',
	'domain',
	'date',
	...AI_METRICS.flatMap(([, name]) => [name, `${name}_change`]),
	'brand_not_found',
	'brand_rank',
	'competitor_above',
	'overtaken_by',
	'competitors',
];

/** A day's fields (Selected Fields offers them all) and the ten Simplified keeps. */
export const aiDayCatalogue: RecordCatalogue = {
	fields: sameNames(AI_DAY_FIELDS),
	simplified: [
		'domain_id',
		'domain',
		'date',
		'visibility_score',
		'visibility_score_change',
		'mentions',
		'citations',
		'brand_not_found',
		'brand_rank',
		'competitor_above',
	],
};

/** The whole day, compared with the day before (undefined: not in the series). */
export function fullDay(
	domain: AiDomainRef,
	day: AiDay,
	before: AiDay | undefined,
	comparison: DayComparison = compareDays(day, before),
): IDataObject {
	const { competitors, ...rest } = pointRecord(day, before);
	return {
		domain_id: domain.id,
		domain: domain.name,
		date: day.date,
		...rest,
		overtaken_by: comparison.overtakenBy,
		competitors,
	};
}

/** The day as the user chose to see it. */
export function dayItem(
	full: IDataObject,
	output: OutputChoice,
	token: string | undefined,
	matched?: string[],
): IDataObject {
	const fields =
		output.mode === 'raw'
			? Object.keys(full)
			: output.mode === 'selected'
				? output.fields
				: aiDayCatalogue.simplified;
	const item: IDataObject = {};
	for (const field of fields) item[field] = orNull(full[field]);
	if (matched) item.matched = matched;
	return redactDeep(item, token);
}
