import { packageBuild } from '../../tsup.config.base';

// The entries share one copy of the code in both formats (CJS too), so module state such as the
// set of trusted continuations is the same whichever entry a record came through.
export default packageBuild(
  {
    index: 'src/index.ts',
    'store-kit': 'src/store-kit.ts',
    'adapter-kit': 'src/adapter-kit.ts',
    zod: 'src/zod/index.ts',
  },
  { splitting: true },
);
