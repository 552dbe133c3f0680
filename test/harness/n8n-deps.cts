/**
 * The DI-bound services of n8n-core, loaded from n8n-core's OWN dependency tree.
 *
 * Gotcha: /work/main/node_modules holds two copies of `@n8n/di` (0.16.0, hoisted, pulled in by
 * @n8n/node-cli; and 0.17.0, nested under n8n-core/node_modules). `import { Container } from '@n8n/di'`
 * from our code resolves the hoisted copy, a *different* Container than the one n8n-core reads. The
 * same goes for `@n8n/backend-common` (Logger) and `@n8n/backend-network` (OutboundHttp). So every
 * one of them is required relative to n8n-core's entry point.
 */
import { createRequire } from 'node:module';

const requireFromCore = createRequire(require.resolve('n8n-core'));

/** The subset of `@n8n/di`'s Container we use. */
export interface DiContainer {
	get<T>(type: abstract new (...args: never[]) => T): T;
	set<T>(type: abstract new (...args: never[]) => T, instance: T): void;
	has(type: abstract new (...args: never[]) => unknown): boolean;
	reset(): void;
}

type AnyClass = abstract new (...args: never[]) => unknown;

export const Container = (requireFromCore('@n8n/di') as { Container: DiContainer }).Container;

/** `Logger` of @n8n/backend-common: what `this.logger` of every node execution context is (`Container.get(Logger)`). */
export const BackendLogger = (requireFromCore('@n8n/backend-common') as { Logger: AnyClass })
	.Logger;

/** `OutboundHttp` of @n8n/backend-network: what `httpRequest(WithAuthentication)` sends through. */
export const OutboundHttp = (requireFromCore('@n8n/backend-network') as { OutboundHttp: AnyClass })
	.OutboundHttp;
