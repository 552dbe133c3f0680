/**
 * The registry in the engine and reliability suites: an operation's parameters against the in-process fake of
 * `useFake()` (test/engine/helpers), read from the fake when the operation runs.
 */
import type { INodeParameters } from 'n8n-workflow';

import { keywordIdsOf, projectIdOf, type Fake } from '../engine/helpers.cjs';
import { ACME, type EngineSeed, type RegisteredOperation } from './index.cjs';

/** What the rows of FIXTURES read from the fake, as it is now. */
export function seedOf(fake: Fake): EngineSeed {
	return {
		acmeId: projectIdOf(fake, ACME),
		acmeKeywords: keywordIdsOf(fake, ACME),
		domainId: fake.api.state.aiDomains[0].id,
	};
}

/** The operation's parameters (node version 1) against the fake, as it is now. */
export function parametersOf(operation: RegisteredOperation, fake: Fake): INodeParameters {
	return operation.parameters(seedOf(fake));
}
