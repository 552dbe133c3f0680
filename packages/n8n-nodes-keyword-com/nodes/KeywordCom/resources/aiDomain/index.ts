import { describeResource } from '../../shared/operation';
import { getAiDomain } from './get';
import { getManyAiDomains } from './getMany';

export const aiDomainDescription = describeResource('aiDomain', [getAiDomain, getManyAiDomains], 'getMany');
