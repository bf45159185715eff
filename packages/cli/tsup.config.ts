import { packageBuild } from '../../tsup.config.base';

// `bin` is the executable (`agent-continuations`); `index` is the same command line as a function.
export default packageBuild({ index: 'src/index.ts', bin: 'src/bin.ts' });
