import { describeResource } from '../../operation/define';
import { getManyTopPages } from './getMany';

export const topPageDescription = describeResource('topPage', [getManyTopPages], 'getMany');
