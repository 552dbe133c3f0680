/**
 * How n8n 2.41.1 runs a poll trigger and keeps its static data, per scheduler mode, with the trigger's `poll()`
 * run through n8n-core's own `PollContext` (as test/harness/run-poll.cts does; here the workflow object can live
 * across polls, as it does in n8n's in-memory scheduler).
 *
 * - **in-memory** (n8n's default): the workflow, with its static data, lives in memory from activation to the next
 *   stop; every poll works on it. n8n writes the static data to its database when a poll emits, and after the
 *   activation poll (which runs as a test poll and emits what it finds). A start of n8n reads the database copy and
 *   activates again: one more activation poll.
 * - **durable** (`N8N_SCHEDULER_POLL_TRIGGERS_ENABLED`): every poll starts from the database copy; a poll that emits
 *   saves it, one that returns null saves nothing. The activation poll (a publish that provisions the poll jobs afresh:
 *   the first, or one after an unpublish) is a test poll: when it emits nothing its node static data is dropped (the
 *   workflow's global static data is saved); when it emits, all is saved. A start of n8n runs no activation poll. A
 *   poll running past the timeout is abandoned: nothing of it is kept. `getPollBudgetMs()` = timeout − min(max(20 %
 *   of it, 5 s), half of it).
 * - **durable-cursors** (`N8N_POLLER_DURABLE_CURSORS_ENABLED`): as durable, but a scheduled poll that returns null
 *   still commits the node's static data (the staged cursor).
 *
 * Deactivated by its user and activated again: no polls meanwhile, then an activation poll from the database copy (the
 * durable scheduler removes the poll jobs at deactivation and provisions them afresh when published again). n8n's
 * process goes on meanwhile: what the trigger keeps in its memory stays.
 *
 * A poll that throws saves nothing in any mode. A poll killed mid-way (the process dies) keeps nothing either.
 */
import { PollContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	WorkflowActivateMode,
} from 'n8n-workflow';

import { createAdditionalData, nextExecutionId } from '../../test/harness/additional-data.cjs';
import { TestCredentialsHelper, defaultCredentialTypes } from '../../test/harness/credentials.cjs';
import { clearCapturedLogs, getCapturedLogs } from '../../test/harness/logs.cjs';
import { nodeUnderTest } from '../../test/harness/run-node.cjs';
import { copyStaticData } from '../../test/harness/run-poll.cjs';
import { ensureN8nEnvironment } from '../../test/harness/setup.cjs';
import type { TestNodeTypes } from '../../test/harness/node-types.cjs';
import type { Scheduler } from './plan.cjs';
import {
	startingPoint,
	unsavedProgress,
} from '../../nodes/KeywordComTrigger/state/unsavedProgress';
import { keptState } from '../../nodes/KeywordComTrigger/state/activationBaseline';
import { readEventState, type EventName } from '../../nodes/KeywordComTrigger/state/storedState';

/** The durable scheduler's default poll timeout (N8N_SCHEDULER_POLL_TIMEOUT). */
export const DEFAULT_POLL_TIMEOUT_MS = 45_000;

/** What `getPollBudgetMs()` answers under the durable scheduler for a poll timeout. */
export function budgetForTimeout(timeoutMs: number): number {
	return timeoutMs - Math.min(Math.max(0.2 * timeoutMs, 5_000), timeoutMs / 2);
}

export interface TriggerUnderTest {
	nodeType: INodeType | IVersionedNodeType;
	typeVersion: number;
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
}

export interface StoredData {
	node: IDataObject;
	global: IDataObject;
}

export interface PollRun {
	kind: 'activation' | 'scheduled' | 'killed';
	/** Items n8n started an execution with; null when there was none. */
	items: IDataObject[] | null;
	error?: Error;
	wallMs: number;
	/** What `getPollBudgetMs()` answered (undefined: n8n-core's default, the in-memory scheduler's). */
	budgetMs?: number;
	/** The poll ran past the durable scheduler's timeout: n8n abandoned it and kept nothing. */
	abandoned: boolean;
	/** JSON size of the node's static data after the poll, as the next poll would see it. */
	stateBytes: number;
	/**
	 * The slowest request the poll timed (ms), as it wrote it in its state (`l`): the trigger starts no request that
	 * could not be answered within its budget at 1.2 times that, so it tells when the poll stopped for time.
	 */
	slowestRequestMs?: number;
	/** This run's number (runs of this model, from 0, in the order they started). */
	seq: number;
	/** The run whose stored state this one started from (its seq); -1: none (a first activation). */
	startedFrom: number;
	/** What the poll logged at level warn (n8n's log). */
	warnings?: string[];
}

