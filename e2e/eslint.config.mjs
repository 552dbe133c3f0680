// The code around the package: see eslint.tools.mjs at the repository root.
import { toolsConfig } from '../eslint.tools.mjs';

export default toolsConfig();
