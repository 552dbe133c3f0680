/**
 * Workflows the way production starts them, for the end-to-end tiers: a published Keyword.com Trigger (polling), and
 * a Webhook in front of Keyword.com nodes. Both reference the examples' credential (keywordComCredential()).
 * Node built-ins only.
 */
import { createHash } from 'node:crypto';

import {
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLE_CREDENTIAL_NAME,
	KEYWORD_COM_NODE,
	KEYWORD_COM_TRIGGER_NODE,
} from './examples.cjs';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** The credential reference every Keyword.com node of these workflows carries. */
export const KEYWORD_COM_CREDENTIAL_REF = {
	keywordComApi: { id: EXAMPLE_CREDENTIAL_ID, name: EXAMPLE_CREDENTIAL_NAME },
};

export interface TriggerWorkflowOptions {
	id: string;
	name?: string;
	/** The trigger's node id (the durable scheduler's `ownerMemberId`, poller_state's `nodeId`). Default 'kwc-trigger'. */
	nodeId?: string;
	/** Default 'Keyword.com Trigger'. */
	nodeName?: string;
	/** The trigger's node version. Default 1 (its one version). */
	typeVersion?: number;
	/** The trigger's parameters (win over `event: 'newAlert'` polled every minute, the shortest n8n allows). */
	parameters?: Record<string, unknown>;
	/** Nodes after the trigger, chained in order. */
	then?: Array<Record<string, any>>;
	/** The Keyword.com API credential the trigger uses. Default: the examples' (KEYWORD_COM_CREDENTIAL_REF). */
	credential?: { id: string; name: string };
}

/** A workflow whose only trigger is the Keyword.com Trigger (publish it, then start n8n: it polls). */
export function triggerWorkflow(opts: TriggerWorkflowOptions): Record<string, any> {
	const nodeName = opts.nodeName ?? 'Keyword.com Trigger';
	const trigger = {
		id: opts.nodeId ?? 'kwc-trigger',
		name: nodeName,
		type: KEYWORD_COM_TRIGGER_NODE,
		typeVersion: opts.typeVersion ?? 1,
		position: [0, 0],
		parameters: {
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			event: 'newAlert',
			...(opts.parameters ?? {}),
		},
		credentials: opts.credential
			? { keywordComApi: { id: opts.credential.id, name: opts.credential.name } }
			: KEYWORD_COM_CREDENTIAL_REF,
	};
	const then: Array<Record<string, any>> = (opts.then ?? []).map((node, i) => ({
		position: [260 * (i + 1), 0],
		...node,
	}));
	const chain = [nodeName, ...then.map((node) => String(node.name))];
	const connections: Record<string, any> = {};
	for (let i = 0; i + 1 < chain.length; i++)
		connections[chain[i]] = { main: [[{ node: chain[i + 1], type: 'main', index: 0 }]] };
	return {
		id: opts.id,
		name: opts.name ?? `Keyword.com Trigger ${opts.id}`,
		nodes: [trigger, ...then],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** A fixed UUID-shaped id derived from a text. */
function uuidFrom(text: string): string {
	const h = createHash('sha256').update(text).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface WebhookWorkflowOptions {
	id: string;
	name?: string;
	/** The production URL is `<n8n>/webhook/<path>` once the workflow is published. */
	path: string;
	/** Keyword.com nodes fanned out from the Webhook, one per case (name + parameters). */
	cases: Array<{ name: string; parameters: Record<string, unknown> }>;
	/** Webhook `responseMode`: 'onReceived' (default: answer at once, the run goes on) or 'lastNode'. */
	responseMode?: 'onReceived' | 'lastNode';
}

/** A POST Webhook → every case as a Keyword.com node (fan-out). */
export function webhookWorkflow(opts: WebhookWorkflowOptions): Record<string, any> {
	const webhook = {
		id: `${opts.id}-webhook`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 1,
		position: [0, 0],
		webhookId: uuidFrom(`${opts.id}/${opts.path}`),
		parameters: {
			httpMethod: 'POST',
			path: opts.path,
			responseMode: opts.responseMode ?? 'onReceived',
			options: {},
		},
	};
	const nodes = opts.cases.map((c, i) => ({
		id: `${opts.id}-${i}`,
		name: c.name,
		type: KEYWORD_COM_NODE,
		typeVersion: 1,
		position: [300, i * 140],
		parameters: c.parameters,
		credentials: KEYWORD_COM_CREDENTIAL_REF,
	}));
	return {
		id: opts.id,
		name: opts.name ?? `Webhook ${opts.path}`,
		nodes: [webhook, ...nodes],
		connections: {
			Webhook: { main: [opts.cases.map((c) => ({ node: c.name, type: 'main', index: 0 }))] },
		},
		settings: { executionOrder: 'v1' },
	};
}
