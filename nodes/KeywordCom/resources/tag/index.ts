import { describeResource } from '../../operation/define';
import { getManyTags } from './getMany';

export const tagDescription = describeResource('tag', [getManyTags], 'getMany');
