import type { IDataObject } from 'n8n-workflow';

import { key, orNull, type Read, type RecordCatalogue } from './catalogue';

/** The timeframe the metrics were asked for (monthly when the record does not say). */
function timeframeOf(read: Read): string {
	const timeframe = read('timeframe');
	return typeof timeframe === 'string' ? timeframe : 'monthly';
}

/** The keywords that moved over the timeframe: `up`, `down` or `tie`. */
const moved =
	(direction: 'up' | 'down' | 'tie') =>
	(read: Read): IDataObject[string] => {
		const movements = read('movements') as IDataObject | undefined;
		return orNull((movements?.[timeframeOf(read)] as IDataObject | undefined)?.[direction]);
	};

/** A project's metrics (#9): the movements and rank ranges of the timeframe asked for. */
export const metricsCatalogue: RecordCatalogue = {
	fields: {
		id: key('id'),
		timeframe: timeframeOf,
		total: key('total'),
		moved_up: moved('up'),
		moved_down: moved('down'),
		unchanged: moved('tie'),
		ranges: (read) => {
			const timeframe = timeframeOf(read);
			const ranges = Array.isArray(read('ranges')) ? (read('ranges') as IDataObject[]) : [];
			return ranges.map((range) => {
				const period = (range[timeframe] ?? {}) as IDataObject;
				return {
					title: orNull(range.title),
					count: orNull(period.count ?? range.count),
					change: orNull(period.change),
				};
			});
		},
		movements_by_timeframe: key('movements'),
		chart: key('chart'),
	},
	simplified: ['id', 'timeframe', 'total', 'moved_up', 'moved_down', 'unchanged', 'ranges'],
};
