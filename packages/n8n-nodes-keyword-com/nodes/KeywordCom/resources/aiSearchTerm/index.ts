import { describeResource } from '../../shared/operation';
import { getManyAiSearchTerms } from './getMany';

export const aiSearchTermDescription = describeResource('aiSearchTerm', [getManyAiSearchTerms], 'getMany');
