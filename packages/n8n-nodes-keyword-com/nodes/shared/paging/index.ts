export * from './collect';
export * from './listOrder';
export * from './reader';
export * from './slots';
