import { describeResource } from '../../shared/operation';
import { getManyTags } from './getMany';

export const tagDescription = describeResource('tag', [getManyTags], 'getMany');
