import { packageBuild } from '../../tsup.config.base';

// The root and the runner-free runtime share one copy of the code in both formats.
export default packageBuild({ index: 'src/index.ts', runtime: 'src/runtime.ts' }, { splitting: true });
