/**
 * Moved By At Least (and Move Direction): events whose rank moved by at least N positions, up (towards rank 1), down
 * or either way. Ranks compare with "outside the top results" counting as 101; an unknown rank before never passes.
 */
import { OUTSIDE } from '../../shared/ranks';
import { oneOf, positions, type TriggerFilter } from './filterEntry';
import type { RankMove } from './subjects';

export type Direction = 'either' | 'up' | 'down';

export interface MovedBy {
	positions: number;
	direction: Direction;
}

export const movedBy: TriggerFilter<'movedBy', MovedBy, RankMove> = {
	key: 'movedBy',
	events: ['newAlert', 'keywordUpdated'],
	fields: [
		{
			displayName: 'Moved By At Least',
			name: 'movedBy',
			type: 'number',
			default: 5,
			typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
			description:
				'Only events whose rank moved by at least this many positions (see Move Direction). Outside the top 100 counts as 101; an unknown previous rank never passes.',
		},
		{
			displayName: 'Move Direction',
			name: 'direction',
			type: 'options',
			default: 'either',
			options: [
				{ name: 'Down', value: 'down', description: 'Lost positions' },
				{ name: 'Either', value: 'either' },
				{ name: 'Up', value: 'up', description: 'Gained positions (towards rank 1)' },
			],
			description:
				'Which way Moved By At Least counts (alone: a move of at least 1 position that way)',
		},
	],
	reasons: ['moved_up', 'moved_down'],
	read(raw) {
		if (raw.movedBy === undefined && raw.direction === undefined) return undefined;
		return {
			positions: raw.movedBy === undefined ? 1 : positions('Moved By At Least', raw.movedBy),
			direction: oneOf<Direction>('Move Direction', raw.direction ?? 'either', [
				'either',
				'up',
				'down',
			]),
		};
	},
	match(move, setting) {
		if (!move.previousKnown) return undefined;
		// Positions gained: positive = moved up (towards rank 1).
		const gained = (move.previousRank ?? OUTSIDE) - (move.rank ?? OUTSIDE);
		if (gained > 0 && gained >= setting.positions && setting.direction !== 'down')
			return 'moved_up';
		if (gained < 0 && -gained >= setting.positions && setting.direction !== 'up')
			return 'moved_down';
		return undefined;
	},
};
