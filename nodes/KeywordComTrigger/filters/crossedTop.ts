/**
 * Crossed Top (with Crossing and Top N): events that entered, left or crossed either way the top 3, 10, 20 or any top
 * N. The edge is inside the top (11 → 10 entered the top 10); outside the top results counts as 101, and an unknown
 * rank before never passes.
 */
import { onItsScale } from '../../shared/optionOrder';
import { OUTSIDE } from '../../shared/ranks';
import { InputError } from '../../shared/validation';
import { oneOf, positions, type TriggerFilter } from './filterEntry';
import type { RankMove } from './subjects';

export type Crossing = 'either' | 'entered' | 'left';

export interface CrossedTop {
	/** The top's size, 1–100. */
	n: number;
	crossing: Crossing;
}

export const crossedTop: TriggerFilter<'crossedTop', CrossedTop, RankMove> = {
	key: 'crossedTop',
	events: ['newAlert', 'keywordUpdated'],
	fields: [
		{
			displayName: 'Crossed Top',
			name: 'crossedTop',
			type: 'options',
			default: 10,
			// A scale: by size, the top of any size (Top N) last.
			options: onItsScale([
				{ name: 'Top 3', value: 3 },
				{ name: 'Top 10', value: 10 },
				{ name: 'Top 20', value: 20 },
				{ name: 'Top N (Set in Top N)', value: 0 },
			]),
			description:
				'Only keywords that entered or left the top results of this size (see Crossing). Outside the top 100 counts as 101.',
		},
		{
			displayName: 'Crossing',
			name: 'crossing',
			type: 'options',
			default: 'either',
			options: [
				{ name: 'Entered', value: 'entered', description: 'Moved into the top' },
				{ name: 'Entered or Left', value: 'either' },
				{ name: 'Left', value: 'left', description: 'Dropped out of the top' },
			],
			description: 'Which way Crossed Top counts',
		},
		{
			displayName: 'Top N',
			name: 'topN',
			type: 'number',
			default: 5,
			typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
			description: 'The size of the top when Crossed Top is "Top N"',
		},
	],
	reasons: ['top{n}_entered', 'top{n}_left'],
	read(raw) {
		if (raw.crossedTop === undefined) {
			if (raw.crossing !== undefined || raw.topN !== undefined)
				throw new InputError(
					raw.crossing !== undefined ? 'Crossing' : 'Top N',
					'is used with Crossed Top: add the Crossed Top filter too, or remove this one.',
				);
			return undefined;
		}
		return {
			n:
				Number(raw.crossedTop) === 0
					? positions('Top N', raw.topN ?? Number.NaN)
					: positions('Crossed Top', raw.crossedTop),
			crossing: oneOf<Crossing>('Crossing', raw.crossing ?? 'either', [
				'either',
				'entered',
				'left',
			]),
		};
	},
	match(move, { n, crossing }) {
		if (!move.previousKnown) return undefined;
		const before = move.previousRank ?? OUTSIDE;
		const after = move.rank ?? OUTSIDE;
		if (before > n && after <= n && crossing !== 'left') return `top${n}_entered`;
		if (before <= n && after > n && crossing !== 'entered') return `top${n}_left`;
		return undefined;
	},
};
