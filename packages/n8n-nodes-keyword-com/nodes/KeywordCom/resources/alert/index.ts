import { describeResource } from '../../shared/operation';
import { getManyAlerts } from './getMany';

export const alertDescription = describeResource('alert', [getManyAlerts], 'getMany');
