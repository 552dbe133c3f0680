import { AI_METRICS } from '../aiSeries';
import { orNull, type RecordCatalogue } from './catalogue';

/**
 * One period (a day by default) of an AI-visibility dashboard (#26), as Get Dashboard makes it of the API's parallel
 * arrays (shared/aiSeries.ts): the brand's metrics, each with its change from the period before, and its competitors.
 */
export const aiPeriodCatalogue: RecordCatalogue = {
	selectable: [
		'date',
		...AI_METRICS.flatMap(([, name]) => [name, `${name}_change`]),
		'brand_not_found',
		'brand_rank',
		'competitor_above',
		'top_competitors',
		'competitors',
	],
	simplified: (read) => ({
		date: orNull(read('date')),
		visibility_score: orNull(read('visibility_score')),
		visibility_score_change: orNull(read('visibility_score_change')),
		sentiment: orNull(read('sentiment')),
		mentions: orNull(read('mentions')),
		citations: orNull(read('citations')),
		avg_position: orNull(read('avg_position')),
		detection_rate: orNull(read('detection_rate')),
		brand_not_found: orNull(read('brand_not_found')),
		top_competitors: orNull(read('top_competitors')),
	}),
};
