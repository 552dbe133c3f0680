/**
 * `runListSearch`: calls a node's resource-locator list search the way n8n's editor gets it answered
 * (`POST /rest/dynamic-node-parameters/resource-locator-results` → DynamicNodeParametersService): a workflow holding
 * only the node, with the editor's current parameters, and n8n-core's LoadOptionsContext as `this`.
 */
import { LoadOptionsContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';

import { createAdditionalData, nextExecutionId } from './additional-data.cjs';
import { TestCredentialsHelper, defaultCredentialTypes } from './credentials.cjs';
import { TestNodeTypes, credentialReferences, fullTypeName } from './node-types.cjs';
import { latestVersion } from './run-node.cjs';
import { ensureN8nEnvironment } from './setup.cjs';

export interface ListSearchOptions {
	nodeType: INodeType;
	/** The `searchListMethod` of the resource locator. */
	method: string;
	/** The node's parameters as the editor holds them when the list opens (resource locators as `{__rl, mode, value}`). */
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** What the user typed in the list's search box. */
	filter?: string;
	/** The token of the previous answer (the editor sends it when the list is scrolled to its end). */
	paginationToken?: string;
	typeVersion?: number;
	/** The parameter's path, as the editor sends it; default `parameters.<name>` is not needed by our methods. */
	path?: string;
	credentialTypes?: ICredentialType[];
}

/** n8n-core's LoadOptionsContext for the node alone, with the editor's current parameters. */
function editorContext(
	options: Omit<ListSearchOptions, 'method' | 'filter' | 'paginationToken'>,
	path: string,
): LoadOptionsContext {
	ensureN8nEnvironment();
	const typeName = fullTypeName(options.nodeType);
	const nodeTypes = new TestNodeTypes({ [typeName]: options.nodeType });
	const node: INode = {
		id: 'uuid-1234',
		name: 'Temp-Node',
		type: typeName,
		typeVersion: options.typeVersion ?? latestVersion(options.nodeType),
		position: [0, 0],
		parameters: structuredClone(options.parameters),
		credentials: credentialReferences(options.credentials),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const credentialsHelper = new TestCredentialsHelper(
		options.credentials,
		options.credentialTypes ?? defaultCredentialTypes(),
	);
	const additionalData = createAdditionalData(credentialsHelper, undefined, nextExecutionId());
	additionalData.currentNodeParameters = options.parameters;
	return new LoadOptionsContext(workflow, workflow.nodes[node.name], additionalData, path);
}

export async function runListSearch(options: ListSearchOptions): Promise<INodeListSearchResult> {
	const context = editorContext(options, options.path ?? 'parameters.keywordId');
	const method = options.nodeType.methods?.listSearch?.[options.method];
	if (typeof method !== 'function') throw new Error(`no listSearch method ${options.method}`);
	return await method.call(context, options.filter, options.paginationToken);
}

/**
 * `runLoadOptions`: a node's `loadOptions` method (the options of a dropdown or multi-select) answered the way n8n's
 * editor gets it (`POST /rest/dynamic-node-parameters/options`).
 */
export async function runLoadOptions(
	options: Omit<ListSearchOptions, 'filter' | 'paginationToken'>,
): Promise<INodePropertyOptions[]> {
	const context = editorContext(options, options.path ?? 'parameters');
	const method = options.nodeType.methods?.loadOptions?.[options.method];
	if (typeof method !== 'function') throw new Error(`no loadOptions method ${options.method}`);
	return await method.call(context);
}
