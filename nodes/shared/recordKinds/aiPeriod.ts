import { AI_METRICS } from '../aiSeries';
import { sameNames, type RecordCatalogue } from './catalogue';

/**
 * One period (a day by default) of an AI-visibility dashboard (#26), as Get Dashboard makes it of the API's parallel
 * arrays (shared/aiSeries.ts): the brand's metrics, each with its change from the period before, and its competitors.
 */
export const aiPeriodCatalogue: RecordCatalogue = {
	fields: sameNames([
		'date',
		...AI_METRICS.flatMap(([, name]) => [name, `${name}_change`]),
		'brand_not_found',
		'brand_rank',
		'competitor_above',
		'top_competitors',
		'competitors',
	]),
	simplified: [
		'date',
		'visibility_score',
		'visibility_score_change',
		'sentiment',
		'mentions',
		'citations',
		'avg_position',
		'detection_rate',
		'brand_not_found',
		'top_competitors',
	],
};
