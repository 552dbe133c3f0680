/**
 * Reading paged lists, for both nodes.
 *
 * The API pages with `page` and `per_page` only, so a record added or deleted before the reader's position shifts
 * everything after it from one page to the next between two requests: a plain page-after-page read then skips or
 * repeats records without noticing. An **overlapping read** asks only windows (`page`, `per_page`) that hold the last
 * record read (the edge) and the records after it, and accepts an answer only when it really holds a record at or
 * before the edge and records after it, in order. The page size varies a little to place the edge inside the window
 * rather than on its border. An answer that does not connect (the list shifted) moves the estimate of the edge's
 * position and is asked again. So nothing is skipped, and nothing is taken twice, whatever was added or deleted.
 *
 * - `windows.ts`: the window arithmetic (pure);
 * - `judge.ts`: whether an answer connects, and OverlappingRead, the position both drivers move;
 * - `batches.ts`: the trigger's driver (a batch of windows at a time, within the poll's budget);
 * - `pipeline.ts`: Return All / Limit's driver (windows planned ahead, up to `concurrency` in flight);
 * - `slots.ts`: request slots (how many requests are in flight);
 * - `listOrder.ts`: ListOrder, and the orders a list's records show; `pages.ts`: what one page says;
 * - `collect.ts`: Return All / Limit (`collectPages`), ordered lists through pipeline.ts, others as served
 *   (`asServed.ts`).
 */
export { readInBatches } from './batches';
export { collectPages, ListChangedError } from './collect';
export { alertSecondsOf, compareIds, identityOf, orderOfList, type ListOrder } from './listOrder';
export { parsePage, type PageStyle } from './pages';
export { mapConcurrent } from './slots';
export {
	pageSizesUpTo,
	windowAround,
	type Direction,
	type PageSizes,
	type ReadPosition,
	type ServedPage,
} from './windows';
