import { describeResource } from '../../shared/operation';
import { getAccount } from './get';

export const accountDescription = describeResource('account', [getAccount], 'get');
