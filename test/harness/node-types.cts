import { NodeHelpers, UnexpectedError } from 'n8n-workflow';
import type { IDataObject, INode, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';

/** The package name n8n prefixes our node types with (`<package>.<description.name>`). */
export const PACKAGE_NAME = 'n8n-nodes-keyword-com';

/** Full type name of a node type: `n8n-nodes-keyword-com.<description.name>` unless the name already has a dot. */
export function fullTypeName(nodeType: INodeType | IVersionedNodeType): string {
	const name = nodeType.description.name;
	return name.includes('.') ? name : `${PACKAGE_NAME}.${name}`;
}

/** An `INodeTypes` registry over given node type instances, keyed by full type name. */
export class TestNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	constructor(entries: Record<string, INodeType | IVersionedNodeType> = {}) {
		for (const [name, type] of Object.entries(entries)) this.register(name, type);
	}

	register(typeName: string, nodeType: INodeType | IVersionedNodeType): this {
		this.types.set(typeName, nodeType);
		return this;
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new UnexpectedError(`Unknown node type: ${nodeType}`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		const known: IDataObject = {};
		for (const name of this.types.keys()) known[name] = { className: name, sourcePath: '' };
		return known;
	}
}

/** The node's `credentials` field for the credential data a run is given: one reference per credential type. */
export function credentialReferences(
	credentials: Record<string, unknown>,
): NonNullable<INode['credentials']> {
	const references: NonNullable<INode['credentials']> = {};
	Object.keys(credentials).forEach((credentialType, index) => {
		references[credentialType] = { id: String(index + 1), name: `${credentialType} (test)` };
	});
	return references;
}
