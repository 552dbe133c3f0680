import { describeResource } from '../../operation/define';
import { addKeywords } from './add';
import { deleteKeyword } from './delete';
import { deleteManyKeywords } from './deleteMany';
import { getKeyword } from './get';
import { getManyKeywords } from './getMany';
import { updateManyKeywords } from './updateMany';

export const keywordDescription = describeResource(
	'keyword',
	[addKeywords, deleteKeyword, deleteManyKeywords, getKeyword, getManyKeywords, updateManyKeywords],
	'getMany',
);
