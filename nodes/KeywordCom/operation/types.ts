import type {
	IDataObject,
	IHttpRequestMethods,
	INode,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { PageStyle } from '../../shared/paging';
import type { RecordKind } from '../../shared/recordKinds';
import type { ApiRequest, ApiResponse, AttemptHooks } from '../../shared/transport';

/** What an operation reads of the current item. */
export interface OperationInput {
	node: INode;
	itemIndex: number;
	/** A parameter of the current item (resource locators give their value). */
	get(name: string, fallback?: unknown): unknown;
}

export interface PreparedRequest {
	/** Values for the `{placeholders}` of the path, already URL-encoded. */
	path?: Record<string, string>;
	qs?: IDataObject;
	body?: unknown;
	/** Checked operation settings that are not part of the request (e.g. the chunk size of Add). */
	settings?: IDataObject;
}

export type OutputSpec =
	/**
	 * `data` is a list: one item per record. The kind's catalogue (shared/recordKinds/) names the fields Output
	 * Simplified and Selected Fields give.
	 */
	| {
			type: 'records';
			kind: RecordKind;
			select?: (body: IDataObject, input: OperationInput) => unknown[];
			/** The records are the rows of one report: no Return All / Limit (the report's period says how many). */
			whole?: boolean;
	  }
	/** `data` is one record: one item. */
	| { type: 'record'; kind: RecordKind }
	/**
	 * The whole answer as one item, without `links`. `holds`: the item lists records of this kind (Add's created
	 * keywords), shaped by the Output choice.
	 */
	| { type: 'body'; holds?: RecordKind }
	/**
	 * A report whose fields the document does not show (AI sentiment, citations): the content of `data`, or the whole
	 * answer without `links` when it has no `data`.
	 */
	| { type: 'report' }
	/** Operations whose answer body is not documented: a confirmation item, plus the answer when there is one. */
	| {
			type: 'confirmation';
			result: (input: OperationInput, prepared: PreparedRequest) => IDataObject;
	  };

/** What an operation's own `run` gets: the checked item and a way to send. */
export interface OperationRuntime {
	input: OperationInput;
	prepared: PreparedRequest;
	url: string;
	method: IHttpRequestMethods;
	send(request: Omit<ApiRequest, 'base'>, hooks?: AttemptHooks): Promise<ApiResponse>;
	/** One record as the user chose to see it (Output). */
	shape(record: unknown, kind: RecordKind): IDataObject;
	/** Return All / Limit of the item, checked (a `run` that reads lists stops once it has enough). */
	size: { returnAll: boolean; limit: number };
}

export interface OperationConfig {
	resource: string;
	value: string;
	name: string;
	/** Shown in the node list and used as the tool description for AI agents. */
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** Path template, e.g. `/api/v2/groups/{target}/keywords`. */
	path: string;
	/** The operation's node parameters (the fields of its panel). */
	fields?: INodeProperties[];
	prepare?: (input: OperationInput) => PreparedRequest;
	output: OutputSpec;
	/** A paged list: adds Return All / Limit and a Concurrency option. */
	paged?: PageStyle;
	/** Replaces the default single request (chunked adds, lists derived from another record). */
	run?: (runtime: OperationRuntime) => Promise<IDataObject[]>;
	/** Keep the account record's `api_token` (the user opted in). */
	revealToken?: (input: OperationInput) => boolean;
	/** As an AI tool, Keyword ID may be the keyword's text: looked up in the project first (keywordLookup.ts). */
	keywordByText?: boolean;
	/**
	 * The endpoint names the project by its numeric ID: the user picks the project and group by name, and `prepare`
	 * reads the ID as the parameter `projectId`, looked up from the record (projectIdLookup.ts) once all is checked.
	 */
	projectId?: true;
}

export interface OperationDefinition {
	option: INodePropertyOptions;
	fields: INodeProperties[];
}
