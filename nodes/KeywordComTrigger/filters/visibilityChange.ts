/**
 * Visibility Score Changed By At Least (and Visibility Change Direction): days whose visibility score moved by at
 * least N points from the day before. A day whose day before is not in the series never passes.
 */
import { InputError } from '../../shared/validation';
import { oneOf, type TriggerFilter } from './filterEntry';
import type { DayComparison } from './subjects';

export type ScoreDirection = 'either' | 'rose' | 'dropped';

export interface VisibilityChange {
	points: number;
	direction: ScoreDirection;
}

export const visibilityChange: TriggerFilter<'visibilityChange', VisibilityChange, DayComparison> =
	{
		key: 'visibilityChange',
		events: ['aiVisibilityUpdated'],
		fields: [
			{
				displayName: 'Visibility Score Changed By At Least',
				name: 'visibilityChangedBy',
				type: 'number',
				default: 5,
				typeOptions: { minValue: 0.01, maxValue: 100, numberPrecision: 2 },
				description:
					'Only days whose visibility score moved by at least this many points from the day before (see Visibility Change Direction)',
			},
			{
				displayName: 'Visibility Change Direction',
				name: 'visibilityDirection',
				type: 'options',
				default: 'dropped',
				options: [
					{ name: 'Dropped', value: 'dropped' },
					{ name: 'Dropped or Rose', value: 'either' },
					{ name: 'Rose', value: 'rose' },
				],
				description: 'Which way Visibility Score Changed By At Least counts',
			},
		],
		reasons: ['visibility_rose', 'visibility_dropped'],
		read(raw) {
			if (raw.visibilityChangedBy === undefined && raw.visibilityDirection === undefined)
				return undefined;
			const points = raw.visibilityChangedBy === undefined ? 0.01 : Number(raw.visibilityChangedBy);
			if (!Number.isFinite(points) || points <= 0 || points > 100)
				throw new InputError(
					'Visibility Score Changed By At Least',
					'must be a number of points above 0 and at most 100.',
				);
			return {
				points,
				direction: oneOf<ScoreDirection>(
					'Visibility Change Direction',
					raw.visibilityDirection ?? 'either',
					['either', 'rose', 'dropped'],
				),
			};
		},
		match({ scoreChange: change }, { points, direction }) {
			if (change === null) return undefined;
			if (change > 0 && change >= points && direction !== 'dropped') return 'visibility_rose';
			if (change < 0 && -change >= points && direction !== 'rose') return 'visibility_dropped';
			return undefined;
		},
	};
