import { API_PREFIX } from '../../../shared/constants';
import { defineOperation } from '../../operation/define';
import { composeName } from '../../../shared/groupName';
import { checkCurrency, checkName } from '../../../shared/validation';

/** #7 POST /api/v2/groups */
export const createProject = defineOperation({
	resource: 'project',
	value: 'create',
	name: 'Create',
	action: 'Create a project',
	description:
		'Create a project, or a group inside an existing project when Group Name is set, with its reporting currency',
	method: 'POST',
	path: `${API_PREFIX}/groups`,
	fields: [
		{
			displayName: 'Project Name',
			name: 'projectName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. Acme Shoes',
			description:
				'Name of the new project, or of the existing parent project when creating a group',
		},
		{
			displayName: 'Group Name',
			name: 'groupName',
			type: 'string',
			default: '',
			placeholder: 'e.g. Blog',
			description:
				'Set to create a group inside the project instead of a project. The parent project must exist.',
		},
		{
			displayName: 'Currency Code',
			name: 'currencyCode',
			type: 'string',
			default: 'USD',
			required: true,
			placeholder: 'e.g. USD',
			description: 'Reporting currency: a 3-letter ISO 4217 code',
		},
	],
	prepare: (input) => {
		const project = checkName('Project Name', input.get('projectName'));
		const group = checkName('Group Name', input.get('groupName', ''), { allowEmpty: true });
		const currency = checkCurrency('Currency Code', input.get('currencyCode'));
		return {
			body: {
				data: {
					type: 'project',
					attributes: { category: composeName(project, group), currency_code: currency },
				},
			},
		};
	},
	output: { type: 'record', kind: 'group' },
});