const NODE_NAME = 'Keyword.com Trigger';
const STATIC_KEY = `node:${NODE_NAME}`;

/** Simulated n8n instances so far (their workflows' ids). */
let instances = 0;

export class N8nModel {
	/** n8n's database copy of the workflow's static data. */
	db: StoredData = { node: {}, global: {} };
	/** The run whose state the database copy holds (-1: none yet). */
	private dbFrom = -1;
	/** In-memory scheduler: the active workflow (null while n8n is down or before activation). */
	private live: Workflow | null = null;
	/** The run whose state the workflow in memory holds. */
	private liveFrom = -1;
	/**
	 * Durable scheduler: the last run that left the trigger's memory of a poll that emitted nothing
	 * (state/unsavedProgress.ts); a run that starts from the same stored state goes on from its state.
	 */
	private unsavedFrom = -1;
	/** Runs so far (the next run's seq). */
	private runs = 0;
	private readonly node: INode;
	private readonly nodeTypes: TestNodeTypes;
	private readonly credentialsHelper: TestCredentialsHelper;
	/** In-memory scheduler: the activation after a start failed (its poll threw); n8n tries again. */
	activationPending = false;
	/**
	 * The workflow's id: one per simulated n8n and per life of its process (what n8n keys by workflow in one process,
	 * e.g. the trigger's one-poll-at-a-time lock, does not outlive the process, nor is it shared by two simulations).
	 */
	private readonly instance = ++instances;
	private life = 0;

	/** The life of n8n's process now (a stop or a killed poll ends one): what the trigger keeps in memory lasts one. */
	get processLife(): number {
		return this.life;
	}

	constructor(
		readonly scheduler: Scheduler,
		trigger: TriggerUnderTest,
	) {
		ensureN8nEnvironment();
		const { node, nodeTypes } = nodeUnderTest(
			{
				nodeType: trigger.nodeType,
				typeVersion: trigger.typeVersion,
				parameters: trigger.parameters,
				credentials: trigger.credentials,
				nodeName: NODE_NAME,
			},
			{ id: 'trigger-under-simulation', name: NODE_NAME, position: [0, 0] },
		);
		this.node = node;
		this.nodeTypes = nodeTypes;
		this.credentialsHelper = new TestCredentialsHelper(
			trigger.credentials,
			defaultCredentialTypes(),
			{ loopbackOnly: true },
		);
	}

	private workflowFrom(data: StoredData): Workflow {
		const staticData: IDataObject = { global: copyStaticData(data.global) };
		staticData[STATIC_KEY] = copyStaticData(data.node);
		return new Workflow({
			id: `simulated-workflow-${this.instance}.${this.life}`,
			name: 'Simulated workflow',
			nodes: [this.node],
			connections: {},
			nodeTypes: this.nodeTypes,
			active: true,
			settings: { executionOrder: 'v1' },
			staticData,
		});
	}

	/**
	 * What the trigger remembers of a poll of `workflow` that emitted nothing (unsavedProgress.ts), for the stored state
	 * a poll starts from now. `startedFrom`: the run that poll goes on from, the one that left that memory where the
	 * trigger resumes it (as it decides: only where that stored state or an activation baseline holds a state), else
	 * the database copy's. `recordLeft`, after the poll: the poll is the one that left the memory when what the trigger
	 * remembers for that start is the node data it ended with.
	 */
	private unsavedOf(workflow: Workflow): {
		startedFrom: number;
		recordLeft: (seq: number, node: IDataObject) => void;
	} {
		const node = workflow.getNode(NODE_NAME)!;
		const stored = N8nModel.read(workflow);
		const from = startingPoint(node.parameters, stored.node, stored.global, node.id);
		const key = `${workflow.id}:${node.id}`;
		const event = node.parameters.event as EventName;
		const kept = keptState(event, stored.node, stored.global, node.id);
		const resumes = kept !== undefined && unsavedProgress(key, from) !== undefined;
		return {
			startedFrom: resumes ? this.unsavedFrom : this.dbFrom,
			recordLeft: (seq, after) => {
				const left = unsavedProgress(key, from);
				if (left && JSON.stringify(left) === JSON.stringify(after)) this.unsavedFrom = seq;
			},
		};
	}

	private static read(workflow: Workflow): StoredData {
		const data = workflow.staticData;
		return {
			node: copyStaticData((data[STATIC_KEY] as IDataObject | undefined) ?? {}),
			global: copyStaticData((data.global as IDataObject | undefined) ?? {}),
		};
	}

