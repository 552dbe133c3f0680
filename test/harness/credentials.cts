/**
 * `TestCredentialsHelper`: holds decrypted credential data by credential type name and applies the credential
 * types' `authenticate` the way n8n's CLI CredentialsHelper does (n8n's own nodes-testing helper ignores
 * *generic* `authenticate` objects; this one resolves each header/qs/body/auth expression with `$credentials`
 * through the workflow's expression engine and merges it into the request options).
 */
import { Credentials } from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	Workflow,
	isExpression,
} from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { KeywordComApi } from '../../credentials/KeywordComApi.credentials';
import { TestNodeTypes } from './node-types.cjs';

/** Credential types known to every helper unless replaced: the project's own. */
export function defaultCredentialTypes(): ICredentialType[] {
	return [new KeywordComApi()];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Throws unless the request goes to a loopback host (the harness must never touch the real network). */
export function assertLoopbackRequest(
	options: IHttpRequestOptions | IRequestOptionsSimplified,
): void {
	const o = options as IHttpRequestOptions & { uri?: string };
	const url = o.url ?? o.uri ?? '';
	let resolved: URL;
	try {
		resolved = o.baseURL
			? new URL(url, o.baseURL.endsWith('/') ? o.baseURL : `${o.baseURL}/`)
			: new URL(url);
	} catch {
		// Relative URL without a base: axios would fail on its own; leave it to the real code path.
		return;
	}
	if (!LOOPBACK_HOSTS.has(resolved.hostname)) {
		throw new Error(
			`test harness: refusing a request to non-loopback host "${resolved.hostname}" (${resolved.protocol}//${resolved.host})`,
		);
	}
}

const mockNode: INode = {
	id: 'harness-credential-node',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly credentialTypes = new Map<string, ICredentialType>();

	private data: Record<string, ICredentialDataDecryptedObject>;

	/** Every request options object after authentication, in order (shared references, not copies). */
	readonly authenticatedRequests: IHttpRequestOptions[] = [];

	constructor(
		data: Record<string, ICredentialDataDecryptedObject> = {},
		credentialTypes: ICredentialType[] = defaultCredentialTypes(),
		private readonly options: {
			loopbackOnly?: boolean;
			/** How long reading a credential takes (n8n reads it from its database; a busy one is slow). */
			readDelayMs?: number;
		} = {},
	) {
		super();
		for (const type of credentialTypes) this.credentialTypes.set(type.name, type);
		this.data = structuredClone(data);
	}

	setCredentials(data: Record<string, ICredentialDataDecryptedObject>): void {
		this.data = structuredClone(data);
	}

	getCredentialType(typeName: string): ICredentialType {
		const type = this.credentialTypes.get(typeName);
		if (!type) throw new UnexpectedError(`Unknown credential type: ${typeName}`);
		return type;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		let requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const credentialType = this.getCredentialType(typeName);
		const { authenticate } = credentialType;
		if (typeof authenticate === 'function') {
			requestOptions = await authenticate(credentials, requestOptions);
		} else if (typeof authenticate === 'object') {
			if (!workflow || !node) {
				throw new UnexpectedError(
					'Workflow and node are required for declarative credential authentication',
				);
			}
			if (requestOptions.headers === undefined) requestOptions.headers = {};
			if (authenticate.type === 'generic') {
				for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
					for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
						const keyResolved = resolveValue(key, { $credentials: credentials }, workflow, node);
						const valueResolved = resolveValue(
							value,
							{ $credentials: credentials },
							workflow,
							node,
						);
						const target = requestOptions as unknown as Record<string, Record<string, string>>;
						if (!target[outerKey]) target[outerKey] = {};
						target[outerKey][keyResolved] = valueResolved;
					}
				}
			}
		}
		if (this.options.loopbackOnly !== false) assertLoopbackRequest(requestOptions);
		this.authenticatedRequests.push(requestOptions);
		return requestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		_node: INode,
		_credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		// Our credential type has no expirable property, so n8n's helper would return undefined too.
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	getParentTypes(name: string): string[] {
		const type = this.credentialTypes.get(name);
		const parents: string[] = [];
		for (const parent of type?.extends ?? []) parents.push(parent, ...this.getParentTypes(parent));
		return parents;
	}

	isCredentialUsableByNode(_credentialType: string, _nodeType: string): boolean {
		return true;
	}

	/**
	 * Like the CLI: the stored data with the credential type's defaults filled in (NodeHelpers.getNodeParameters)
	 * and `=`-expressions in it resolved. A fresh copy each call.
	 */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		_executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		if (this.options.readDelayMs)
			await new Promise((resolve) => setTimeout(resolve, this.options.readDelayMs));
		const stored = this.data[type];
		if (stored === undefined) {
			throw new UnexpectedError(
				`test harness: no credentials of type "${type}" were given to the run`,
			);
		}
		const copy = structuredClone(stored);
		if (raw) return copy;
		return this.applyDefaultsAndResolve(copy, type, mode, expressionResolveValues);
	}

	applyDefaultsAndResolve(
		decrypted: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode = 'internal',
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const withDefaults = (NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			decrypted as INodeParameters,
			true,
			false,
			null,
			null,
		) ?? {}) as ICredentialDataDecryptedObject;
		// getNodeParameters drops keys that are not properties (e.g. oauthTokenData); keep them like n8n does.
		for (const [key, value] of Object.entries(decrypted)) {
			if (!(key in withDefaults)) withDefaults[key] = value;
		}
		if (!Object.values(withDefaults).some((v) => isExpression(v))) return withDefaults;
		const workflow =
			expressionResolveValues?.workflow ??
			new Workflow({ nodes: [], connections: {}, active: false, nodeTypes: new TestNodeTypes() });
		return workflow.expression.getComplexParameterValue(
			expressionResolveValues?.node ?? mockNode,
			withDefaults as INodeParameters,
			mode,
			{},
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		return new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type, '');
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.getCredentialType(type);
		if (!credentialType.extends) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}

/** Resolves an `=`-expression the way the CLI CredentialsHelper's `resolveValue` does ('internal' mode). */
function resolveValue(
	parameterValue: string,
	additionalKeys: IWorkflowDataProxyAdditionalKeys,
	workflow: Workflow,
	node: INode,
): string {
	if (!isExpression(parameterValue)) return parameterValue;
	const returnValue = workflow.expression.getSimpleParameterValue(
		node,
		parameterValue,
		'internal',
		additionalKeys,
		undefined,
		'',
	);
	if (!returnValue) return '';
	return String(returnValue);
}
