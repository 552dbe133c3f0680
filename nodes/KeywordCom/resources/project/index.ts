import { describeResource } from '../../operation/define';
import { archiveProject } from './archive';
import { createProject } from './create';
import { deleteProject } from './delete';
import { getProject } from './get';
import { getProjectMetrics } from './getMetrics';
import { getManyProjects } from './getMany';
import { getProjectRegions } from './getRegions';
import { refreshProject } from './refresh';
import { restoreProject } from './restore';

export const projectDescription = describeResource(
	'project',
	[
		archiveProject,
		createProject,
		deleteProject,
		getProject,
		getManyProjects,
		getProjectMetrics,
		getProjectRegions,
		refreshProject,
		restoreProject,
	],
	'getMany',
);
