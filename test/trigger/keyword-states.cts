/**
 * Keyword Updated's states and containers written by name, for the tests of plan.ts and the stored state.
 */
import { nameKey, type Container } from '../../nodes/KeywordComTrigger/polling/containers';
import type {
	ContainerState,
	KeywordState,
} from '../../nodes/KeywordComTrigger/keywordUpdated/plan';

/** Containers known by name (no project_id), with their update times (null: never updated). */
export const containers = (entries: Record<string, number | null>): Container[] =>
	Object.entries(entries).map(([name, updatedAt]) =>
		updatedAt === null ? { key: nameKey(name), name } : { key: nameKey(name), name, updatedAt },
	);

/** A state of containers known by name: the mark, the containers behind it, and those known (default: both). */
export const stateOf = (
	mark: number,
	entries: Record<string, Omit<ContainerState, 'name'>>,
	known: string[] = Object.keys(entries),
): KeywordState => ({
	mark,
	containers: new Map(
		Object.entries(entries).map(([name, entry]) => [nameKey(name), { name, ...entry }]),
	),
	known: new Map(known.map((name) => [nameKey(name), name])),
});

/** The containers of a state by name, for comparisons. */
export const byName = (state: KeywordState): Record<string, Omit<ContainerState, 'name'>> =>
	Object.fromEntries([...state.containers.values()].map(({ name, ...entry }) => [name, entry]));
