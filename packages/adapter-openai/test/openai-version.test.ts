import { VERSION } from 'openai/version';
import { expect, it } from 'vitest';

// The default toolchain tests openai 6; the compatibility run (scripts/compat-openai7.sh) sets 7.
it(`runs against openai ${process.env.OPENAI_EXPECT_MAJOR ?? '6'}.x`, () => {
  expect(VERSION.split('.')[0]).toBe(process.env.OPENAI_EXPECT_MAJOR ?? '6');
});
