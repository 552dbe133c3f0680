/** One poll of each event (newAlert.ts, keywordUpdated.ts) and what they share (common.ts). */
export * from './common';
export * from './keywordUpdated';
export * from './newAlert';
