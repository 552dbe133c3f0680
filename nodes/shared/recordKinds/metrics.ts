import type { IDataObject } from 'n8n-workflow';

import { orNull, type RecordCatalogue } from './catalogue';

/** A project's metrics (#9). Version 1 returned them as sent: no Simplify shape. */
export const metricsCatalogue: RecordCatalogue = {
	selectable: ['id', 'timeframe', 'total', 'ranges', 'movements', 'chart'],
	simplified: (read) => {
		const timeframe = typeof read('timeframe') === 'string' ? String(read('timeframe')) : 'monthly';
		const movement = ((read('movements') as IDataObject | undefined)?.[timeframe] ??
			{}) as IDataObject;
		const ranges = Array.isArray(read('ranges')) ? (read('ranges') as IDataObject[]) : [];
		return {
			id: orNull(read('id')),
			timeframe,
			total: orNull(read('total')),
			moved_up: orNull(movement.up),
			moved_down: orNull(movement.down),
			unchanged: orNull(movement.tie),
			ranges: ranges.map((range) => {
				const period = (range[timeframe] ?? {}) as IDataObject;
				return {
					title: orNull(range.title),
					count: orNull(period.count ?? range.count),
					change: orNull(period.change),
				};
			}),
		};
	},
};