	/** One run of `poll()` on `workflow`. */
	private async execute(
		workflow: Workflow,
		activation: WorkflowActivateMode,
		budgetMs: number | undefined,
	): Promise<{ items: IDataObject[] | null; error?: Error; wallMs: number; warnings: string[] }> {
		const additionalData = createAdditionalData(
			this.credentialsHelper,
			undefined,
			nextExecutionId(),
		);
		const context = new PollContext(
			workflow,
			workflow.getNode(NODE_NAME)!,
			additionalData,
			'trigger',
			activation,
			() => {},
			() => {},
			undefined,
			undefined,
			undefined,
			budgetMs === undefined ? undefined : () => budgetMs,
		);
		const type = this.nodeTypes.getByNameAndVersion(this.node.type, this.node.typeVersion);
		const started = performance.now();
		let result: INodeExecutionData[][] | null = null;
		let error: Error | undefined;
		try {
			result = (await type.poll!.call(context)) ?? null;
		} catch (e) {
			error = e as Error;
		}
		const wallMs = performance.now() - started;
		const warnings = getCapturedLogs()
			.filter((line) => line.level === 'warn')
			.map((line) => line.message);
		// The harness keeps n8n's log lines for tests; a long simulation would pile them up.
		clearCapturedLogs();
		const items = result === null ? null : (result[0] ?? []).map((item) => item.json);
		return { items: error ? null : items, error, wallMs, warnings };
	}

	private static bytes(data: IDataObject): number {
		return JSON.stringify(data).length;
	}

	/** The slowest request a poll timed, as the trigger reads it back from the state the poll wrote. */
	private slowestRequestMs(data: IDataObject): number | undefined {
		return readEventState(this.node.parameters.event as EventName, data)?.measured?.requestMs;
	}

	/** The first activation of the workflow (publishing it): a test poll. */
	async activate(): Promise<PollRun> {
		return await this.activationPoll('activate');
	}

	private async activationPoll(activation: WorkflowActivateMode): Promise<PollRun> {
		const seq = this.runs++;
		const workflow = this.workflowFrom(this.db);
		const unsaved = this.durable ? this.unsavedOf(workflow) : undefined;
		const startedFrom = unsaved?.startedFrom ?? this.dbFrom;
		const run = await this.execute(workflow, activation, this.durable ? this.budget() : undefined);
		const after = N8nModel.read(workflow);
		if (run.error) {
			// The activation failed: n8n stores nothing and tries to activate again later.
			if (!this.durable) {
				this.live = null;
				this.activationPending = true;
			}
			return {
				kind: 'activation',
				items: null,
				error: run.error,
				wallMs: run.wallMs,
				warnings: run.warnings,
				abandoned: false,
				stateBytes: N8nModel.bytes(this.db.node),
				seq,
				startedFrom,
			};
		}
		if (this.durable) {
			// A test poll that emits saves all (n8n-core's PollTriggerExecutor hands its items to __emit, which saves the
			// static data or commits the staged cursor with the execution); one that emits nothing commits no cursor: the
			// node's static data is dropped, the workflow's global static data is saved (measured in a real n8n).
			// Where that leaves the database copy as it was (a state or an activation baseline already kept), the next
			// poll starts from the run that copy came from (or from the trigger's memory of this poll), not from this one
			// (wide soak, seed 176).
			const kept = JSON.stringify(this.db);
			this.db = run.items !== null ? after : { node: this.db.node, global: after.global };
			if (run.items !== null || JSON.stringify(this.db) !== kept) this.dbFrom = seq;
			unsaved?.recordLeft(seq, after.node);
		} else {
			this.live = workflow;
			this.liveFrom = seq;
			this.activationPending = false;
			this.db = after;
			this.dbFrom = seq;
		}
		return {
			kind: 'activation',
			items: run.items,
			wallMs: run.wallMs,
			warnings: run.warnings,
			budgetMs: this.durable ? this.budget() : undefined,
			abandoned: false,
			stateBytes: N8nModel.bytes(after.node),
			slowestRequestMs: this.slowestRequestMs(after.node),
			seq,
			startedFrom,
		};
	}

	get durable(): boolean {
		return this.scheduler !== 'in-memory';
	}

	private budget(timeoutMs = DEFAULT_POLL_TIMEOUT_MS): number {
		return budgetForTimeout(timeoutMs);
	}

