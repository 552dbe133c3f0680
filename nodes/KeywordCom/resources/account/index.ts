import { describeResource } from '../../operation/define';
import { getAccount } from './get';

export const accountDescription = describeResource('account', [getAccount], 'get');
