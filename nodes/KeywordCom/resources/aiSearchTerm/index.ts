import { describeResource } from '../../operation/define';
import { getManyAiSearchTerms } from './getMany';

export const aiSearchTermDescription = describeResource(
	'aiSearchTerm',
	[getManyAiSearchTerms],
	'getMany',
);
