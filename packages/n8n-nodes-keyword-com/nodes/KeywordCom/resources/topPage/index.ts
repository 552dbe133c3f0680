import { describeResource } from '../../shared/operation';
import { getManyTopPages } from './getMany';

export const topPageDescription = describeResource('topPage', [getManyTopPages], 'getMany');