	/** A scheduled poll. `timeoutMs`: the durable scheduler's poll timeout (default 45 s). */
	async poll(timeoutMs = DEFAULT_POLL_TIMEOUT_MS): Promise<PollRun> {
		if (!this.durable) {
			if (this.activationPending || !this.live) return await this.activationPoll('init');
			const seq = this.runs++;
			const startedFrom = this.liveFrom;
			const workflow = this.live;
			const before = JSON.stringify(N8nModel.read(workflow).node);
			const run = await this.execute(workflow, 'init', undefined);
			const after = N8nModel.read(workflow);
			// A poll that wrote its state (in memory) is where the next one starts.
			if (this.live === workflow && JSON.stringify(after.node) !== before) this.liveFrom = seq;
			// Emitting saves the workflow's static data (all of it, as it is in memory).
			if (!run.error && run.items !== null) {
				this.db = after;
				this.dbFrom = this.liveFrom;
			}
			return {
				kind: 'scheduled',
				items: run.items,
				error: run.error,
				wallMs: run.wallMs,
				warnings: run.warnings,
				abandoned: false,
				stateBytes: N8nModel.bytes(after.node),
				slowestRequestMs: this.slowestRequestMs(after.node),
				seq,
				startedFrom,
			};
		}
		const seq = this.runs++;
		const budgetMs = this.budget(timeoutMs);
		const workflow = this.workflowFrom(this.db);
		const unsaved = this.unsavedOf(workflow);
		const startedFrom = unsaved.startedFrom;
		const run = await this.execute(workflow, 'init', budgetMs);
		const after = N8nModel.read(workflow);
		unsaved.recordLeft(seq, after.node);
		const abandoned = run.wallMs > timeoutMs;
		if (!abandoned && !run.error) {
			if (run.items !== null) {
				this.db = after;
				this.dbFrom = seq;
			} else if (this.scheduler === 'durable-cursors') {
				this.db = { node: after.node, global: this.db.global };
				this.dbFrom = seq;
			}
		}
		return {
			kind: 'scheduled',
			items: abandoned ? null : run.items,
			error: run.error,
			wallMs: run.wallMs,
			warnings: run.warnings,
			budgetMs,
			abandoned,
			stateBytes: N8nModel.bytes(after.node),
			slowestRequestMs: this.slowestRequestMs(after.node),
			seq,
			startedFrom,
		};
	}

	/** A poll killed mid-way: it runs (its requests reach the API) but nothing of it is emitted or stored. */
	async killedPoll(timeoutMs = DEFAULT_POLL_TIMEOUT_MS): Promise<PollRun> {
		const seq = this.runs++;
		const startedFrom = !this.durable && this.live ? this.liveFrom : this.dbFrom;
		const source = !this.durable && this.live ? N8nModel.read(this.live) : this.db;
		const workflow = this.workflowFrom(source);
		const budgetMs = this.durable ? this.budget(timeoutMs) : undefined;
		const run = await this.execute(workflow, 'init', budgetMs);
		this.live = null;
		this.life++;
		return {
			kind: 'killed',
			items: null,
			error: run.error,
			wallMs: run.wallMs,
			warnings: run.warnings,
			budgetMs,
			abandoned: false,
			stateBytes: N8nModel.bytes(N8nModel.read(workflow).node),
			seq,
			startedFrom,
		};
	}

	/**
	 * The user deactivates the workflow: its polls stop; the database keeps its static data as the last save left it
	 * (what a poll that emitted nothing changed in memory is not saved). n8n's process goes on: what the trigger keeps
	 * in the process's memory stays.
	 */
	deactivate(): void {
		this.live = null;
		this.activationPending = false;
	}

	/**
	 * The user activates it again: an activation poll from the database copy, as a first activation (the durable
	 * scheduler provisions its poll jobs afresh and runs the first poll inline).
	 */
	async reactivate(): Promise<PollRun> {
		return await this.activationPoll('activate');
	}

	/**
	 * Another node of the workflow writes its global static data and n8n saves it (a Code node in an execution, another
	 * trigger): the database copy changes; the trigger's node data and what an in-memory workflow holds stay.
	 */
	writeGlobal(key: string, value: number): void {
		this.db = { node: this.db.node, global: { ...this.db.global, [key]: value } };
	}

	/** n8n stops (what is only in memory is lost). */
	stop(): void {
		this.live = null;
		this.life++;
	}

	/** n8n starts: the in-memory scheduler activates the workflow again (an activation poll); the durable one does not. */
	async start(): Promise<PollRun | undefined> {
		if (this.durable) return undefined;
		return await this.activationPoll('init');
	}

	/** The node's static data as it is now (in memory, else stored). */
	state(): IDataObject {
		return !this.durable && this.live ? N8nModel.read(this.live).node : this.db.node;
	}

	/** JSON size of the node's static data as it is now (in memory, else stored). */
	stateBytes(): number {
		return N8nModel.bytes(this.state());
	}
}
