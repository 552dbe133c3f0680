import { describeResource } from '../../operation/define';
import { getAiDomain } from './get';
import { getManyAiDomains } from './getMany';

export const aiDomainDescription = describeResource(
	'aiDomain',
	[getAiDomain, getManyAiDomains],
	'getMany',
);
