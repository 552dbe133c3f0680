import { describeResource } from '../../operation/define';
import { getManyAlerts } from './getMany';

export const alertDescription = describeResource('alert', [getManyAlerts], 'getMany');
